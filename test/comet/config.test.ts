/**
 * `[rpc]` settings seen from outside: unsafe methods, CORS, the listen address, the path from a
 * `config.toml` `[rpc]` section and `--rpc.*` flags to the server's behaviour, and the same
 * behaviour on the node:http fallback backend.
 */
import { request } from 'node:http';
import { parse as parseToml } from 'smol-toml';
import { afterEach, describe, expect, it } from 'vitest';
import { mergeConfig } from '../../src/config/defaults.js';
import { overridesFromFlags, overridesFromToml } from '../../src/config/files.js';
import type { DeepPartial, NodeConfig } from '../../src/config/types.js';
import { b64, call, get, post, signTransfer, startCometTestNode, WsProbe, type CometTestNode } from './helpers.js';

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
  it("ends broadcast_tx_commit with CometBFT's timeout error when no block comes", async () => {
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

/** Status of a GET /health carrying one header of `bytes` bytes (fetch cannot send such heads). */
function healthWithHeader(url: string, bytes: number): Promise<number | string> {
  return new Promise((resolve) => {
    const u = new URL(url);
    const req = request({ host: u.hostname, port: u.port, path: '/health', headers: { 'x-pad': 'x'.repeat(bytes) } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', (err) => resolve(err.message));
    req.end();
  });
}

describe('[rpc] of config.toml and --rpc.* flags', () => {
  it('reach the server: limits, unsafe, CORS and the commit timeout; flags win over the file', async () => {
    const toml = `
[rpc]
laddr = "tcp://127.0.0.1:0"
unsafe = true
cors_allowed_origins = ["https://app.example"]
cors_allowed_methods = ["GET", "POST"]
max_request_batch_size = 3
max_body_bytes = 3000
max_header_bytes = 8192
max_subscriptions_per_client = 1
timeout_broadcast_tx_commit = "300ms"
`;
    const fromFile = overridesFromToml('config', parseToml(toml) as Record<string, unknown>);
    const fromFlags = overridesFromFlags({ 'rpc.max_request_batch_size': '2', 'rpc.max_subscription_clients': '4' });
    const config = mergeConfig(mergeConfig(fromFile, fromFlags), { consensus: { mode: 'manual' } } as DeepPartial<NodeConfig>);
    expect(config.rpc).toMatchObject({ maxRequestBatchSize: 2, maxSubscriptionClients: 4, timeoutBroadcastTxCommitMs: 300, maxBodyBytes: 3000 });
    const t = await start({ config });

    // max_request_batch_size: the flag's 2, not the file's 3.
    const batch = (n: number) => Array.from({ length: n }, (_, i) => ({ jsonrpc: '2.0', id: i, method: 'health' }));
    expect((await post(t.url, batch(3))).json.error.data).toBe('batch request exceeds maximum (2) allowed number of requests');
    expect((await post(t.url, batch(2))).json).toHaveLength(2);
    // max_body_bytes and max_header_bytes.
    expect((await post(t.url, { jsonrpc: '2.0', id: 1, method: 'check_tx', params: { tx: b64(new Uint8Array(3000)) } })).status).toBe(413);
    expect(await healthWithHeader(t.url, 1000)).toBe(200);
    expect(await healthWithHeader(t.url, 20_000)).toBe(431);
    // unsafe.
    expect((await get(t.url, '/unsafe_flush_mempool')).json.result).toEqual({});
    // cors_allowed_origins.
    const allowed = await fetch(`${t.url}/health`, { headers: { origin: 'https://app.example' } });
    expect(allowed.headers.get('access-control-allow-origin')).toBe('https://app.example');
    const other = await fetch(`${t.url}/health`, { headers: { origin: 'https://evil.example' } });
    expect(other.headers.get('access-control-allow-origin')).toBeNull();
    // max_subscriptions_per_client.
    const ws = await WsProbe.open(t.wsUrl);
    try {
      expect((await ws.call(1, 'subscribe', { query: "tm.event='NewBlock'" })).result).toEqual({});
      expect((await ws.call(2, 'subscribe', { query: "tm.event='Tx'" })).error.data).toBe('max_subscriptions_per_client 1 reached');
    } finally {
      await ws.close();
    }
    // timeout_broadcast_tx_commit: no block comes in manual mode.
    const r = await call(t.url, 'broadcast_tx_commit', { tx: b64(await signTransfer({ nonce: 0 })) });
    expect(r.error.data).toBe('timed out waiting for tx to be included in a block');
  });
});
