import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHAIN_ID, EVM_CHAIN_ID, getJson, startRoutingNode, type RoutingFixture } from './helpers.js';

const MIN_GAS_PRICE = 5_000_000_000n;
let f: RoutingFixture;

beforeAll(async () => {
  // A min gas price above the initial base fee (1 gwei) makes the "low" tier come from the mempool minimum.
  f = await startRoutingNode({ evm: { minGasPrice: MIN_GAS_PRICE } });
});
afterAll(async () => {
  await f?.stop();
});

const ids = (body: { chains: { chain_id: string }[] }) => body.chains.map((c) => c.chain_id);

describe('GET /v2/info/chains', () => {
  it('lists only the cosmos record by default (include_evm defaults to false)', async () => {
    const r = await getJson(`${f.url}/v2/info/chains`);
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toContain('application/json');
    expect(ids(r.body)).toEqual([CHAIN_ID]);
  });

  it('fills every field of the cosmos record truthfully, with the seed field names', async () => {
    const { body } = await getJson(`${f.url}/v2/info/chains`);
    const c = body.chains[0];
    expect(Object.keys(c).sort()).toEqual(
      [
        'bech32_prefix',
        'chain_id',
        'chain_name',
        'chain_type',
        'ecosystem_module_support',
        'fee_assets',
        'ibc_capabilities',
        'is_testnet',
        'logo_uri',
        'pfm_enabled',
        'pretty_name',
        'supports_memo',
      ].sort(),
    );
    expect(c).toMatchObject({
      chain_name: 'chainlet',
      chain_id: CHAIN_ID,
      pretty_name: 'Chainlet',
      chain_type: 'cosmos',
      bech32_prefix: 'chainlet',
      is_testnet: true,
      pfm_enabled: false,
      supports_memo: false,
      ecosystem_module_support: { authz: false, feegrant: false },
      ibc_capabilities: { ecosystem_pfm: false, ecosystem_ibc_hooks: false, ecosystem_memo: false, ecosystem_autopilot: false },
    });
    expect(c.logo_uri).toBe(`${f.url}/logo.svg`);
  });

  it('derives gas price tiers from the mempool minimum and the base fee', async () => {
    const { body } = await getJson(`${f.url}/v2/info/chains?include_evm=true`);
    const baseFee = f.node.internals.app.evm.nextBaseFee();
    const low = MIN_GAS_PRICE > baseFee ? MIN_GAS_PRICE : baseFee;
    const high = 2n * baseFee > MIN_GAS_PRICE ? 2n * baseFee : MIN_GAS_PRICE;
    for (const c of body.chains) {
      expect(c.fee_assets).toEqual([
        { denom: 'achainlet', gas_price: { low: low.toString(), average: ((low + high + 1n) / 2n).toString(), high: high.toString() } },
      ]);
      for (const v of Object.values(c.fee_assets[0].gas_price)) expect(v).toMatch(/^\d+$/);
    }
  });

  it('adds the evm record (decimal EVM chain id) with include_evm=true', async () => {
    const { body } = await getJson(`${f.url}/v2/info/chains?include_evm=true`);
    expect(ids(body)).toEqual([CHAIN_ID, EVM_CHAIN_ID]);
    expect(body.chains[1]).toMatchObject({ chain_id: '9000', chain_type: 'evm', chain_name: 'chainlet-evm', bech32_prefix: '', is_testnet: true });
  });

  it('filters by repeated chain_ids keys and combines filters', async () => {
    const both = await getJson(`${f.url}/v2/info/chains?chain_ids=${CHAIN_ID}&chain_ids=9000&include_evm=true`);
    expect(ids(both.body)).toEqual([CHAIN_ID, EVM_CHAIN_ID]);
    const evmOnly = await getJson(`${f.url}/v2/info/chains?chain_ids=9000&include_evm=true`);
    expect(ids(evmOnly.body)).toEqual([EVM_CHAIN_ID]);
    const evmExcluded = await getJson(`${f.url}/v2/info/chains?chain_ids=9000`);
    expect(ids(evmExcluded.body)).toEqual([]);
    const unknown = await getJson(`${f.url}/v2/info/chains?chain_ids=osmosis-1`);
    expect(unknown.body).toEqual({ chains: [] });
  });

  it('keeps the devnet under only_testnets and ignores include_svm (no SVM chains)', async () => {
    expect(ids((await getJson(`${f.url}/v2/info/chains?only_testnets=true&include_evm=true`)).body)).toEqual([CHAIN_ID, EVM_CHAIN_ID]);
    expect(ids((await getJson(`${f.url}/v2/info/chains?include_svm=true`)).body)).toEqual([CHAIN_ID]);
  });

  it('rejects a boolean filter that is not a boolean (code 3)', async () => {
    const r = await getJson(`${f.url}/v2/info/chains?include_evm=maybe`);
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ code: 3, message: 'invalid value "maybe" for include_evm: expected true or false', details: [] });
  });

  it('serves the logo itself', async () => {
    const { body } = await getJson(`${f.url}/v2/info/chains`);
    const r = await fetch(body.chains[0].logo_uri);
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toBe('image/svg+xml');
    expect(await r.text()).toMatch(/^<svg [^>]*xmlns="http:\/\/www.w3.org\/2000\/svg"/);
  });
});

describe('unknown routes', () => {
  it('answers 404 code 5 and 405 for a wrong method', async () => {
    const r = await getJson(`${f.url}/v2/no/such/route`);
    expect(r.status).toBe(404);
    expect(r.body).toEqual({ code: 5, message: 'Not Found', details: [] });
    const m = await fetch(`${f.url}/v2/tx/submit`);
    expect(m.status).toBe(405);
    expect(m.headers.get('allow')).toBe('POST');
    expect(await m.json()).toEqual({ code: 12, message: 'Method Not Allowed', details: [] });
  });

  it('lists the endpoints at /', async () => {
    const r = await getJson(`${f.url}/`);
    expect(r.body.endpoints.map((e: { method: string; path: string }) => `${e.method} ${e.path}`)).toEqual(
      expect.arrayContaining(['GET /v2/info/chains', 'POST /v2/info/balances', 'POST /v2/tx/submit', 'POST /v2/tx/track', 'GET /v2/tx/status']),
    );
  });
});
