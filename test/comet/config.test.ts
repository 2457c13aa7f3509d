/**
 * `[rpc]` settings seen from outside: unsafe methods, CORS, the listen address, and the same
 * behaviour on the node:http fallback backend.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { b64, call, get, signTransfer, startCometTestNode, WsProbe, type CometTestNode } from './helpers.js';

const nodes: CometTestNode[] = [];
async function start(...args: Parameters<typeof startCometTestNode>): Promise<CometTestNode> {
  const t = await startCometTestNode(...args);
  nodes.push(t);
  return t;
}

afterEach(async () => {
  await Promise.all(nodes.splice(0).map((t) => t.stop()));
});

describe('[rpc] unsafe', () => {
  it('serves dial_seeds, dial_peers and unsafe_flush_mempool only when set', async () => {
    const t = await start({ config: { rpc: { unsafe: true } } });
    expect((await call(t.url, 'dial_seeds', { seeds: [] })).error.data).toBe('no seeds provided');
    expect((await call(t.url, 'dial_seeds', { seeds: ['127.0.0.1:26656'] })).error.data).toBe('address (127.0.0.1:26656) does not contain ID');
    expect((await call(t.url, 'dial_seeds', { seeds: [`${'ab'.repeat(20)}@127.0.0.1:26656`] })).result).toEqual({
      log: 'Dialing seeds in progress. See /net_info for details',
    });
    expect((await get(t.url, `/dial_peers?peers=["${'ab'.repeat(20)}@10.0.0.1:26656"]&persistent=true`)).json.result.log).toMatch(/^Dialing peers/);

    // A queued tx (nonce gap) sits in the mempool until flushed.
    await call(t.url, 'broadcast_tx_sync', { tx: b64(await signTransfer({ nonce: 3 })) });
    expect((await call(t.url, 'num_unconfirmed_txs')).result.total).toBe('1');
    expect((await get(t.url, '/unsafe_flush_mempool')).json.result).toEqual({});
    expect((await call(t.url, 'num_unconfirmed_txs')).result.total).toBe('0');
    expect((await get(t.url, '/')).text).toContain('unsafe_flush_mempool');
  });
});

describe('[rpc] timeout_broadcast_tx_commit', () => {
  it('ends broadcast_tx_commit with CometBFT\'s timeout error when no block comes', async () => {
    const t = await start({ config: { rpc: { timeoutBroadcastTxCommitMs: 200 }, consensus: { mode: 'manual' } } });
    const tx = b64(await signTransfer({ nonce: 0 }));
    const started = Date.now();
    const r = await call(t.url, 'broadcast_tx_commit', { tx });
    expect(r.error).toEqual({ code: -32603, message: 'Internal error', data: 'timed out waiting for tx to be included in a block' });
    expect(Date.now() - started).toBeGreaterThanOrEqual(150);
    // Its subscription is gone, and the tx is still pending.
    expect(t.node.internals.eventBus.numClients()).toBe(0);
    expect((await call(t.url, 'num_unconfirmed_txs')).result.total).toBe('1');
  });
});

describe('[rpc] cors_allowed_origins', () => {
  it('answers preflights and adds CORS headers when origins are configured', async () => {
    const t = await start({ config: { rpc: { corsAllowedOrigins: ['*'] } } });
    const pre = await fetch(`${t.url}/status`, {
      method: 'OPTIONS',
      headers: { origin: 'http://example.com', 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
    });
    expect(pre.status).toBeLessThan(300);
    expect(pre.headers.get('access-control-allow-origin')).toBeTruthy();
    const r = await fetch(`${t.url}/health`, { headers: { origin: 'http://example.com' } });
    expect(r.headers.get('access-control-allow-origin')).toBeTruthy();
  });

  it('sends no CORS headers by default', async () => {
    const t = await start();
    const r = await fetch(`${t.url}/health`, { headers: { origin: 'http://example.com' } });
    expect(r.headers.get('access-control-allow-origin')).toBeNull();
  });
});

describe('node:http fallback backend', () => {
  it('serves URI, JSON-RPC and WebSocket subscriptions the same way', async () => {
    const t = await start({ rpc: { backend: 'node' } });
    expect((await get(t.url, '/health')).json).toEqual({ jsonrpc: '2.0', id: -1, result: {} });
    expect((await call(t.url, 'block', { height: 5 })).error.code).toBe(-32602);
    const ws = await WsProbe.open(t.wsUrl);
    try {
      expect((await ws.call(1, 'subscribe', { query: "tm.event='NewBlock'" })).result).toEqual({});
      const [h] = await t.node.mine(1);
      const ev = await ws.next((m) => m.result?.data !== undefined);
      expect(ev.result.data.value.block.header.height).toBe(String(h));
    } finally {
      await ws.close();
    }
  });
});
