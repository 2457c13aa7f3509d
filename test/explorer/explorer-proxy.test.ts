/**
 * The explorer's proxies (`/explorer/api/comet`, `/eth`, `/svm`) over a real socket: they forward
 * only the reads the explorer's own app.js makes, only for the explorer's own pages (a JSON body
 * from its origin), never devnet control; every refusal is a JSON-RPC error object. The allow-list
 * is compared with the calls in explorer/app.js both ways, so the page and the proxy cannot drift.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChainletNode } from '../../src/node/node.js';
import { EXPLORER_PROXY_METHODS } from '../../src/rpc/routing/explorer-proxy.js';
import { startTestNode } from '../helpers/node.js';

let node: ChainletNode;
let origin: string;
beforeAll(async () => {
  node = await startTestNode();
  origin = new URL(node.urls.routing!).origin;
});
afterAll(async () => {
  await node?.stop();
});

type RpcReply = { jsonrpc?: string; id?: unknown; result?: unknown; error?: { code: number; message: string } };
const rpc = (method: string, params: unknown = []) => JSON.stringify({ jsonrpc: '2.0', id: 7, method, params });
async function post(path: string, body: string, headers: Record<string, string>): Promise<{ status: number; body: RpcReply }> {
  const r = await fetch(`${node.urls.routing}${path}`, { method: 'POST', headers, body });
  return { status: r.status, body: (await r.json()) as RpcReply };
}
/** What the explorer's own page sends: a JSON body from its own origin. */
const own = () => ({ 'content-type': 'application/json', origin, 'sec-fetch-site': 'same-origin' });

