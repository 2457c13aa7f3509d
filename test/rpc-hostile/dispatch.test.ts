/**
 * Hostile JSON-RPC input on every server of a network (EVM chain + SVM chain), over real sockets:
 * method names from Object.prototype, ids JSON cannot echo (1e400, objects, arrays), params nested
 * thousands deep and the depth limits at their edge (each family's own key, set low here), a
 * `[null]` batch, and personal_unlockAccount over WebSocket under allow-insecure-unlock = false.
 * Every answer is the family's own error form: never a 500 from the transport, never silence,
 * never an object reached through a prototype.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mergeConfig } from '../../src/config/defaults.js';
import { startNetwork, type Network } from '../../src/network/network.js';
import type { SvmChain } from '../../src/chains/svm/start.js';
import type { ChainletNode } from '../../src/node/node.js';
import { FAST_CONSENSUS, TEST_PORTS } from '../helpers/node.js';
import { getRaw, nested, postRaw, PROTOTYPE_NAMES, RawWs, type RawReply } from './helpers.js';

const COMET_DEPTH = 32;
const ETH_DEPTH = 48;
const ROUTING_DEPTH = 40;
const SVM_DEPTH = 24;
const DEEP = 5000;
const KEY_1 = '59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d';

let network: Network;
let evm: ChainletNode;
let svm: SvmChain;
let url: { eth: string; ethWs: string; comet: string; cometWs: string; svm: string; svmWs: string; routing: string };
const sockets: RawWs[] = [];

beforeAll(async () => {
  const evmConfig = mergeConfig(mergeConfig(TEST_PORTS as never, FAST_CONSENSUS as never), {
    rpc: { maxJsonDepth: COMET_DEPTH },
    jsonRpc: { api: ['eth', 'web3', 'net', 'personal'], allowInsecureUnlock: false, maxJsonDepth: ETH_DEPTH },
    routing: { rateLimitBurst: 10_000, rateLimitPerSecond: 10_000, maxJsonDepth: ROUTING_DEPTH },
  } as never);
  network = await startNetwork({
    chains: [
      { kind: 'evm', config: evmConfig },
      { kind: 'svm', rpc: '127.0.0.1:0', ws: '127.0.0.1:0', slotMs: 0, maxJsonDepth: SVM_DEPTH },
    ],
  });
  evm = network.evm!;
  svm = network.chains.find((c): c is SvmChain => c.kind === 'svm')!;
  url = {
    eth: evm.urls.jsonRpc!,
    ethWs: evm.urls.jsonRpcWs!,
    comet: evm.urls.rpc!,
    cometWs: evm.urls.rpcWs!,
    svm: svm.urls.rpc!,
    svmWs: svm.urls.rpcWs!,
    routing: network.urls.routing!,
  };
});

afterAll(async () => {
  await Promise.all(sockets.map((s) => s.close()));
  await network?.stop();
});

async function ws(u: string): Promise<RawWs> {
  const s = await RawWs.open(u);
  sockets.push(s);
  return s;
}

const call = (method: string, extra = '') => `{"jsonrpc":"2.0","id":1,"method":${JSON.stringify(method)}${extra}}`;
const withParams = (method: string, params: string) => `{"jsonrpc":"2.0","id":1,"method":${JSON.stringify(method)},"params":${params}}`;

/** No key material, and no object reached through a prototype. */
function expectNoSecrets(r: RawReply): void {
  expect(r.text).not.toMatch(/secretKey|privateKey|devAccounts|ledger/i);
}

