/**
 * The routing API sees chains only through per-chain adapters (RoutingChain): with two adapters it
 * lists both chains' records, and balances, submit, track and status each go to the chain the
 * request names; a chain id no adapter answers for is `chain ID not supported`.
 */
import { keccak_256 } from '@noble/hashes/sha3.js';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ResponseCheckTx } from '../../src/abci/types.js';
import { ethermintFace, ethermintRecords } from '../../src/rpc/routing/chains.js';
import { MemoryApiKeyStore } from '../../src/rpc/routing/api-keys.js';
import type { HostedChain, RoutingChain } from '../../src/rpc/routing/env.js';
import { startRoutingServer, type RoutingApi } from '../../src/rpc/routing/server.js';
import { getJson, postJson } from './helpers.js';

function fakeChain(id: number, balance: bigint): { adapter: RoutingChain; submitted: Uint8Array[] } {
  const chain: HostedChain = {
    cosmosChainId: `fake${id}_${id}-1`,
    evmChainId: String(id),
    chainName: `fake${id}`,
    prettyName: `Fake ${id}`,
    bech32Prefix: `fake${id}`,
    denom: `afake${id}`,
    displayDenom: `fake${id}`,
    decimals: 18,
    isTestnet: true,
  };
  const submitted: Uint8Array[] = [];
  const ok: ResponseCheckTx = { code: 0, data: new Uint8Array(0), log: '', info: '', gasWanted: 1, gasUsed: 0, events: [], codespace: '' };
  const adapter: RoutingChain = {
    chain,
    face: (chainId) => ethermintFace(chain, chainId),
    records: (baseUrl) => ethermintRecords(chain, adapter.gasPrices(), baseUrl),
    gasPrices: () => ({ low: 1n, average: 2n, high: 3n }),
    nativeBalance: async () => balance,
    erc20Balance: async () => ({ balance: 0n, decimals: 18 }),
    checkTx: async (tx) => {
      submitted.push(tx);
      return { ...ok, ethHash: keccak_256(tx) };
    },
    findTx: async () => undefined,
    pooledTx: () => undefined,
    block: async () => undefined,
  };
  return { adapter, submitted };
}

const a = fakeChain(111, 5n * 10n ** 18n);
const b = fakeChain(222, 7n * 10n ** 18n);
let api: RoutingApi;

beforeAll(async () => {
  api = await startRoutingServer(
    {
      chains: [a.adapter, b.adapter],
      config: {
        enable: true,
        address: '127.0.0.1:0',
        rateLimitPerSecond: 0,
        rateLimitBurst: 0,
        submittedTimeoutMs: 60_000,
        stalledTimeoutMs: 60_000,
        prices: {},
        publicUrl: '',
        erc20Tokens: [],
      },
      logger: pino({ level: 'silent' }),
      apiKeys: new MemoryApiKeyStore(),
      now: () => 0,
    },
    { host: '127.0.0.1', port: 0 },
  );
});
afterAll(async () => {
  await api?.stop();
});

const HOLDER = '0x000000000000000000000000000000000000beef';

describe('per-chain adapters', () => {
  it('lists every adapter’s records', async () => {
    const r = await getJson(`${api.url}/v2/info/chains?include_evm=true`);
    expect(r.status).toBe(200);
    expect((r.body as { chains: { chain_id: string }[] }).chains.map((c) => c.chain_id)).toEqual(['fake111_111-1', '111', 'fake222_222-1', '222']);
  });

  it('answers balances from the chain each entry names', async () => {
    const r = await postJson(`${api.url}/v2/info/balances`, { chains: { '111': { address: HOLDER, denoms: [] }, '222': { address: HOLDER, denoms: [] } } });
    expect(r.status).toBe(200);
    const chains = (r.body as { chains: Record<string, { denoms: Record<string, { formatted_amount: string }> }> }).chains;
    expect(chains['111']!.denoms['fake111-native']!.formatted_amount).toBe('5.000000000000000000');
    expect(chains['222']!.denoms['fake222-native']!.formatted_amount).toBe('7.000000000000000000');
  });

  it('submits to the chain the request names, and tracks it there', async () => {
    const tx = new Uint8Array([1, 2, 3]);
    const r = await postJson(`${api.url}/v2/tx/submit`, { chain_id: '222', tx: Buffer.from(tx).toString('base64') });
    expect(r.status).toBe(200);
    expect(b.submitted).toHaveLength(1);
    expect(a.submitted).toHaveLength(0);
    const hash = (r.body as { tx_hash: string }).tx_hash;
    expect((await getJson(`${api.url}/v2/tx/status?chain_id=222&tx_hash=${hash}`)).status).toBe(200);
    // The same hash is not a tx of the other chain.
    expect((await getJson(`${api.url}/v2/tx/status?chain_id=111&tx_hash=${hash}`)).status).toBe(404);
  });

  it('refuses a chain id no adapter answers for', async () => {
    const r = await postJson(`${api.url}/v2/tx/submit`, { chain_id: '333', tx: Buffer.from([1]).toString('base64') });
    // Skip's NOT_FOUND (code 5) for an unknown chain, as the single-chain API answered.
    expect(r.status).toBe(404);
    expect(JSON.stringify(r.body)).toMatch(/chain ID not supported/i);
  });
});
