/**
 * web3.js v4 over HTTP: chain reads, a signed transfer, an ERC20 deployed and used through
 * `web3.eth.Contract`, past logs, and node-signed txs from the dev accounts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Web3 } from 'web3';
import { ERC20_BYTECODE } from '../../src/app/fixtures/erc20.js';
import { DEV, startEthTestNode, type EthTestNode } from './helpers.js';

const ABI = [
  { type: 'constructor', inputs: [{ name: 'supply', type: 'uint256' }], stateMutability: 'nonpayable' },
  { type: 'function', name: 'balanceOf', inputs: [{ name: 'a', type: 'address' }], outputs: [{ name: '', type: 'uint256' }], stateMutability: 'view' },
  {
    type: 'function',
    name: 'transfer',
    inputs: [
      { name: 'to', type: 'address' },
      { name: 'value', type: 'uint256' },
    ],
    outputs: [{ name: '', type: 'bool' }],
    stateMutability: 'nonpayable',
  },
  {
    type: 'event',
    name: 'Transfer',
    anonymous: false,
    inputs: [
      { name: 'from', type: 'address', indexed: true },
      { name: 'to', type: 'address', indexed: true },
      { name: 'value', type: 'uint256', indexed: false },
    ],
  },
] as const;

let t: EthTestNode;
let web3: Web3;

beforeAll(async () => {
  t = await startEthTestNode();
  web3 = new Web3(t.url);
  web3.eth.accounts.wallet.add(DEV[0]!.privateKey);
});

afterAll(async () => {
  await t?.stop();
});

describe('web3.js v4', () => {
  it('reads the chain', async () => {
    expect(await web3.eth.getChainId()).toBe(9000n);
    expect(await web3.eth.net.getId()).toBe(9000n);
    expect(await web3.eth.getBlockNumber()).toBeGreaterThanOrEqual(0n);
    expect(await web3.eth.getBalance(DEV[1]!.address)).toBeGreaterThan(0n);
    expect(await web3.eth.getGasPrice()).toBeGreaterThan(0n);
  });

  it('sends a signed transfer', async () => {
    const receipt = await web3.eth.sendTransaction({ from: DEV[0]!.address, to: DEV[9]!.address, value: 1000n, type: 2 });
    expect(receipt.status).toBe(1n);
    const tx = await web3.eth.getTransaction(receipt.transactionHash);
    expect(tx.blockNumber).toBe(receipt.blockNumber);
  });

  it('deploys and uses an ERC20, and reads its past logs', async () => {
    const factory = new web3.eth.Contract(ABI);
    const deployed = await factory.deploy({ data: `0x${ERC20_BYTECODE}`, arguments: [10n ** 24n] }).send({ from: DEV[0]!.address });
    const address = deployed.options.address!;
    const token = new web3.eth.Contract(ABI, address);
    const receipt = await token.methods.transfer(DEV[2]!.address, 321n).send({ from: DEV[0]!.address });
    expect(receipt.status).toBe(1n);
    expect(await token.methods.balanceOf(DEV[2]!.address).call()).toBe(321n);
    const events = await token.getPastEvents('Transfer', { fromBlock: 0 });
    expect(events.length).toBe(2);
    const logs = await web3.eth.getPastLogs({ address, fromBlock: 0, toBlock: 'latest' });
    expect(logs.length).toBe(2);
  });

  it('node-signed txs from a dev account (eth_sendTransaction)', async () => {
    const plain = new Web3(t.url);
    expect((await plain.eth.getAccounts()).map((a) => a.toLowerCase())).toContain(DEV[3]!.address.toLowerCase());
    const receipt = await plain.eth.sendTransaction({ from: DEV[3]!.address, to: DEV[9]!.address, value: 5n });
    expect(receipt.status).toBe(1n);
    expect(receipt.from).toBe(DEV[3]!.address.toLowerCase());
  });
});
