/**
 * The Solana RPC's transport limits and CORS come from `[svm]` keys (max-body-bytes,
 * max-header-bytes, max-url-bytes, cors-allowed-origins): at each limit a request is answered, one
 * byte over it gets 413 / 431 / 414 as a JSON-RPC error object; the origins are exactly the
 * configured ones (devnet "*", a home none).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultConfig, homeProfile } from '../../src/config/defaults.js';
import { resolveConfig } from '../../src/config/resolve.js';
import { startSvmChain, type SvmChain } from '../../src/chains/svm/start.js';
import { rawRequest } from '../helpers/raw-http.js';

const BODY = 4096;
const HEAD = 2048;
const URL_BYTES = 256;
const APP = 'http://app.example';
let chain: SvmChain;

beforeAll(async () => {
  const { maxBodyBytes, maxHeaderBytes, maxUrlBytes, corsAllowedOrigins } = resolveConfig(undefined, {
    svm: { maxBodyBytes: BODY, maxHeaderBytes: HEAD, maxUrlBytes: URL_BYTES, corsAllowedOrigins: [APP] },
  }).svm;
  chain = await startSvmChain({ kind: 'svm', rpc: '127.0.0.1:0', ws: '127.0.0.1:0', slotMs: 0, maxBodyBytes, maxHeaderBytes, maxUrlBytes, corsAllowedOrigins });
});
afterAll(async () => {
  await chain?.stop();
});

/** A getSlot request padded with spaces to exactly `n` bytes. */
function bodyOf(n: number): string {
  const json = '{"jsonrpc":"2.0","id":1,"method":"getSlot"}';
  return json + ' '.repeat(n - json.length);
}

describe('the Solana RPC’s [svm] limits and CORS', () => {
  it('takes a body of max-body-bytes and refuses one byte more with 413 as a JSON-RPC error', async () => {
    const at = await fetch(chain.urls.rpc!, { method: 'POST', headers: { 'content-type': 'application/json' }, body: bodyOf(BODY) });
    expect(at.status).toBe(200);
    expect(await at.json()).toMatchObject({ jsonrpc: '2.0', id: 1, result: expect.any(Number) as unknown as number });
    const over = await fetch(chain.urls.rpc!, { method: 'POST', headers: { 'content-type': 'application/json' }, body: bodyOf(BODY + 1) });
    expect(over.status).toBe(413);
    expect(await over.json()).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32600, message: `request body too large (max ${BODY} bytes)` } });
  });

  it('takes a head of max-header-bytes and refuses one byte more with 431 as a JSON-RPC error', async () => {
    const at = await rawRequest(chain.urls.rpc!, { target: '/?q=1', headBytes: HEAD, body: bodyOf(64) });
    expect(at.status).toBe(200);
    expect(JSON.parse(at.body)).toMatchObject({ jsonrpc: '2.0', id: 1 });
    const over = await rawRequest(chain.urls.rpc!, { target: '/?q=1', headBytes: HEAD + 1, body: bodyOf(64) });
    expect(over.status).toBe(431);
    expect(JSON.parse(over.body)).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32600, message: `request header fields too large (max ${HEAD} bytes)` },
    });
  });

  it('takes a request target of max-url-bytes and refuses one byte more with 414 as a JSON-RPC error', async () => {
    const target = (n: number) => `/?${'a'.repeat(n - 2)}`;
    const at = await fetch(`${chain.urls.rpc!}${target(URL_BYTES)}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: bodyOf(64) });
    expect(at.status).toBe(200);
    const over = await fetch(`${chain.urls.rpc!}${target(URL_BYTES + 1)}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: bodyOf(64),
    });
    expect(over.status).toBe(414);
    expect(await over.json()).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32600, message: `request URI too long (max ${URL_BYTES} bytes)` } });
  });

  it('allows exactly the origins of cors-allowed-origins', async () => {
    const preflight = (origin: string) =>
      fetch(chain.urls.rpc!, {
        method: 'OPTIONS',
        headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
      });
    expect((await preflight(APP)).headers.get('access-control-allow-origin')).toBe(APP);
    expect((await preflight('http://evil.example')).headers.get('access-control-allow-origin')).toBeNull();
    const post = (origin: string) => fetch(chain.urls.rpc!, { method: 'POST', headers: { origin, 'content-type': 'application/json' }, body: bodyOf(64) });
    expect((await post(APP)).headers.get('access-control-allow-origin')).toBe(APP);
    expect((await post('http://evil.example')).headers.get('access-control-allow-origin')).toBeNull();
  });

  it('defaults: any origin in the devnet, none on a home; 50 MiB of body, 1 MiB of head, 64 KiB of URL', () => {
    expect(defaultConfig().svm).toMatchObject({
      corsAllowedOrigins: ['*'],
      maxBodyBytes: 50 * 1024 * 1024,
      maxHeaderBytes: 1_048_576,
      maxUrlBytes: 65_536,
      wsWriteBufferBytes: 4_194_304,
    });
    expect(homeProfile(defaultConfig()).svm.corsAllowedOrigins).toEqual([]);
  });

  it('refuses a negative limit when the chain starts, naming the key', async () => {
    await expect(startSvmChain({ kind: 'svm', rpc: '', slotMs: 0, maxHeaderBytes: -1 })).rejects.toThrow(
      'svm chain: maxHeaderBytes ([svm] max-header-bytes) must be an integer ≥ 0, got -1',
    );
  });
});
