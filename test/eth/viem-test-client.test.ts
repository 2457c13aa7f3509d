/**
 * viem's test client in both of its modes ('anvil', 'hardhat'), over HTTP and over the in-process
 * EIP-1193 provider: every test action viem has, each checked for its effect on the chain.
 */
import { createTestClient, custom, http, parseEther, publicActions, walletActions, type Hex, type Transport } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChainletNode } from '../../src/node/node.js';
import { createEip1193Provider } from '../../src/node/rpc-eth.js';
import type { Eip1193Provider } from '../../src/rpc/eth/provider.js';
import { startTestNode } from '../helpers/node.js';
import { chainlet, DEV } from './helpers.js';

const ALICE = DEV[1]!.address as Hex;
const WHALE = '0x000000000000000000000000000000000000dEaD' as Hex;
const STRANGER = '0x00000000000000000000000000000000000c0de5' as Hex;

describe.each([
  ['anvil', 'http'],
  ['anvil', 'eip1193'],
  ['hardhat', 'http'],
  ['hardhat', 'eip1193'],
] as const)("viem's test client, mode %s, over %s", (mode, via) => {
  let node: ChainletNode;
  let provider: Eip1193Provider | undefined;
  let client: ReturnType<typeof makeClient>;
  const makeClient = (transport: Transport) =>
    createTestClient({ mode, chain: chainlet, transport, pollingInterval: 20 }).extend(publicActions).extend(walletActions);

  beforeAll(async () => {
    node = await startTestNode();
    provider = via === 'eip1193' ? createEip1193Provider(node) : undefined;
    client = makeClient(provider ? custom(provider) : http(node.urls.jsonRpc!));
  });
  afterAll(async () => {
    provider?.close();
    await node?.stop();
  });

  const block = () => client.getBlock();
  // No cache: each read must see the chain as it is now.
  const height = () => client.getBlockNumber({ cacheTime: 0 });

  it('mine, snapshot and revert', async () => {
    const start = await height();
    await client.mine({ blocks: 3 });
    expect(await height()).toBe(start + 3n);
    const id = await client.snapshot();
    await client.setBalance({ address: STRANGER, value: 5n });
    await client.mine({ blocks: 2 });
    await client.revert({ id });
    expect(await height()).toBe(start + 3n);
    expect(await client.getBalance({ address: STRANGER })).toBe(0n);
  });

  it('setBalance, setCode, setNonce, setStorageAt', async () => {
    await client.setBalance({ address: STRANGER, value: parseEther('2') });
    expect(await client.getBalance({ address: STRANGER })).toBe(parseEther('2'));
    await client.setCode({ address: STRANGER, bytecode: '0x60016000' });
    expect(await client.getCode({ address: STRANGER })).toBe('0x60016000');
    await client.setNonce({ address: STRANGER, nonce: 9 });
    expect(await client.getTransactionCount({ address: STRANGER })).toBe(9);
    const slot = `0x${'00'.repeat(31)}01` as Hex;
    const value = `0x${'00'.repeat(31)}2a` as Hex;
    await client.setStorageAt({ address: STRANGER, index: slot, value });
    expect(await client.getStorageAt({ address: STRANGER, slot })).toBe(value);
  });

  it('impersonateAccount, sendUnsignedTransaction, stopImpersonatingAccount', async () => {
    await client.setBalance({ address: WHALE, value: parseEther('1') });
    await client.impersonateAccount({ address: WHALE });
    const hash = await client.sendUnsignedTransaction({ from: WHALE, to: ALICE, value: 7n });
    expect((await client.waitForTransactionReceipt({ hash })).status).toBe('success');
    await client.stopImpersonatingAccount({ address: WHALE });
    await expect(client.sendUnsignedTransaction({ from: WHALE, to: ALICE, value: 7n })).rejects.toThrow();
  });

  it('increaseTime, setNextBlockTimestamp, setBlockTimestampInterval, removeBlockTimestampInterval', async () => {
    const before = await block();
    await client.increaseTime({ seconds: 3600 });
    await client.mine({ blocks: 1 });
    expect((await block()).timestamp).toBeGreaterThanOrEqual(before.timestamp + 3600n);
    const at = (await block()).timestamp + 100n;
    await client.setNextBlockTimestamp({ timestamp: at });
    await client.mine({ blocks: 1 });
    expect((await block()).timestamp).toBe(at);
    await client.setBlockTimestampInterval({ interval: 7 });
    await client.mine({ blocks: 1 });
    await client.mine({ blocks: 1 });
    expect((await block()).timestamp).toBe(at + 14n);
    await client.removeBlockTimestampInterval();
    await client.mine({ blocks: 1 });
    // Back on the clock (behind these timestamps): the next block is only just after the last.
    const last = (await block()).timestamp;
    expect(last).toBeGreaterThanOrEqual(at + 14n);
    expect(last).toBeLessThan(at + 21n);
  });

  it('setAutomine, getAutomine, the txpool actions, dropTransaction', async () => {
    expect(await client.getAutomine()).toBe(true);
    await client.setAutomine(false);
    expect(await client.getAutomine()).toBe(false);
    const hash = await client.sendTransaction({ account: DEV[2]!.address as Hex, to: ALICE, value: 1n });
    expect(await client.getTxpoolStatus()).toEqual({ pending: 1, queued: 0 });
    const content = await client.getTxpoolContent();
    expect(
      Object.values(content.pending)
        .flatMap((byNonce) => Object.values(byNonce))
        .map((t) => t.hash),
    ).toEqual([hash]);
    const inspect = await client.inspectTxpool();
    expect(Object.keys(inspect.pending).map((a) => a.toLowerCase())).toEqual([DEV[2]!.address.toLowerCase()]);
    await client.dropTransaction({ hash });
    expect(await client.getTxpoolStatus()).toEqual({ pending: 0, queued: 0 });
    await client.setAutomine(true);
  });

  // viem sends evm_setIntervalMining in seconds in anvil mode and in milliseconds in hardhat mode; the
  // node reads Hardhat's unit (docs/rpc-devnet.md), so in anvil mode this interval is 1 ms.
  it('setIntervalMining makes blocks on its own, and 0 stops it', async () => {
    await client.setIntervalMining({ interval: 1 });
    const from = await height();
    for (let i = 0; i < 100 && (await height()) === from; i++) await new Promise((r) => setTimeout(r, 50));
    expect(await height()).toBeGreaterThan(from);
    await client.setIntervalMining({ interval: 0 });
    await client.setAutomine(true);
    expect(await client.getAutomine()).toBe(true);
  });

  it('setBlockGasLimit, setCoinbase, setNextBlockBaseFeePerGas, setMinGasPrice', async () => {
    await client.setBlockGasLimit({ gasLimit: 25_000_000n });
    const coinbase = '0x00000000000000000000000000000000000c01b5' as Hex;
    await client.setCoinbase({ address: coinbase });
    await client.setNextBlockBaseFeePerGas({ baseFeePerGas: 3_000_000_000n });
    await client.mine({ blocks: 1 });
    const b = await block();
    expect(b.gasLimit).toBe(25_000_000n);
    expect(b.miner.toLowerCase()).toBe(coinbase);
    expect(b.baseFeePerGas).toBe(3_000_000_000n);
    await client.setMinGasPrice({ gasPrice: 50_000_000_000n });
    await expect(
      client.sendTransaction({ account: DEV[3]!.address as Hex, to: ALICE, value: 1n, maxFeePerGas: 10_000_000_000n, maxPriorityFeePerGas: 1n }),
    ).rejects.toThrow();
    await client.setMinGasPrice({ gasPrice: 0n });
  });

  it('dumpState and loadState', async () => {
    await client.setBalance({ address: STRANGER, value: 123n });
    const state = await client.dumpState();
    await client.setBalance({ address: STRANGER, value: 456n });
    await client.loadState({ state });
    expect(await client.getBalance({ address: STRANGER })).toBe(123n);
  });

  it('setLoggingEnabled switches the node’s logging', async () => {
    await client.setLoggingEnabled(false);
    expect(node.internals.devnet.loggingEnabled).toBe(false);
    await client.setLoggingEnabled(true);
    expect(node.internals.devnet.loggingEnabled).toBe(true);
  });

  it('setRpcUrl answers that there is no fork', async () => {
    await expect(client.setRpcUrl('http://127.0.0.1:1')).rejects.toThrow(/forking is not supported/);
  });

  it('reset goes back to the starting chain', async () => {
    await client.mine({ blocks: 2 });
    await client.reset();
    expect(await height()).toBe(1n);
    expect(await client.getBalance({ address: STRANGER })).toBe(0n);
    expect(await client.getBalance({ address: ALICE })).toBe(parseEther('10000'));
  });
});
