/**
 * Hostile input against every HTTP server of the default network (EVM chain with its CometBFT
 * RPC, Ethereum JSON-RPC HTTP and WS listeners; the hub's CometBFT RPC; the SVM chain's Solana
 * HTTP and WS; the routing API and the network's Prometheus): a request over a limit gets an answer
 * in the family's form, never a crash, and the process keeps answering.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mergeConfig } from '../../src/config/defaults.js';
import { startNetwork, type Network } from '../../src/network/network.js';
import { rawHttp } from '../../src/rpc/transport/test-helpers.js';
import { FAST_CONSENSUS, TEST_PORTS } from '../helpers/node.js';

const PROMETHEUS = { instrumentation: { prometheus: true, prometheusListenAddr: '127.0.0.1:0' } };

let network: Network;
/** Every HTTP listener of the network, by name. */
const servers: Record<string, string> = {};

beforeAll(async () => {
  network = await startNetwork({
    ibc: false,
    chains: [
      { kind: 'evm', config: mergeConfig(mergeConfig(TEST_PORTS as never, FAST_CONSENSUS as never), PROMETHEUS as never) as never },
      // A small head limit, so a 431 can be seen below uWS's own ~128 KiB cut-off.
      { kind: 'hub', config: { rpc: { laddr: 'tcp://127.0.0.1:0', maxHeaderBytes: 8192 } } },
      { kind: 'svm', rpc: '127.0.0.1:0', ws: '127.0.0.1:0', slotMs: 0 },
    ],
  });
  const evm = network.evm!;
  const hub = network.chains.find((c) => c.kind === 'hub')!;
  const svm = network.chains.find((c) => c.kind === 'svm')!;
  const http = (ws: string): string => ws.replace(/^ws:/, 'http:').replace(/\/websocket$/, '');
  Object.assign(servers, {
    'evm comet rpc': evm.urls.rpc!,
    'eth json-rpc': evm.urls.jsonRpc!,
    'eth json-rpc ws': http(evm.urls.jsonRpcWs!),
    routing: network.urls.routing!,
    prometheus: (network.urls.metrics ?? evm.urls.metrics)!.replace(/\/metrics$/, ''),
    'hub comet rpc': hub.urls.rpc!,
    'solana rpc': svm.urls.rpc!,
    'solana ws': http(svm.urls.rpcWs!),
  });
}, 60_000);

afterAll(async () => {
  await network?.stop();
});

const portOf = (url: string): number => Number(new URL(url).port);

