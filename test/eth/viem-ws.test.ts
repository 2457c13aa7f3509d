/**
 * The WebSocket server (its own listener, as Cosmos EVM): viem's webSocket transport with
 * subscriptions (watchBlockNumber, watchContractEvent, waitForTransactionReceipt), and raw
 * eth_subscribe traffic: notification shape, newHeads hash = eth_getBlockByNumber hash, logs
 * filters, newPendingTransactions, syncing not supported, eth_unsubscribe.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { erc20Abi, type Address } from 'viem';
import { ERC20_BYTECODE, TRANSFER_TOPIC } from '../../src/app/fixtures/erc20.js';
import { account1, call, DEV, hex, startEthTestNode, waitFor, watchBlockListeners, wsClients, type EthTestNode } from './helpers.js';

const deployAbi = [...erc20Abi, { type: 'constructor', inputs: [{ name: 'supply', type: 'uint256' }], stateMutability: 'nonpayable' }] as const;

let t: EthTestNode;
let c: ReturnType<typeof wsClients>;
let token: Address;

beforeAll(async () => {
  t = await startEthTestNode();
  c = wsClients(t.wsUrl);
  const hash = await c.wallet.deployContract({ abi: deployAbi, bytecode: `0x${ERC20_BYTECODE}`, args: [10n ** 24n] });
  token = (await c.public.waitForTransactionReceipt({ hash })).contractAddress!;
});

afterAll(async () => {
  await (await c?.public.transport.getRpcClient?.())?.close();
  await t?.stop();
});

/** A raw WebSocket JSON-RPC client that records notifications. */
async function rawWs(url: string) {
  const ws = new WebSocket(url);
  await new Promise((resolve, reject) => {
    ws.once('open', resolve);
    ws.once('error', reject);
  });
  const pending = new Map<number, (v: Record<string, unknown>) => void>();
  const notes: { subscription: string; result: unknown }[] = [];
  ws.on('message', (d) => {
    const m = JSON.parse(String(d)) as Record<string, unknown>;
    if (m['method'] === 'eth_subscription') notes.push(m['params'] as { subscription: string; result: unknown });
    else pending.get(m['id'] as number)?.(m);
  });
  let id = 0;
  return {
    notes,
    request(method: string, params: unknown[] = []): Promise<Record<string, unknown>> {
      const i = ++id;
      return new Promise((resolve) => {
        pending.set(i, resolve);
        ws.send(JSON.stringify({ jsonrpc: '2.0', id: i, method, params }));
      });
    },
    async until(pred: () => boolean, ms = 10_000) {
      const end = Date.now() + ms;
      while (!pred()) {
        if (Date.now() > end) throw new Error('timed out');
        await new Promise((r) => setTimeout(r, 10));
      }
    },
    close: () => ws.close(),
  };
}

describe('viem over WebSocket', () => {
  it('watchBlockNumber and watchContractEvent run on subscriptions', async () => {
    const blocks: bigint[] = [];
    const events: unknown[] = [];
    const listeners = watchBlockListeners(t.node);
    const unBlocks = c.public.watchBlockNumber({ onBlockNumber: (n) => void blocks.push(n) });
    const unEvents = c.public.watchContractEvent({ address: token, abi: erc20Abi, eventName: 'Transfer', onLogs: (l) => void events.push(...l) });
    let receipt;
    try {
      // Both subscriptions (newHeads, logs) are in place on the server.
      await waitFor(async () => (listeners.count >= 2 ? true : undefined));
      const hash = await c.wallet.writeContract({ address: token, abi: erc20Abi, functionName: 'transfer', args: [account1.address, 42n] });
      receipt = await c.public.waitForTransactionReceipt({ hash });
      const bn = receipt.blockNumber;
      await waitFor(async () => (events.length > 0 && blocks.includes(bn) ? true : undefined));
    } finally {
      unBlocks();
      unEvents();
      listeners.restore();
    }
    expect(blocks).toContain(receipt.blockNumber);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ eventName: 'Transfer', args: { to: account1.address, value: 42n }, transactionHash: receipt.transactionHash });
  });

  it('estimates, reads and sends over the socket', async () => {
    expect(await c.public.getChainId()).toBe(9000);
    const gas = await c.public.estimateContractGas({
      address: token,
      abi: erc20Abi,
      functionName: 'transfer',
      args: [account1.address, 1n],
      account: c.wallet.account,
    });
    expect(gas).toBeGreaterThan(21_000n);
    expect(await c.public.readContract({ address: token, abi: erc20Abi, functionName: 'balanceOf', args: [account1.address] })).toBeGreaterThan(0n);
    const logs = await c.public.getContractEvents({ address: token, abi: erc20Abi, eventName: 'Transfer', fromBlock: 0n });
    expect(logs.length).toBeGreaterThanOrEqual(1);
    expect(logs.every((l) => l.address === token.toLowerCase() && l.eventName === 'Transfer')).toBe(true);
  });
});