describe('the explorer’s proxies', () => {
  it('refuse a cross-site text/plain POST that would halt the devnet (no preflight needed), and the validator stays online', async () => {
    const r = await post('/explorer/api/eth', rpc('chainlet_setValidatorOnline', [0, false]), {
      'content-type': 'text/plain',
      origin: 'https://evil.example',
      'sec-fetch-site': 'cross-site',
    });
    expect(r.status).toBe(403);
    expect(r.body).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32600 } });
    expect(r.body.error!.message).toContain('cross-origin');
    expect(node.internals.validators[0]!.online).toBe(true);
  });

  it('refuse a foreign Origin even with a JSON body, and a same-site page on another port', async () => {
    const foreign = await post('/explorer/api/comet', rpc('status', {}), { 'content-type': 'application/json', origin: 'https://evil.example' });
    expect(foreign.status).toBe(403);
    expect(foreign.body.error).toMatchObject({ code: -32600, message: expect.stringContaining('https://evil.example') });
    const otherPort = await post('/explorer/api/eth', rpc('eth_getTransactionCount', ['0x0000000000000000000000000000000000000000', 'latest']), {
      'content-type': 'application/json',
      origin: 'http://127.0.0.1:1',
      'sec-fetch-site': 'same-site',
    });
    expect(otherPort.status).toBe(403);
    const nullOrigin = await post('/explorer/api/eth', rpc('eth_getTransactionCount', ['0x0000000000000000000000000000000000000000', 'latest']), {
      'content-type': 'application/json',
      origin: 'null',
    });
    expect(nullOrigin.status).toBe(403);
  });

  it('refuse a body that is not application/json, even from its own origin (a cross-site JSON POST needs a preflight)', async () => {
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x']) {
      const r = await post('/explorer/api/eth', rpc('eth_getTransactionCount', ['0x0000000000000000000000000000000000000000', 'latest']), {
        'content-type': type,
        origin,
      });
      expect(r.status).toBe(415);
      expect(r.body).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32600, message: 'invalid content type, only application/json is supported' } });
    }
  });

  it('give a foreign origin’s preflight no Access-Control-Allow-Origin; the routing API still allows it (devnet "*")', async () => {
    const preflight = (path: string) =>
      fetch(`${node.urls.routing}${path}`, {
        method: 'OPTIONS',
        headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
      });
    for (const family of ['comet', 'eth', 'svm']) {
      const r = await preflight(`/explorer/api/${family}`);
      expect(r.status, family).toBe(204);
      expect(r.headers.get('access-control-allow-origin'), family).toBeNull();
      expect(r.headers.get('access-control-allow-methods'), family).toBeNull();
    }
    // The same with a trailing slash, as findRoute normalises it.
    expect((await preflight('/explorer/api/eth/')).headers.get('access-control-allow-origin')).toBeNull();
    const api = await preflight('/v2/info/chains');
    expect(api.status).toBe(204);
    expect(api.headers.get('access-control-allow-origin')).toBe('*');
    // Nor does an actual answer on a proxy path name an origin (a refusal included).
    const refused = await fetch(`${node.urls.routing}/explorer/api/eth`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: 'https://evil.example' },
      body: rpc('eth_getCode', ['0x0000000000000000000000000000000000000000', 'latest']),
    });
    expect(refused.status).toBe(403);
    expect(refused.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('never forward devnet control, even from the explorer’s own page', async () => {
    for (const method of ['chainlet_setValidatorOnline', 'evm_mine', 'anvil_setBalance', 'hardhat_setBalance', 'evm_setAutomine']) {
      const r = await post('/explorer/api/eth', rpc(method, [0, false]), own());
      expect(r.status).toBe(200);
      expect(r.body).toMatchObject({ jsonrpc: '2.0', id: 7, error: { code: -32601 } });
      expect(r.body.error!.message).toContain(method);
      expect(r.body.error!.message).toContain('devnet control');
    }
    expect(node.internals.validators[0]!.online).toBe(true);
  });

  it('refuse a method outside the allow-list, a batch and a prototype name in the JSON-RPC error form', async () => {
    const cases: [string, string][] = [
      ['/explorer/api/eth', rpc('eth_sendRawTransaction', ['0x00'])],
      ['/explorer/api/eth', rpc('eth_chainId')],
      ['/explorer/api/eth', rpc('personal_listAccounts')],
      ['/explorer/api/comet', rpc('unsafe_flush_mempool', {})],
      ['/explorer/api/comet', rpc('broadcast_tx_sync', { tx: 'AA==' })],
      ['/explorer/api/comet', rpc('constructor', {})],
    ];
    for (const [path, body] of cases) {
      const r = await post(path, body, own());
      expect(r.body).toMatchObject({
        jsonrpc: '2.0',
        id: 7,
        error: { code: -32601, message: expect.stringContaining('is not available through the explorer') },
      });
    }
    const batch = await post('/explorer/api/eth', `[${rpc('eth_getTransactionCount', ['0x0000000000000000000000000000000000000000', 'latest'])}]`, own());
    expect(batch.body).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32600 } });
    const bad = await post('/explorer/api/eth', '{"jsonrpc":"2.0",', own());
    expect(bad.body).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32700 } });
    const deep = await post('/explorer/api/comet', `{"jsonrpc":"2.0","id":1,"method":"status","params":${'['.repeat(5000)}${']'.repeat(5000)}}`, own());
    expect(deep.body).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32700 } });
    const svm = await post('/explorer/api/svm', rpc('getSlot'), own());
    expect(svm.status).toBe(404);
    expect(svm.body).toMatchObject({ jsonrpc: '2.0', id: 7, error: { message: 'this node serves no Solana JSON-RPC' } });
  });

  it('forward the explorer’s own calls: from its origin, or from a client that is no browser page', async () => {
    const status = await post('/explorer/api/comet', rpc('status', {}), own());
    expect(status.status).toBe(200);
    expect((status.body.result as { node_info: { network: string } }).node_info.network).toBe(node.chainId);
    const bal = await post('/explorer/api/eth', rpc('eth_getTransactionCount', ['0x0000000000000000000000000000000000000000', 'latest']), own());
    expect(bal.body).toMatchObject({ jsonrpc: '2.0', id: 7, result: expect.stringMatching(/^0x/) });
    // curl and scripts send no Origin: they are not a page another site controls.
    const plain = await post('/explorer/api/comet', rpc('tx_search', { query: 'tx.height=1' }), { 'content-type': 'application/json; charset=utf-8' });
    expect(plain.body.result).toMatchObject({ total_count: expect.any(String) });
  });

  it('allow exactly the methods explorer/app.js calls', () => {
    const app = readFileSync(join(process.cwd(), 'explorer', 'app.js'), 'utf8');
    // comet('status'…), cometOf(chain)('tx_search'…), eth('eth_getCode'…), svm('getSlot'…)
    const called = (fn: string) => new Set([...app.matchAll(new RegExp(`\\b${fn}(?:Of\\([^)]*\\))?\\('([A-Za-z_]+)'`, 'g'))].map((m) => m[1]!));
    expect([...EXPLORER_PROXY_METHODS.comet].sort()).toEqual([...called('comet')].sort());
    expect([...EXPLORER_PROXY_METHODS.eth].sort()).toEqual([...called('eth')].sort());
    expect([...EXPLORER_PROXY_METHODS.svm].sort()).toEqual([...called('svm')].sort());
  });
});