describe('method names from Object.prototype', () => {
  it('Ethereum JSON-RPC (HTTP and WebSocket): the method does not exist', async () => {
    const sock = await ws(url.ethWs);
    for (const name of PROTOTYPE_NAMES) {
      const expected = { jsonrpc: '2.0', id: 1, error: { code: -32601, message: `the method ${name} does not exist/is not available` } };
      for (const r of [await postRaw(url.eth, call(name)), await sock.ask(call(name))]) {
        expect(r.json).toEqual(expected);
        expectNoSecrets(r);
      }
    }
  });

  it('CometBFT RPC (JSON-RPC over HTTP and WebSocket, URI): Method not found / 404', async () => {
    const sock = await ws(url.cometWs);
    for (const name of PROTOTYPE_NAMES) {
      const expected = { jsonrpc: '2.0', id: 1, error: { code: -32601, message: 'Method not found' } };
      const http = await postRaw(url.comet, call(name));
      expect(http.status).toBe(200);
      expect(http.json).toEqual(expected);
      expect((await sock.ask(call(name))).json).toEqual(expected);
      const uri = await getRaw(`${url.comet}/${name}`);
      expect(uri.status).toBe(404);
      expect(uri.text).toBe('404 page not found\n');
      for (const r of [http, uri]) expectNoSecrets(r);
    }
  });

  it('Solana JSON-RPC (HTTP and WebSocket, single and batch): Method not found, no dev secret key', async () => {
    const sock = await ws(url.svmWs);
    for (const name of PROTOTYPE_NAMES) {
      const expected = { jsonrpc: '2.0', id: 1, error: { code: -32601, message: 'Method not found' } };
      for (const r of [await postRaw(url.svm, call(name), 'text/plain'), await sock.ask(call(name))]) {
        expect(r.json).toEqual(expected);
        expectNoSecrets(r);
      }
    }
    const batch = await postRaw(url.svm, `[${PROTOTYPE_NAMES.map((n) => call(n)).join(',')}]`);
    expect(batch.json).toEqual(PROTOTYPE_NAMES.map(() => ({ jsonrpc: '2.0', id: 1, error: { code: -32601, message: 'Method not found' } })));
    expectNoSecrets(batch);
  });

  it('the explorer proxies: method not found, nothing forwarded', async () => {
    for (const path of ['eth', 'comet', 'svm']) {
      for (const name of PROTOTYPE_NAMES) {
        const r = await postRaw(`${url.routing}/explorer/api/${path}`, call(name));
        expect(r.status).toBe(200);
        expect(r.json).toMatchObject({ jsonrpc: '2.0', id: 1, error: { code: -32601 } });
        expect(r.json.error.message).toMatch(new RegExp(`^method ${name} is not available through the explorer`));
        expectNoSecrets(r);
      }
    }
  });
});