describe('raw eth_subscribe', () => {
  it('newHeads, logs (address + topic filter) and newPendingTransactions notifications', async () => {
    const ws = await rawWs(t.wsUrl);
    const heads = (await ws.request('eth_subscribe', ['newHeads']))['result'] as string;
    const logs = (await ws.request('eth_subscribe', ['logs', { address: token, topics: [hex(TRANSFER_TOPIC)] }]))['result'] as string;
    const other = (await ws.request('eth_subscribe', ['logs', { address: DEV[9]!.address }]))['result'] as string;
    const pending = (await ws.request('eth_subscribe', ['newPendingTransactions']))['result'] as string;
    expect(heads).toMatch(/^0x[0-9a-f]+$/);
    const hash = await c.wallet.writeContract({ address: token, abi: erc20Abi, functionName: 'transfer', args: [DEV[4]!.address as Address, 9n] });
    await ws.until(() => ws.notes.some((n) => n.subscription === logs));
    await ws.until(() => ws.notes.some((n) => n.subscription === heads));
    const pend = ws.notes.filter((n) => n.subscription === pending);
    expect(pend.map((n) => n.result)).toContain(hash);
    const log = ws.notes.find((n) => n.subscription === logs)!.result as Record<string, string>;
    expect(log).toMatchObject({ address: token.toLowerCase(), transactionHash: hash, removed: false });
    expect(ws.notes.some((n) => n.subscription === other)).toBe(false);
    const head = ws.notes.find((n) => n.subscription === heads)!.result as Record<string, string>;
    const block = await call<Record<string, string>>(t.url, 'eth_getBlockByNumber', [head['number'], false]);
    expect(head['hash']).toBe(block['hash']);
    expect(head['parentHash']).toBe(block['parentHash']);
    expect(log['blockHash']).toBe(block['hash']);
    ws.close();
  });

  it('syncing is not supported; unknown kinds and ids are refused; unsubscribe ends a subscription', async () => {
    const ws = await rawWs(t.wsUrl);
    expect((await ws.request('eth_subscribe', ['syncing']))['error']).toEqual({ code: -32004, message: 'the syncing subscription is not supported' });
    expect((await ws.request('eth_subscribe', ['bogus']))['error']).toEqual({ code: -32601, message: 'no "bogus" subscription in eth namespace' });
    const id = (await ws.request('eth_subscribe', ['newHeads']))['result'];
    // A second subscription, subscribed after `id`: once it hears of the block, `id` would have too.
    const sentinel = (await ws.request('eth_subscribe', ['newHeads']))['result'];
    expect((await ws.request('eth_unsubscribe', [id]))['result']).toBe(true);
    expect((await ws.request('eth_unsubscribe', [id]))['result']).toBe(false);
    const hash = await c.wallet.sendTransaction({ to: DEV[5]!.address as Address, value: 1n });
    await c.public.waitForTransactionReceipt({ hash });
    await ws.until(() => ws.notes.some((n) => n.subscription === sentinel));
    expect(ws.notes.filter((n) => n.subscription === id)).toEqual([]);
    ws.close();
  });

  it('ws-origins: localhost pages may connect, other origins may not', async () => {
    const open = (origin: string) =>
      new Promise<boolean>((resolve) => {
        const ws = new WebSocket(t.wsUrl, { headers: { origin } });
        ws.once('open', () => {
          ws.close();
          resolve(true);
        });
        ws.once('error', () => resolve(false));
        ws.once('unexpected-response', () => resolve(false));
      });
    expect(await open('http://localhost:5173')).toBe(true);
    expect(await open('http://127.0.0.1:3000')).toBe(true);
    expect(await open('https://evil.example')).toBe(false);
  });

  it('eth_subscribe over HTTP: notifications not supported', async () => {
    const r = await call(t.url, 'eth_subscribe', ['newHeads']).catch((e: unknown) => e);
    expect(r).toMatchObject({ code: -32601, message: 'notifications not supported' });
  });
});
