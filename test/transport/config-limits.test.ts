/**
 * The head and URL limits of the Ethereum JSON-RPC and the routing API come from their config keys
 * (`[json-rpc] max-header-bytes` / `max-url-bytes`, `[routing] max-header-bytes` / `max-url-bytes`):
 * at each limit a request is answered, one byte over it is refused (431 / 414) in the family's form.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChainletNode } from '../../src/node/node.js';
import { startTestNode } from '../helpers/node.js';
import { rawRequest } from '../helpers/raw-http.js';

const HEAD = 3000;
const URL_BYTES = 300;
let node: ChainletNode;

beforeAll(async () => {
  node = await startTestNode({
    config: { jsonRpc: { maxHeaderBytes: HEAD, maxUrlBytes: URL_BYTES }, routing: { maxHeaderBytes: HEAD, maxUrlBytes: URL_BYTES } },
  });
});
afterAll(async () => {
  await node?.stop();
});

const CHAIN_ID = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] });
const target = (path: string, n: number) => `${path}?${'a'.repeat(n - path.length - 1)}`;

describe('[json-rpc] and [routing] head and URL limits', () => {
  it('Ethereum JSON-RPC: max-header-bytes answered, one more 431 (-32600)', async () => {
    const at = await rawRequest(node.urls.jsonRpc!, { target: '/?q', headBytes: HEAD, body: CHAIN_ID });
    expect(at.status).toBe(200);
    expect(JSON.parse(at.body)).toMatchObject({ id: 1, result: expect.any(String) as unknown as string });
    const over = await rawRequest(node.urls.jsonRpc!, { target: '/?q', headBytes: HEAD + 1, body: CHAIN_ID });
    expect(over.status).toBe(431);
    expect(JSON.parse(over.body)).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32600, message: `request header fields too large (max ${HEAD} bytes)` },
    });
  });

  it('Ethereum JSON-RPC: max-url-bytes answered, one more 414 (-32600)', async () => {
    const post = (t: string) => fetch(`${node.urls.jsonRpc!}${t}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: CHAIN_ID });
    expect((await post(target('/', URL_BYTES))).status).toBe(200);
    const over = await post(target('/', URL_BYTES + 1));
    expect(over.status).toBe(414);
    expect(await over.json()).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32600, message: `request URI too long (max ${URL_BYTES} bytes)` } });
  });

  it('routing API: max-header-bytes and max-url-bytes answered at the limit, refused past it with code 3', async () => {
    const at = await rawRequest(node.urls.routing!, { method: 'GET', target: '/v2/info/chains?q', headBytes: HEAD });
    expect(at.status).toBe(200);
    const over = await rawRequest(node.urls.routing!, { method: 'GET', target: '/v2/info/chains?q', headBytes: HEAD + 1 });
    expect(over.status).toBe(431);
    expect(JSON.parse(over.body)).toEqual({ code: 3, message: `request header fields too large (max ${HEAD} bytes)`, details: [] });
    expect((await fetch(`${node.urls.routing!}${target('/v2/info/chains', URL_BYTES)}`)).status).toBe(200);
    const long = await fetch(`${node.urls.routing!}${target('/v2/info/chains', URL_BYTES + 1)}`);
    expect(long.status).toBe(414);
    expect(await long.json()).toEqual({ code: 3, message: `request URI too long (max ${URL_BYTES} bytes)`, details: [] });
  });
});