describe('ids JSON-RPC cannot echo', () => {
  const weird = ['1e400', '-1e400', '{}', '{"a":1}', '[1]', '[[1]]'];

  it('Ethereum JSON-RPC: invalid request under id null (as geth), over HTTP and WebSocket', async () => {
    const sock = await ws(url.ethWs);
    const invalid = '{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"invalid request"}}';
    for (const id of weird) {
      const body = `{"jsonrpc":"2.0","id":${id},"method":"eth_chainId"}`;
      expect((await postRaw(url.eth, body)).text).toBe(invalid);
      expect((await sock.ask(body)).text).toBe(invalid);
    }
    // Ids JSON can carry come back as sent.
    expect((await postRaw(url.eth, '{"jsonrpc":"2.0","id":"x\\"1","method":"eth_chainId"}')).json.id).toBe('x"1');
    expect((await postRaw(url.eth, '{"jsonrpc":"2.0","id":-7.5,"method":"eth_chainId"}')).text).toMatch(/^\{"jsonrpc":"2.0","id":-7.5,"result":/);
  });

  it('Solana JSON-RPC: Invalid request under id null, over HTTP and WebSocket, in a batch per item', async () => {
    const sock = await ws(url.svmWs);
    const invalid = '{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid request"}}';
    for (const id of weird) {
      const body = `{"jsonrpc":"2.0","id":${id},"method":"getSlot"}`;
      expect((await postRaw(url.svm, body)).text).toBe(invalid);
      expect((await sock.ask(body)).text).toBe(invalid);
    }
    const batch = await postRaw(url.svm, '[{"jsonrpc":"2.0","id":1e400,"method":"getSlot"},{"jsonrpc":"2.0","id":2,"method":"getSlot"}]');
    expect(batch.json).toEqual([
      { jsonrpc: '2.0', id: null, error: { code: -32600, message: 'Invalid request' } },
      { jsonrpc: '2.0', id: 2, result: expect.any(Number) },
    ]);
  });

  it('CometBFT RPC: the parse error CometBFT gives (valid JSON, no Infinity), over HTTP and WebSocket', async () => {
    const sock = await ws(url.cometWs);
    for (const id of weird) {
      const body = `{"jsonrpc":"2.0","id":${id},"method":"health"}`;
      const http = await postRaw(url.comet, body);
      const frame = await sock.ask(body);
      for (const r of [http, frame]) {
        expect(r.json).toMatchObject({ jsonrpc: '2.0', error: { code: -32700, message: 'Parse error. Invalid JSON' } });
        expect(r.json.error.data).toMatch(/^error unmarshaling request: json-rpc ID/);
        expect(r.json).not.toHaveProperty('id');
      }
    }
  });
});

describe('nesting depth', () => {
  const deepParams = (method: string) => withParams(method, nested(DEEP));
  const deepId = (method: string) => `{"jsonrpc":"2.0","id":${nested(DEEP)},"method":"${method}"}`;

  it(`Ethereum JSON-RPC: parse error past [json-rpc] max-json-depth (${ETH_DEPTH}), HTTP and WebSocket`, async () => {
    const sock = await ws(url.ethWs);
    const refused = '{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"parse error"}}';
    for (const body of [deepParams('eth_call'), deepId('eth_chainId'), `[${deepParams('eth_call')}]`]) {
      const http = await postRaw(url.eth, body);
      expect(http.status).toBe(200);
      expect(http.text).toBe(refused);
      expect((await sock.ask(body)).text).toBe(refused);
    }
    // The edge: the request object plus params nested to exactly the limit is read (and answered for its params).
    const atLimit = await postRaw(url.eth, withParams('eth_chainId', nested(ETH_DEPTH - 1)));
    expect(atLimit.json.error.code).toBe(-32602);
    expect((await postRaw(url.eth, withParams('eth_chainId', nested(ETH_DEPTH)))).text).toBe(refused);
    // Brackets inside strings do not count.
    expect((await postRaw(url.eth, withParams('web3_clientVersion', `["${'['.repeat(DEEP)}"]`))).json.error.code).not.toBe(-32700);
  });

  it(`CometBFT RPC: Invalid Request past [rpc] max_json_depth (${COMET_DEPTH}), HTTP 200 and WebSocket`, async () => {
    const sock = await ws(url.cometWs);
    const refused = {
      jsonrpc: '2.0',
      error: { code: -32600, message: 'Invalid Request', data: `request nests deeper than ${COMET_DEPTH} levels of arrays and objects` },
    };
    for (const body of [deepParams('status'), deepId('status'), `[${deepParams('status')}]`]) {
      const http = await postRaw(url.comet, body);
      expect(http.status).toBe(200);
      expect(http.json).toEqual(refused);
      expect((await sock.ask(body)).json).toEqual(refused);
    }
    const atLimit = await postRaw(url.comet, withParams('health', nested(COMET_DEPTH - 1)));
    expect(atLimit.json.error.code).toBe(-32602);
    expect((await postRaw(url.comet, withParams('health', nested(COMET_DEPTH)))).json).toEqual(refused);
    // URI values are JSON too.
    for (const q of [`/block?height=${nested(DEEP)}`, `/blockchain?minHeight=${nested(DEEP)}`, `/tx_search?query=${nested(DEEP)}`]) {
      const uri = await getRaw(`${url.comet}${q}`);
      expect(uri.status).toBe(200);
      expect(uri.json).toEqual({ ...refused, id: -1 });
    }
    expect((await getRaw(`${url.comet}/block?height=${nested(COMET_DEPTH)}`)).json.error.code).toBe(-32602);
  });

  it(`Solana JSON-RPC: Parse error past its max depth (${SVM_DEPTH}), HTTP and WebSocket`, async () => {
    const sock = await ws(url.svmWs);
    const refused = '{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}';
    for (const body of [deepParams('getBalance'), deepId('getSlot'), `[${deepParams('getBalance')}]`, nested(DEEP)]) {
      const http = await postRaw(url.svm, body);
      expect(http.status).toBe(200);
      expect(http.text).toBe(refused);
      expect((await sock.ask(body)).text).toBe(refused);
    }
    const atLimit = await postRaw(url.svm, withParams('getSlot', nested(SVM_DEPTH - 1)));
    expect(atLimit.json.id).toBe(1);
    expect((await postRaw(url.svm, withParams('getSlot', nested(SVM_DEPTH)))).text).toBe(refused);
  });

  it(`the explorer proxies (parse error) and the routing API (400) past [routing] max-json-depth (${ROUTING_DEPTH})`, async () => {
    const reason = `request nests deeper than ${ROUTING_DEPTH} levels of arrays and objects`;
    for (const [path, method] of [
      ['eth', 'eth_getCode'],
      ['comet', 'status'],
      ['svm', 'getSlot'],
    ] as const) {
      for (const body of [deepParams(method), deepId(method)]) {
        const r = await postRaw(`${url.routing}/explorer/api/${path}`, body);
        expect(r.status).toBe(200);
        expect(r.json).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32700, data: reason } });
      }
    }
    const routeRefused = { code: 3, message: `request body is not accepted: ${reason} ([routing] max-json-depth)`, details: [] };
    const route = await postRaw(`${url.routing}/v2/fungible/route`, `{"amount_in":"1","x":${nested(DEEP)}}`);
    expect(route.status).toBe(400);
    expect(route.json).toEqual(routeRefused);
    expect((await postRaw(`${url.routing}/v2/fungible/route`, `{"amount_in":"1","x":${nested(ROUTING_DEPTH)}}`)).json).toEqual(routeRefused);
    expect((await postRaw(`${url.routing}/v2/fungible/route`, `{"amount_in":"1","x":${nested(ROUTING_DEPTH - 1)}}`)).json.message).not.toMatch(/nests deeper/);
    // The edge through a proxy: forwarded at the limit (the Ethereum JSON-RPC, whose limit is higher, answers for the params).
    const atLimit = await postRaw(`${url.routing}/explorer/api/eth`, withParams('eth_getCode', nested(ROUTING_DEPTH - 1)));
    expect(atLimit.status).toBe(200);
    expect(atLimit.json).toMatchObject({ id: 1, error: { code: -32602 } });
    expect((await postRaw(`${url.routing}/explorer/api/eth`, withParams('eth_getCode', nested(ROUTING_DEPTH)))).json).toMatchObject({
      id: null,
      error: { code: -32700, data: reason },
    });
  });
});

