/**
 * JSON-RPC over /websocket: subscriptions, their event payloads (REFERENCE §1.6), limits, errors,
 * disconnects and keep-alive pings.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { b64, isEvent, signTransfer, startCometTestNode, waitForSubscribers, WsProbe, type CometTestNode } from './helpers.js';

let t: CometTestNode;
const probes: WsProbe[] = [];
let nextNonce = 0;

async function probe(node: CometTestNode = t): Promise<WsProbe> {
  const p = await WsProbe.open(node.wsUrl);
  probes.push(p);
  return p;
}

beforeAll(async () => {
  t = await startCometTestNode({ config: { rpc: { maxSubscriptionsPerClient: 5 } } });
});

afterEach(async () => {
  await Promise.all(probes.splice(0).map((p) => p.close()));
});

afterAll(async () => {
  await t?.stop();
});

describe('subscriptions', () => {
  it('streams Tx events under the subscribe id, with the TxResult payload and events map', async () => {
    const ws = await probe();
    const query = "tm.event='Tx'";
    expect(await ws.call(42, 'subscribe', { query })).toEqual({ jsonrpc: '2.0', id: 42, result: {} });
    const raw = await signTransfer({ nonce: nextNonce++ });
    await t.node.broadcastTx(raw);
    const ev = await ws.next(isEvent);
    expect(ev.id).toBe(42);
    expect(ev.result.query).toBe(query);
    expect(ev.result.data.type).toBe('tendermint/event/Tx');
    const txr = ev.result.data.value.TxResult;
    expect(txr.height).toMatch(/^\d+$/);
    expect(txr.tx).toBe(b64(raw));
    expect(txr.result.gas_used).toBe('21000');
    expect(ev.result.events['tm.event']).toEqual(['Tx']);
    expect(ev.result.events['tx.hash'][0]).toMatch(/^[0-9A-F]{64}$/);
    expect(ev.result.events['tx.height']).toEqual([txr.height]);
    expect(ev.result.events['message.sender']).toBeDefined();
  });

  it('streams NewBlock, NewBlockHeader and NewBlockEvents in order', async () => {
    const ws = await probe();
    await ws.call(1, 'subscribe', { query: "tm.event='NewBlock'" });
    await ws.call(2, 'subscribe', { query: "tm.event='NewBlockHeader'" });
    await ws.call(3, 'subscribe', { query: "tm.event='NewBlockEvents'" });
    const [h] = await t.node.mine(1);
    const block = await ws.next(isEvent);
    const header = await ws.next(isEvent);
    const events = await ws.next(isEvent);
    expect([block.id, header.id, events.id]).toEqual([1, 2, 3]);
    expect(block.result.data.type).toBe('tendermint/event/NewBlock');
    expect(block.result.data.value.block.header.height).toBe(String(h));
    expect(block.result.data.value.block_id.hash).toMatch(/^[0-9A-F]{64}$/);
    expect(block.result.data.value.result_finalize_block.validator_updates).toEqual([]);
    expect(block.result.data.value.result_finalize_block.app_hash).toMatch(/^[A-Za-z0-9+/]+=*$/);
    expect(header.result.data).toEqual({ type: 'tendermint/event/NewBlockHeader', value: { header: block.result.data.value.block.header } });
    expect(header.result.events).toEqual({ 'tm.event': ['NewBlockHeader'] });
    expect(events.result.data.value).toMatchObject({ height: String(h), num_txs: '0' });
  });

  it('unsubscribe stops the stream; unknown ones answer "subscription not found"', async () => {
    const ws = await probe();
    await ws.call(1, 'subscribe', { query: "tm.event = 'NewBlock'" });
    expect(await ws.call(2, 'unsubscribe', { query: "tm.event = 'NewBlock'" })).toEqual({ jsonrpc: '2.0', id: 2, result: {} });
    expect((await ws.call(3, 'unsubscribe', { query: "tm.event = 'NewBlock'" })).error).toEqual({
      code: -32603,
      message: 'Internal error',
      data: 'subscription not found',
    });
    expect((await ws.call(4, 'unsubscribe_all')).error.data).toBe('subscription not found');
    await ws.call(5, 'subscribe', { query: "tm.event = 'Tx'" });
    expect((await ws.call(6, 'unsubscribe_all')).result).toEqual({});
    await t.node.mine(1);
    expect((await ws.call(7, 'health')).result).toEqual({});
    expect(ws.messages.filter(isEvent)).toEqual([]);
  });

  it('refuses duplicate, too long, malformed and too many subscriptions', async () => {
    const ws = await probe();
    await ws.call(1, 'subscribe', { query: "tm.event='NewBlock'" });
    expect((await ws.call(2, 'subscribe', { query: "tm.event='NewBlock'" })).error.data).toBe('already subscribed');
    expect((await ws.call(3, 'subscribe', { query: `tm.event='${'x'.repeat(520)}'` })).error.data).toBe('maximum query length exceeded');
    expect((await ws.call(4, 'subscribe', { query: 'tm.event = ' })).error.data).toMatch(/^failed to parse query: /);
    for (let i = 0; i < 4; i++) expect((await ws.call(10 + i, 'subscribe', { query: `tx.height = ${i}` })).result).toEqual({});
    expect((await ws.call(20, 'subscribe', { query: 'tx.height = 99' })).error).toEqual({
      code: -32603,
      message: 'Internal error',
      data: 'max_subscriptions_per_client 5 reached',
    });
  });

  it('unsubscribes everything of a client that disconnects mid-subscription', async () => {
    const before = t.node.internals.eventBus.numClients();
    const ws = await WsProbe.open(t.wsUrl);
    await ws.call(1, 'subscribe', { query: "tm.event='NewBlock'" });
    await ws.call(2, 'subscribe', { query: "tm.event='Tx'" });
    expect(t.node.internals.eventBus.numClients()).toBe(before + 1);
    ws.socket.terminate();
    await expect.poll(() => t.node.internals.eventBus.numClients(), { timeout: 10_000 }).toBe(before);
    await t.node.mine(1);
    const other = await probe();
    expect((await other.call(1, 'status')).result.sync_info.latest_block_height).toBe(String(t.node.height));
  });

  it('cancels subscriptions with -32000 when the node exits', async () => {
    const node = await startCometTestNode();
    try {
      const ws = await probe(node);
      await ws.call(9, 'subscribe', { query: "tm.event='NewBlock'" });
      node.node.internals.eventBus.close();
      expect(await ws.next((m) => m.error !== undefined)).toEqual({
        jsonrpc: '2.0',
        id: 9,
        error: { code: -32000, message: 'Server error', data: 'subscription was canceled (reason: CometBFT exited)' },
      });
    } finally {
      await Promise.all(probes.splice(0).map((p) => p.close()));
      await node.stop();
    }
  });
});

describe('calls and errors over the socket', () => {
  it('answers any method, broadcast_tx_commit included', async () => {
    const ws = await probe();
    const r = await ws.call('c', 'broadcast_tx_commit', { tx: b64(await signTransfer({ nonce: nextNonce++ })) });
    expect(r.id).toBe('c');
    expect(r.result.tx_result.code).toBe(0);
    expect(Number(r.result.height)).toBeGreaterThan(0);
  });

  it('parse errors (no id), unknown methods, param errors as -32603, notifications skipped', async () => {
    const ws = await probe();
    ws.send('{nope');
    expect(await ws.next()).toEqual({
      jsonrpc: '2.0',
      error: { code: -32700, message: 'Parse error. Invalid JSON', data: expect.stringMatching(/^error unmarshaling request: /) },
    });
    ws.send([{ jsonrpc: '2.0', id: 1, method: 'health' }]);
    expect((await ws.next()).error.code).toBe(-32700);
    expect((await ws.call(2, 'nope')).error).toEqual({ code: -32601, message: 'Method not found' });
    expect((await ws.call(3, 'block', { height: 1 })).error).toEqual({
      code: -32603,
      message: 'Internal error',
      data: 'error converting json params to arguments: invalid 64-bit integer encoding "1", expected string',
    });
    ws.send({ jsonrpc: '2.0', method: 'health' });
    expect(await ws.call(4, 'health')).toEqual({ jsonrpc: '2.0', id: 4, result: {} });
    expect(ws.messages).toEqual([]);
  });

  it('limits subscribing clients to max_subscription_clients', async () => {
    const node = await startCometTestNode({ config: { rpc: { maxSubscriptionClients: 1 } } });
    try {
      const a = await probe(node);
      const b = await probe(node);
      expect((await a.call(1, 'subscribe', { query: "tm.event='NewBlock'" })).result).toEqual({});
      await waitForSubscribers(node.node, 1);
      expect((await b.call(1, 'subscribe', { query: "tm.event='NewBlock'" })).error.data).toBe('max_subscription_clients 1 reached');
    } finally {
      await Promise.all(probes.splice(0).map((p) => p.close()));
      await node.stop();
    }
  });

  it('pings idle clients', async () => {
    const node = await startCometTestNode({ rpc: { pingIntervalMs: 50 } });
    try {
      const ws = await probe(node);
      await new Promise<void>((resolve) => ws.socket.once('ping', () => resolve()));
      expect((await ws.call(1, 'health')).result).toEqual({});
    } finally {
      await Promise.all(probes.splice(0).map((p) => p.close()));
      await node.stop();
    }
  });
});
