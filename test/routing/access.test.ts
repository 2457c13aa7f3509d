import { Writable } from 'node:stream';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../../src/rpc/routing/api-keys.js';
import { getApiKeyStore, startRoutingApi } from '../../src/node/rpc-routing.js';
import { startTestNode } from '../helpers/node.js';
import { CHAIN_ID, getJson, postJson, startRoutingNode, type RoutingFixture } from './helpers.js';

const RATE = 1;
const BURST = 5;
const RATE_LIMITED = { code: 8, message: 'rate limit exceeded', details: [] };

let f: RoutingFixture;
let key: string;

beforeAll(async () => {
  f = await startRoutingNode({ routing: { rateLimitPerSecond: RATE, rateLimitBurst: BURST } });
  key = createApiKey(getApiKeyStore(f.node), 'tests').key;
});
afterAll(async () => {
  await f?.stop();
});

const chains = (headers: Record<string, string> = {}) => fetch(`${f.url}/v2/info/chains`, { headers });

describe('API keys and the global rate limit', () => {
  it('limits a burst of unauthenticated callers while a keyed caller in the same burst is not', async () => {
    const started = performance.now();
    const anonymous = Array.from({ length: 4 * BURST }, () => chains());
    const keyed = Array.from({ length: 2 * BURST }, () => chains({ authorization: key }));
    const [anon, auth] = await Promise.all([Promise.all(anonymous), Promise.all(keyed)]);
    const elapsedS = (performance.now() - started) / 1000;

    expect(auth.map((r) => r.status)).toEqual(Array(2 * BURST).fill(200));
    const ok = anon.filter((r) => r.status === 200);
    const limited = anon.filter((r) => r.status === 429);
    expect(ok.length + limited.length).toBe(anon.length);
    expect(ok.length).toBeGreaterThanOrEqual(BURST);
    expect(ok.length).toBeLessThanOrEqual(BURST + Math.ceil(elapsedS * RATE));
    expect(limited.length).toBeGreaterThan(0);
    for (const r of limited) {
      expect(await r.json()).toEqual(RATE_LIMITED);
      expect(Number(r.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    }
  });

  it('serves unauthenticated callers again once tokens refill, and keyed callers throughout', async () => {
    // Drain whatever refilled, then wait for one token.
    while ((await chains()).status === 200);
    expect((await chains({ authorization: key })).status).toBe(200);
    await new Promise((r) => setTimeout(r, 1100 / RATE));
    expect((await chains()).status).toBe(200);
  });

  it('refuses an invalid key with 401, code 16, even on routes without a limit', async () => {
    for (const bad of ['nope', key.slice(0, -1) + (key.endsWith('a') ? 'b' : 'a'), `${key}x`]) {
      const r = await getJson(`${f.url}/v2/info/chains`, { authorization: bad });
      expect(r.status).toBe(401);
      expect(r.body).toEqual({ code: 16, message: 'invalid API key', details: [] });
    }
    const logo = await fetch(`${f.url}/logo.svg`, { headers: { authorization: 'nope' } });
    expect(logo.status).toBe(401);
  });

  it('accepts the key with a Bearer prefix too', async () => {
    expect((await chains({ authorization: `Bearer ${key}` })).status).toBe(200);
  });

  it("keys are the node's own: another node in the process refuses them", async () => {
    expect(getApiKeyStore(f.node)).toBe(getApiKeyStore(f.node));
    const g = await startRoutingNode();
    try {
      expect(getApiKeyStore(g.node)).not.toBe(getApiKeyStore(f.node));
      const r = await getJson(`${g.url}/v2/info/chains`, { authorization: key });
      expect(r.status).toBe(401);
      expect(r.body).toEqual({ code: 16, message: 'invalid API key', details: [] });
      const own = createApiKey(getApiKeyStore(g.node), 'other').key;
      expect((await getJson(`${g.url}/v2/info/chains`, { authorization: own })).status).toBe(200);
      expect((await getJson(`${f.url}/v2/info/chains`, { authorization: own })).status).toBe(401);
    } finally {
      await g.stop();
    }
  });

  it('serves client_id callers and says in a header that it is deprecated', async () => {
    const q = await fetch(`${f.url}/v2/info/chains?client_id=my-app`, { headers: { authorization: key } });
    expect(q.status).toBe(200);
    expect(q.headers.get('deprecation')).toBe('true');
    expect(q.headers.get('warning')).toBe('299 - "client_id is deprecated; use the authorization header"');
    const b = await postJson(
      `${f.url}/v2/info/balances`,
      { client_id: 'my-app', chains: { [CHAIN_ID]: { address: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8' } } },
      { authorization: key },
    );
    expect(b.status).toBe(200);
    expect(b.headers.get('deprecation')).toBe('true');
    const plain = await chains({ authorization: key });
    expect(plain.headers.get('deprecation')).toBeNull();
    expect(plain.headers.get('warning')).toBeNull();
  });
});

describe('internal errors', () => {
  it('answer code 2 `internal server error` and are logged', async () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk, _enc, cb) {
        lines.push(String(chunk));
        cb();
      },
    });
    const g = await startRoutingNode({}, { logger: pino({ level: 'info' }, sink) });
    // A routing API whose node has gone away underneath it: reads fail unexpectedly.
    const api = await startRoutingApi(g.node);
    try {
      await g.node.stop();
      const r = await postJson(`${api.url}/v2/tx/track`, { chain_id: CHAIN_ID, tx_hash: 'AB'.repeat(32) });
      expect(r.status).toBe(500);
      expect(r.body).toEqual({ code: 2, message: 'internal server error', details: [] });
      const logged = lines
        .map((l) => JSON.parse(l) as { msg: string; level: number; path?: string; err?: unknown })
        .filter((l) => l.msg === 'routing: internal server error');
      expect(logged).toHaveLength(1);
      expect(logged[0]).toMatchObject({ level: 50, path: '/v2/tx/track' });
      expect(logged[0]!.err).toBeDefined();
    } finally {
      await api.stop();
      await g.stop();
    }
  });
});

describe('the default limit', () => {
  it('lets a local test loop of 300 unauthenticated calls through, one bucket for all such callers', async () => {
    // startTestNode, not startRoutingNode: the fixture's generous limits must not hide the defaults.
    const node = await startTestNode();
    try {
      const cfg = node.config.routing;
      expect(cfg.rateLimitBurst).toBeGreaterThanOrEqual(100);
      expect(cfg.rateLimitPerSecond).toBeGreaterThanOrEqual(20);
      for (let i = 0; i < 300; i++) {
        const r = await fetch(`${node.urls.routing}/v2/info/chains`);
        expect(r.status).toBe(200);
        await r.arrayBuffer();
      }
    } finally {
      await node.stop();
    }
  });
});