describe('every HTTP server of the default network', () => {
  it('lists eight listeners', () => {
    expect(Object.values(servers).every((u) => /^http:\/\/127\.0\.0\.1:\d+$/.test(u))).toBe(true);
    expect(Object.keys(servers)).toHaveLength(8);
  });

  it('answers a HEAD with an oversized Content-Length and one with a 20 KB header, and still answers after', async () => {
    for (const [name, url] of Object.entries(servers)) {
      const port = portOf(url);
      const cl = await rawHttp(port, 'HEAD / HTTP/1.1\r\nHost: x\r\nContent-Length: 100000000\r\n\r\n');
      expect(cl.status, `${name}: HEAD with Content-Length 1e8`).toBe(413);
      const big = await rawHttp(port, `HEAD / HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
      expect(big.status, `${name}: HEAD with a 20 KB header`).toBeGreaterThanOrEqual(200);
      const after = await rawHttp(port, 'GET / HTTP/1.1\r\nHost: x\r\n\r\n');
      expect(after.status, `${name}: still answering`).toBeGreaterThanOrEqual(200);
    }
  });

  it('answers a 100 KB URL with 414 in the family form', async () => {
    const target = `/?q=${'a'.repeat(100_000)}`;
    for (const [name, url] of Object.entries(servers)) {
      const res = await rawHttp(portOf(url), `GET ${target} HTTP/1.1\r\nHost: x\r\n\r\n`);
      expect(res.status, name).toBe(414);
      const body = res.body;
      if (name.includes('prometheus')) expect(body, name).toBe('request URI too long (max 65536 bytes)\n');
      else if (name === 'routing') expect(JSON.parse(body), name).toEqual({ code: 3, message: 'request URI too long (max 65536 bytes)', details: [] });
      else if (name.includes('comet'))
        expect(JSON.parse(body), name).toEqual({
          jsonrpc: '2.0',
          error: { code: -32600, message: 'Invalid Request', data: 'request URI too long (max 65536 bytes)' },
        });
      else expect(JSON.parse(body), name).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32600, message: 'request URI too long (max 65536 bytes)' } });
    }
  });
});

describe('oversized bodies', () => {
  it('get a readable 413 in the family form', async () => {
    const eth = await fetch(servers['eth json-rpc']!, { method: 'POST', headers: { 'content-type': 'application/json' }, body: new Uint8Array(5_242_881) });
    expect(eth.status).toBe(413);
    expect(await eth.json()).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32600, message: 'request body too large (max 5242880 bytes)' } });

    const comet = await fetch(servers['evm comet rpc']!, { method: 'POST', body: new Uint8Array(1_000_001) });
    expect(comet.status).toBe(413);
    expect(await comet.json()).toEqual({
      jsonrpc: '2.0',
      error: { code: -32600, message: 'Invalid Request', data: 'error reading request body: http: request body too large' },
    });

    const routing = await fetch(`${servers['routing']!}/v2/fungible/route`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: new Uint8Array(4_000_000),
    });
    expect(routing.status).toBe(413);
    expect(await routing.json()).toMatchObject({ code: 3, message: expect.stringMatching(/^request body too large \(max \d+ bytes\)$/), details: [] });

    // 50 MiB is the Solana limit: a declared length over it, with the start of a body.
    const solana = await rawHttp(portOf(servers['solana rpc']!), [
      'POST / HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 60000000\r\n\r\n',
      Buffer.alloc(1_000_000, 0x20),
    ]);
    expect(solana.status).toBe(413);
    expect(JSON.parse(solana.body)).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32600, message: 'request body too large (max 52428800 bytes)' } });
  });
});

describe('large headers', () => {
  it('get 431 in the family form', async () => {
    const header = `X-Big: ${'a'.repeat(20_000)}`;
    const routing = await rawHttp(portOf(servers['routing']!), `GET /v2/info/chains HTTP/1.1\r\nHost: x\r\n${header}\r\n\r\n`);
    expect(routing.status).toBe(431);
    expect(routing.headers['content-type']).toBe('application/json');
    expect(JSON.parse(routing.body)).toEqual({ code: 3, message: 'request header fields too large (max 16384 bytes)', details: [] });

    const hub = await rawHttp(portOf(servers['hub comet rpc']!), `GET /status HTTP/1.1\r\nHost: x\r\n${header}\r\n\r\n`);
    expect(hub.status).toBe(431);
    expect(JSON.parse(hub.body)).toEqual({
      jsonrpc: '2.0',
      error: { code: -32600, message: 'Invalid Request', data: 'request header fields too large (max 8192 bytes)' },
    });

    const prom = await rawHttp(portOf(servers['prometheus']!), `GET /metrics HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(70_000)}\r\n\r\n`);
    expect(prom.status).toBe(431);
    expect(prom.body).toBe('request header fields too large (max 65536 bytes)\n');
  });

  it('answers wrong methods in the family form', async () => {
    const eth = await fetch(servers['eth json-rpc']!, { method: 'GET' });
    expect(eth.status).toBe(405);
    expect(await eth.json()).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32600, message: 'method not allowed' } });
    const solana = await fetch(servers['solana rpc']!, { method: 'PUT' });
    expect(solana.status).toBe(405);
    expect(await solana.json()).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32600 } });
  });
});

describe('CORS of the in-memory devnet', () => {
  it('allows any origin on the Ethereum JSON-RPC, the routing API and the Solana RPC (documented devnet default)', async () => {
    const origin = 'http://dapp.example';
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] });
    const eth = await fetch(servers['eth json-rpc']!, { method: 'POST', headers: { origin, 'content-type': 'application/json' }, body });
    expect(eth.headers.get('access-control-allow-origin')).toBe('*');
    const routing = await fetch(`${servers['routing']!}/v2/info/chains`, { headers: { origin } });
    expect(routing.headers.get('access-control-allow-origin')).toBe('*');
    const solana = await fetch(servers['solana rpc']!, {
      method: 'POST',
      headers: { origin, 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'getSlot' }),
    });
    expect(solana.headers.get('access-control-allow-origin')).toBe('*');
    // CometBFT's own default: no CORS.
    const comet = await fetch(`${servers['evm comet rpc']!}/health`, { headers: { origin } });
    expect(comet.headers.get('access-control-allow-origin')).toBeNull();
  });
});
