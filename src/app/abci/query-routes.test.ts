import { describe, expect, it } from 'vitest';
import { toBech32 } from '../../crypto/bech32.js';
import type { RequestQuery, ResponseQuery } from '../../abci/types.js';
import { DEV_ADDRESS_0, DEV_KEY_0, signEthTransfer } from '../fixtures/signed-txs.js';
import { startTestChain } from '../fixtures/test-chain.js';
import { buildRouteTable, routeQuery, type QueryContext, type QueryRoute } from '../../sdk/query-router.js';
import { COSMOS_QUERIES, IBC_QUERIES, NODE_QUERY_SERVICES } from './lazy-query-routes.js';
import { cosmosNodeQueryRoutes } from '../../node/cosmos-node-queries.js';

const TO = '0x000000000000000000000000000000000000beef';
const q = (path: string, extra: Partial<RequestQuery> = {}): RequestQuery => ({ path, data: new Uint8Array(0), height: 0, prove: false, ...extra });
const text = (r: ResponseQuery) => new TextDecoder().decode(r.value!);

async function chainWithHistory() {
  const chain = await startTestChain({
    alloc: {
      [DEV_ADDRESS_0]: { balance: (10n ** 20n).toString() },
      [TO]: { balance: '0', code: '0x600160005500', storage: { '0x05': '0x1234' } },
    },
  });
  // TO has code (it stores 1 at slot 0): give the call room to run.
  await chain.block([signEthTransfer(DEV_KEY_0, TO, 7n, { nonce: 0n, gasLimit: 100_000n })]);
  return chain;
}

describe('Query', () => {
  it('answers /evm/balance and /evm/account for 0x, bech32 and raw-bytes addresses', async () => {
    const chain = await chainWithHistory();
    const res = await chain.app.query(q(`/evm/balance/${TO}`));
    expect(res).toMatchObject({ code: 0, height: 1 });
    expect(JSON.parse(text(res))).toEqual({ balance: '7', denom: 'achainlet' });

    const bech = toBech32('chainlet', Buffer.from(TO.slice(2), 'hex'));
    expect(JSON.parse(text(await chain.app.query(q(`/evm/balance/${bech}`)))).balance).toBe('7');
    const raw = await chain.app.query(q('/evm/balance', { data: Buffer.from(TO.slice(2), 'hex') }));
    expect(JSON.parse(text(raw)).balance).toBe('7');

    const acc = JSON.parse(text(await chain.app.query(q(`/evm/account/${DEV_ADDRESS_0.toUpperCase().replace('0X', '0x')}`))));
    expect(acc).toMatchObject({ address: DEV_ADDRESS_0, nonce: '1' });
    expect(BigInt(acc.balance)).toBeLessThan(10n ** 20n);
    expect(acc.code_hash).toBe('0xc5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470');
    expect(acc.storage_root).toBe('0x56e81f171bcc55a6ff8345e692c0f86e5b48e01b996cadc001622fb5e363b421');
  });

  it('answers /evm/code and /evm/storage', async () => {
    const chain = await chainWithHistory();
    expect(text(await chain.app.query(q(`/evm/code/${TO}`)))).toBe('0x600160005500');
    expect(text(await chain.app.query(q(`/evm/code/${DEV_ADDRESS_0}`)))).toBe('0x');
    expect(text(await chain.app.query(q(`/evm/storage/${TO}/0x5`)))).toBe(`0x${'1234'.padStart(64, '0')}`);
    expect(text(await chain.app.query(q(`/evm/storage/${TO}/0x${'00'.repeat(31)}06`)))).toBe(`0x${'0'.repeat(64)}`);
    const bad = await chain.app.query(q(`/evm/storage/${TO}/zz`));
    expect(bad).toMatchObject({ code: 18, codespace: 'sdk' });
  });

  it('reads historical heights and refuses future ones', async () => {
    const chain = await chainWithHistory();
    const past = await chain.app.query(q(`/evm/balance/${TO}`, { height: 0 }));
    expect(past.height).toBe(1);
    const genesis = await chain.app.query(q(`/evm/account/${DEV_ADDRESS_0}`, { height: 1 }));
    expect(JSON.parse(text(genesis)).nonce).toBe('1');
    await chain.block([]);
    const h1 = await chain.app.query(q(`/evm/balance/${TO}`, { height: 1 }));
    expect(h1.height).toBe(1);
    expect(JSON.parse(text(h1)).balance).toBe('7');
    const future = await chain.app.query(q(`/evm/balance/${TO}`, { height: 99 }));
    expect(future.code).toBe(26);
    expect(future.log).toContain('height');
  });

  it('reports unknown paths and bad addresses with a non-zero code', async () => {
    const chain = await chainWithHistory();
    const unknown = await chain.app.query(q('/evm/nothing/here'));
    expect(unknown).toMatchObject({ code: 6, codespace: 'sdk', log: 'unknown query path: /evm/nothing/here', value: null });
    const bad = await chain.app.query(q('/evm/balance/0x1234'));
    expect(bad.code).toBe(7);
    expect(bad.log).toContain('invalid address');
    const wrongPrefix = await chain.app.query(q(`/evm/balance/${toBech32('cosmos', new Uint8Array(20))}`));
    expect(wrongPrefix.code).toBe(7);
    const empty = await chain.app.query(q('/evm/balance'));
    expect(empty.code).toBe(18);
  });

  it('takes extra routes from the options (for Cosmos SDK gRPC paths later)', async () => {
    const chain = await startTestChain({
      queryRoutes: [{ path: '/cosmos.bank.v1beta1.Query/Balance', handle: async () => new Uint8Array([1, 2, 3]) }],
    });
    const res = await chain.app.query(q('/cosmos.bank.v1beta1.Query/Balance'));
    expect(res).toMatchObject({ code: 0, value: new Uint8Array([1, 2, 3]) });
  });
});