describe('Solana batches', () => {
  it('answers a [null] batch item with Invalid request (JSON-RPC 2.0), HTTP and WebSocket', async () => {
    const sock = await ws(url.svmWs);
    const expected = [{ jsonrpc: '2.0', id: null, error: { code: -32600, message: 'Invalid request' } }];
    for (const r of [await postRaw(url.svm, '[null]'), await sock.ask('[null]')]) {
      expect(r.status === 0 || r.status === 200).toBe(true);
      expect(r.json).toEqual(expected);
    }
    const mixed = await postRaw(url.svm, '[null,1,{"jsonrpc":"2.0","id":3,"method":"getHealth"}]');
    expect(mixed.json).toEqual([...expected, ...expected, { jsonrpc: '2.0', id: 3, result: 'ok' }]);
    expect((await postRaw(url.svm, 'null')).json).toEqual(expected[0]);
    expect((await postRaw(url.svm, '[]')).json).toEqual(expected[0]);
  });
});

describe('personal_unlockAccount with allow-insecure-unlock = false', () => {
  it('is refused over WebSocket exactly as over HTTP', async () => {
    const imported = await postRaw(url.eth, withParams('personal_importRawKey', JSON.stringify([KEY_1, 'pw'])));
    const address = imported.json.result as string;
    expect(address).toMatch(/^0x[0-9a-f]{40}$/);
    const body = withParams('personal_unlockAccount', JSON.stringify([address, 'pw', 0]));
    const expected = { jsonrpc: '2.0', id: 1, error: { code: -32000, message: 'account unlock with HTTP access is forbidden' } };
    expect((await postRaw(url.eth, body)).json).toEqual(expected);
    const sock = await ws(url.ethWs);
    expect((await sock.ask(body)).json).toEqual(expected);
    expect(evm.internals.keystore.isUnlocked(address)).toBe(false);
  });
});
