/**
 * ethers v6: JsonRpcProvider (HTTP, batched requests) and WebSocketProvider, a wallet sending
 * and deploying, contract reads/writes, contract events over both, and ethers' error codes for
 * node errors worded as geth's.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Contract, ContractFactory, JsonRpcProvider, WebSocketProvider, Wallet, type ContractEventPayload } from 'ethers';
import { ERC20_BYTECODE } from '../../src/app/fixtures/erc20.js';
import { DEV, startEthTestNode, waitFor, watchBlockListeners, type EthTestNode } from './helpers.js';

const ABI = [
  'constructor(uint256 supply)',
  'function balanceOf(address) view returns (uint256)',
  'function transfer(address to, uint256 value) returns (bool)',
  'function symbol() view returns (string)',
  'event Transfer(address indexed from, address indexed to, uint256 value)',
];

let t: EthTestNode;
let provider: JsonRpcProvider;
let wallet: Wallet;
let token: Contract;

beforeAll(async () => {
  t = await startEthTestNode();
  // cacheTimeout -1: ethers otherwise reuses a pending nonce for 250 ms, too long for instant blocks (as with Hardhat).
  provider = new JsonRpcProvider(t.url, 9000, { staticNetwork: true, pollingInterval: 50, cacheTimeout: -1 });
  wallet = new Wallet(DEV[0]!.privateKey, provider);
  const factory = new ContractFactory(ABI, `0x${ERC20_BYTECODE}`, wallet);
  const deployed = await factory.deploy(10n ** 24n);
  await deployed.waitForDeployment();
  token = new Contract(await deployed.getAddress(), ABI, wallet);
});

afterAll(async () => {
  provider?.destroy();
  await t?.stop();
});

describe('ethers JsonRpcProvider', () => {
  it('network, blocks, balances', async () => {
    expect((await provider.getNetwork()).chainId).toBe(9000n);
    expect(await provider.getBlockNumber()).toBeGreaterThan(0);
    const block = await provider.getBlock('latest');
    expect(block!.hash).toMatch(/^0x[0-9a-f]{64}$/);
    expect(await provider.getBalance(DEV[1]!.address)).toBeGreaterThan(0n);
    const fee = await provider.getFeeData();
    expect(fee.maxFeePerGas).toBeGreaterThan(0n);
  });

  it('a wallet transfer and its receipt', async () => {
    const tx = await wallet.sendTransaction({ to: DEV[9]!.address, value: 777n });
    const receipt = await tx.wait();
    expect(receipt!.status).toBe(1);
    expect(receipt!.gasUsed).toBe(21_000n);
  });

  it('contract read and write, and Transfer events by polling', async () => {
    expect(await token.getFunction('symbol')()).toBe('CTT');
    // ethers installs a filter (eth_newFilter) and polls it at once: wait for that first poll.
    const sent: string[] = [];
    const onDebug = (e: { action: string; payload?: { method: string } | { method: string }[] }) => {
      if (e.action === 'sendRpcPayload' && e.payload) for (const p of [e.payload].flat()) sent.push(p.method);
    };
    await provider.on('debug', onDebug);
    const got = new Promise<ContractEventPayload>((resolve) => {
      void token.once('Transfer', (...args: unknown[]) => resolve(args.at(-1) as ContractEventPayload));
    });
    await waitFor(async () => (sent.includes('eth_getFilterChanges') ? true : undefined));
    await provider.off('debug', onDebug);
    expect(sent).toContain('eth_newFilter');
    const tx = (await token.getFunction('transfer')(DEV[2]!.address, 11n)) as { wait(): Promise<unknown> };
    await tx.wait();
    const ev = await got;
    expect(ev.args[1]).toBe(DEV[2]!.address);
    expect(ev.args[2]).toBe(11n);
    expect(await token.getFunction('balanceOf')(DEV[2]!.address)).toBe(11n);
  });

  it('node errors map to ethers codes', async () => {
    const nonce = await provider.getTransactionCount(wallet.address);
    await expect(wallet.sendTransaction({ to: DEV[9]!.address, value: 1n, nonce: nonce - 1 })).rejects.toMatchObject({ code: 'NONCE_EXPIRED' });
    const poor = Wallet.createRandom(provider);
    await expect(
      poor.sendTransaction({ to: DEV[9]!.address, value: 1n, gasLimit: 21_000n, maxFeePerGas: 10n ** 10n, maxPriorityFeePerGas: 1n }),
    ).rejects.toMatchObject({
      code: 'INSUFFICIENT_FUNDS',
    });
    const readOnly = new Contract(await token.getAddress(), ABI, provider);
    await expect(readOnly.getFunction('transfer').staticCall(DEV[0]!.address, 1n, { from: DEV[6]!.address })).rejects.toMatchObject({
      code: 'CALL_EXCEPTION',
      reason: 'insufficient balance',
    });
  });
});

describe('ethers WebSocketProvider', () => {
  it('block and contract events over subscriptions', async () => {
    const ws = new WebSocketProvider(t.wsUrl, 9000, { staticNetwork: true });
    const listeners = watchBlockListeners(t.node);
    try {
      const wsToken = new Contract(await token.getAddress(), ABI, ws);
      const block = new Promise<number>((resolve) => void ws.once('block', resolve));
      const event = new Promise<ContractEventPayload>((resolve) => {
        void wsToken.once('Transfer', (...args: unknown[]) => resolve(args.at(-1) as ContractEventPayload));
      });
      // Both subscriptions (newHeads, logs) are in place on the server.
      await waitFor(async () => (listeners.count >= 2 ? true : undefined));
      const tx = (await token.getFunction('transfer')(DEV[3]!.address, 5n)) as { wait(): Promise<{ blockNumber: number }> };
      const receipt = await tx.wait();
      expect(await block).toBeGreaterThanOrEqual(receipt.blockNumber - 1);
      const ev = await event;
      expect(ev.args[1]).toBe(DEV[3]!.address);
      expect(ev.log.blockNumber).toBe(receipt.blockNumber);
      // Each `once` listener, once fired, unsubscribes in the background; destroying the provider
      // before the answer arrives rejects that request inside ethers (an unhandled rejection). The
      // server has dropped both subscriptions when the count is back to 0, and WebSocket messages
      // keep their order, so one more request's answer comes after the unsubscribes' answers.
      await waitFor(async () => (listeners.count === 0 ? true : undefined));
      await ws.send('eth_chainId', []);
    } finally {
      listeners.restore();
      await ws.destroy();
    }
  });
});
