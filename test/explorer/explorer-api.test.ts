/**
 * The explorer's server side without a browser: the page, script and style sheet are served, the
 * config names the node's WebSocket, and the upstream RPCs are reachable only for the methods the
 * page uses (a public routing API does not open a local-only JSON-RPC).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChainletNode } from '../../src/node/node.js';
import { startTestNode } from '../helpers/node.js';

let node: ChainletNode;
beforeAll(async () => {
  node = await startTestNode();
});
afterAll(async () => {
  await node?.stop();
});

const post = (path: string, body: unknown) =>
  fetch(`${node.urls.routing}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

describe('the explorer’s routes', () => {
  it('serves its files and config at /explorer/', async () => {
    const page = await fetch(`${node.urls.routing}/explorer/`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('/explorer/app.js');
    expect((await fetch(`${node.urls.routing}/explorer/app.js`)).headers.get('content-type')).toContain('javascript');
    expect((await fetch(`${node.urls.routing}/explorer/format.js`)).headers.get('content-type')).toContain('javascript');
    expect((await fetch(`${node.urls.routing}/explorer/style.css`)).headers.get('content-type')).toContain('text/css');
    const cfg = (await (await fetch(`${node.urls.routing}/explorer/api/config`)).json()) as { comet_ws: string; devnet: boolean; svm: boolean };
    expect(cfg).toMatchObject({ comet_ws: node.urls.rpcWs, devnet: true, svm: false });
  });

  it('forwards the reads the page makes, and nothing else (the proxy rules: explorer-proxy.test.ts)', async () => {
    const status = (await (await post('/explorer/api/comet', { jsonrpc: '2.0', id: 1, method: 'status', params: {} })).json()) as {
      result: { node_info: { network: string } };
    };
    expect(status.result.node_info.network).toBe(node.chainId);
    const nonce = (await (
      await post('/explorer/api/eth', {
        jsonrpc: '2.0',
        id: 1,
        method: 'eth_getTransactionCount',
        params: ['0x0000000000000000000000000000000000000000', 'latest'],
      })
    ).json()) as { result: string };
    expect(nonce.result).toBe('0x0');
    const unsafe = (await (await post('/explorer/api/comet', { jsonrpc: '2.0', id: 1, method: 'unsafe_flush_mempool', params: {} })).json()) as {
      error: { code: number; message: string };
    };
    expect(unsafe.error.code).toBe(-32601);
    expect(unsafe.error.message).toMatch(/^method unsafe_flush_mempool is not available through the explorer/);
    const send = (await (await post('/explorer/api/eth', { jsonrpc: '2.0', id: 1, method: 'eth_sendRawTransaction', params: ['0x00'] })).json()) as {
      error: { code: number };
    };
    expect(send.error.code).toBe(-32601);
    const batch = (await (await post('/explorer/api/eth', [{ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] }])).json()) as {
      error: { code: number };
    };
    expect(batch.error.code).toBe(-32600);
    const mempool = (await (await fetch(`${node.urls.routing}/explorer/api/mempool`)).json()) as { pending: unknown[]; queued: unknown[] };
    expect(mempool).toEqual({ pending: [], queued: [] });
    // A single node runs no IBC: the page hides its IBC view.
    const ibc = await fetch(`${node.urls.routing}/explorer/api/ibc`);
    expect(ibc.status).toBe(200);
    expect(await ibc.json()).toEqual({ enabled: false, packets: [] });
    expect((await post('/explorer/api/svm', { jsonrpc: '2.0', id: 1, method: 'getSlot' })).status).toBe(404);
    const cfg = (await (await fetch(`${node.urls.routing}/explorer/api/config`)).json()) as { devnet_rpc: string | null };
    expect(cfg.devnet_rpc).toBe(node.urls.jsonRpc);
  });
});