describe('lazily loaded query routes', () => {
  const ctx: QueryContext = { latestHeight: () => 1, stateAt: async () => ({}) as never, denom: 'a', bech32Prefix: 'p' };
  const answer = (path: string, byte: number): QueryRoute => ({ path, handle: async () => new Uint8Array([byte]) });

  it('names every service its loaded routes serve, and only those', async () => {
    const nodeRoutes = cosmosNodeQueryRoutes({
      blockStore: {} as never,
      txIndexer: undefined,
      info: () => ({ chainId: 'c', moniker: 'm', nodeId: '', rpcAddress: '', appVersion: 0n }) as never,
    });
    const groups = [
      { services: COSMOS_QUERIES.services, routes: await COSMOS_QUERIES.load() },
      { services: IBC_QUERIES.services, routes: await IBC_QUERIES.load() },
      { services: NODE_QUERY_SERVICES, routes: nodeRoutes },
    ];
    for (const g of groups) {
      const served = new Set(g.routes.map((r) => r.path.slice(0, r.path.indexOf('/', 1))));
      expect([...served].sort()).toEqual([...g.services].sort());
    }
  });

  it('loads a group at the first query of one of its services, once, and every group of a shared service', async () => {
    const loads: string[] = [];
    const table = buildRouteTable(
      [],
      [
        { services: ['/a.Query', '/shared.Service'], load: async () => (loads.push('a'), [answer('/a.Query/X', 1), answer('/shared.Service/A', 2)]) },
        { services: ['/b.Query', '/shared.Service'], load: async () => (loads.push('b'), [answer('/b.Query/Y', 3), answer('/shared.Service/B', 4)]) },
      ],
    );
    expect(loads).toEqual([]);
    // Two first queries at once: one load, both answered.
    const [x1, x2] = await Promise.all([routeQuery(ctx, table, q('/a.Query/X')), routeQuery(ctx, table, q('/a.Query/X'))]);
    expect([x1.value, x2.value]).toEqual([new Uint8Array([1]), new Uint8Array([1])]);
    expect(loads).toEqual(['a']);
    // The shared service still loads b, although a (which also serves it) is loaded.
    expect((await routeQuery(ctx, table, q('/shared.Service/B'))).value).toEqual(new Uint8Array([4]));
    expect(loads).toEqual(['a', 'b']);
    expect(table.pending.size).toBe(0);
    const unknown = await routeQuery(ctx, table, q('/a.Query/Nothing'));
    expect(unknown).toMatchObject({ code: 6, log: 'unknown query path: /a.Query/Nothing' });
  });

  it('keeps a route given up front over a loaded one with the same path', async () => {
    const table = buildRouteTable([answer('/a.Query/X', 9)], [{ services: ['/a.Query'], load: async () => [answer('/a.Query/X', 1)] }]);
    expect((await routeQuery(ctx, table, q('/a.Query/X'))).value).toEqual(new Uint8Array([9]));
  });

  it('refuses a loaded group with a route outside its services, adding none of its routes', async () => {
    const table = buildRouteTable([], [{ services: ['/a.Query'], load: async () => [answer('/a.Query/Y', 2), answer('/b.Query/X', 1)] }]);
    await expect(routeQuery(ctx, table, q('/a.Query/X'))).rejects.toThrow('query route /b.Query/X is outside its group');
    expect(table.routes.has('/a.Query/Y')).toBe(false);
  });

  it('tries a group again after its load failed', async () => {
    let calls = 0;
    const table = buildRouteTable(
      [],
      [{ services: ['/a.Query'], load: async () => (++calls === 1 ? Promise.reject(new Error('boom')) : [answer('/a.Query/X', 1)]) }],
    );
    await expect(routeQuery(ctx, table, q('/a.Query/X'))).rejects.toThrow('boom');
    expect((await routeQuery(ctx, table, q('/a.Query/X'))).value).toEqual(new Uint8Array([1]));
    expect(calls).toBe(2);
  });

  it('lets the later group win a path two groups serve, whichever loads first', async () => {
    const groups = [
      { services: ['/a.Query'], load: async () => [answer('/a.Query/X', 1)] },
      { services: ['/a.Query', '/b.Query'], load: async () => [answer('/a.Query/X', 2), answer('/b.Query/Y', 3)] },
    ];
    const laterFirst = buildRouteTable([], groups);
    await routeQuery(ctx, laterFirst, q('/b.Query/Y'));
    expect((await routeQuery(ctx, laterFirst, q('/a.Query/X'))).value).toEqual(new Uint8Array([2]));
    const together = buildRouteTable([], groups);
    expect((await routeQuery(ctx, together, q('/a.Query/X'))).value).toEqual(new Uint8Array([2]));
  });
});
