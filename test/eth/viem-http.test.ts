/**
 * viem over HTTP, as a dapp uses the node: transfers and receipts, an ERC20 deployed, read and
 * written, gas estimates, logs, polling watchers (filters), and the dev accounts signing through
 * the node (eth_sendTransaction, eth_signTypedData_v4, eth_sign).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { erc20Abi, parseAbiItem, recoverMessageAddress, verifyTypedData, createPublicClient, createWalletClient, http, type Address, type Hex } from 'viem';
import { ERC20_BYTECODE } from '../../src/app/fixtures/erc20.js';
import { account0, account1, call, chainlet, DEV, httpClients, recordingHttp, startEthTestNode, waitFor, type EthTestNode } from './helpers.js';

const deployAbi = [...erc20Abi, { type: 'constructor', inputs: [{ name: 'supply', type: 'uint256' }], stateMutability: 'nonpayable' }] as const;

let t: EthTestNode;
let c: ReturnType<typeof httpClients>;
let token: Address;

beforeAll(async () => {
  t = await startEthTestNode();
  c = httpClients(t.url);
  const hash = await c.wallet.deployContract({ abi: deployAbi, bytecode: `0x${ERC20_BYTECODE}`, args: [10n ** 24n] });
  const receipt = await c.public.waitForTransactionReceipt({ hash });
  expect(receipt.status).toBe('success');
  token = receipt.contractAddress!;
});

afterAll(async () => {
  await t?.stop();
});

describe('viem over HTTP', () => {
  it('reads the chain', async () => {
    expect(await c.public.getChainId()).toBe(9000);
    expect(await c.public.getBlockNumber()).toBeGreaterThan(0n);
    expect(await c.public.getBalance({ address: account1.address })).toBeGreaterThan(0n);
    const block = await c.public.getBlock({ includeTransactions: true });
    expect(block.transactions.length).toBeGreaterThan(0);
    expect(block.hash).toMatch(/^0x[0-9a-f]{64}$/);
  });

  it('sends a transfer and waits for its receipt', async () => {
    const before = await c.public.getBalance({ address: DEV[8]!.address as Address });
    const hash = await c.wallet.sendTransaction({ to: DEV[8]!.address as Address, value: 12345n });
    const receipt = await c.public.waitForTransactionReceipt({ hash });
    expect(receipt).toMatchObject({ status: 'success', gasUsed: 21_000n, type: 'eip1559' });
    expect(receipt.effectiveGasPrice).toBeGreaterThan(0n);
    expect(await c.public.getBalance({ address: DEV[8]!.address as Address })).toBe(before + 12345n);
    const tx = await c.public.getTransaction({ hash });
    expect(tx.blockHash).toBe(receipt.blockHash);
    const block = await c.public.getBlock({ blockHash: receipt.blockHash });
    expect(block.number).toBe(receipt.blockNumber);
  });

  it('reads, estimates and writes the ERC20', async () => {
    expect(await c.public.readContract({ address: token, abi: erc20Abi, functionName: 'symbol' })).toBe('CTT');
    expect(await c.public.readContract({ address: token, abi: erc20Abi, functionName: 'balanceOf', args: [account0.address] })).toBeGreaterThan(0n);
    const gas = await c.public.estimateContractGas({
      address: token,
      abi: erc20Abi,
      functionName: 'transfer',
      args: [account1.address, 5n],
      account: account0,
    });
    const { request } = await c.public.simulateContract({
      address: token,
      abi: erc20Abi,
      functionName: 'transfer',
      args: [account1.address, 5n],
      account: account0,
    });
    const hash = await c.wallet.writeContract(request);
    const receipt = await c.public.waitForTransactionReceipt({ hash });
    expect(receipt.status).toBe('success');
    expect(receipt.gasUsed).toBeLessThanOrEqual(gas);
    expect(receipt.logs).toHaveLength(1);
    expect(await c.public.readContract({ address: token, abi: erc20Abi, functionName: 'balanceOf', args: [account1.address] })).toBe(5n);
  });

  it('a reverting call throws the revert reason', async () => {
    await expect(
      c.public.simulateContract({ address: token, abi: erc20Abi, functionName: 'transfer', args: [account0.address, 1n], account: DEV[6]!.address as Address }),
    ).rejects.toThrow(/insufficient balance/);
  });

  it('getLogs by event and address', async () => {
    const logs = await c.public.getLogs({
      address: token,
      event: parseAbiItem('event Transfer(address indexed from, address indexed to, uint256 value)'),
      fromBlock: 1n,
    });
    expect(logs.length).toBeGreaterThanOrEqual(2);
    expect(logs.every((l) => l.address === token)).toBe(true);
    expect(logs.some((l) => l.args.to === account1.address && l.args.value === 5n)).toBe(true);
  });

  it('watchBlockNumber (polling) sees new blocks', async () => {
    const seen: bigint[] = [];
    const unwatch = c.public.watchBlockNumber({ onBlockNumber: (n) => void seen.push(n), pollingInterval: 30, emitOnBegin: true });
    try {
      const start = await waitFor(async () => seen.at(-1));
      const hash = await c.wallet.sendTransaction({ to: DEV[7]!.address as Address, value: 1n });
      const { blockNumber } = await c.public.waitForTransactionReceipt({ hash });
      expect(blockNumber).toBeGreaterThan(start);
      await waitFor(async () => (seen.includes(blockNumber) ? true : undefined));
    } finally {
      unwatch();
    }
  });

  it('watchContractEvent (filters over HTTP) delivers Transfer events', async () => {
    const got: unknown[] = [];
    const rec = recordingHttp(t.url);
    const client = createPublicClient({ chain: chainlet, transport: rec.transport, pollingInterval: 30 });
    const unwatch = client.watchContractEvent({ address: token, abi: erc20Abi, eventName: 'Transfer', onLogs: (logs) => void got.push(...logs) });
    try {
      // The filter is installed once viem polls it.
      await waitFor(async () => (rec.methods.includes('eth_getFilterChanges') ? true : undefined));
      expect(rec.methods).toContain('eth_newFilter');
      const hash = await c.wallet.writeContract({ address: token, abi: erc20Abi, functionName: 'transfer', args: [DEV[3]!.address as Address, 7n] });
      await c.public.waitForTransactionReceipt({ hash });
      await waitFor(async () => got[0]);
    } finally {
      unwatch();
    }
    expect(got).toHaveLength(1);
    expect(got[0]).toMatchObject({ args: { to: DEV[3]!.address, value: 7n }, eventName: 'Transfer', transactionHash: expect.any(String) });
  });

  it('the node signs for its dev accounts (eth_sendTransaction, typed data, eth_sign)', async () => {
    const node = createWalletClient({ chain: chainlet, transport: http(t.url), account: DEV[2]!.address as Address });
    expect(await node.getAddresses()).toContain(DEV[2]!.address);
    const hash = await node.sendTransaction({ to: DEV[9]!.address as Address, value: 3n });
    expect((await c.public.waitForTransactionReceipt({ hash })).from).toBe((DEV[2]!.address as string).toLowerCase());

    const typed = {
      domain: { name: 'Chainlet', version: '1', chainId: 9000, verifyingContract: token },
      types: {
        Mail: [
          { name: 'to', type: 'address' },
          { name: 'contents', type: 'string' },
          { name: 'amounts', type: 'uint256[]' },
        ],
      },
      primaryType: 'Mail' as const,
      message: { to: account1.address, contents: 'hello', amounts: [1n, 2n] },
    };
    const signature = await node.signTypedData(typed);
    expect(await verifyTypedData({ ...typed, address: DEV[2]!.address as Address, signature })).toBe(true);

    const sig = await call<Hex>(t.url, 'eth_sign', [DEV[2]!.address, '0x68656c6c6f']);
    expect(await recoverMessageAddress({ message: 'hello', signature: sig })).toBe(DEV[2]!.address);
  });
});
