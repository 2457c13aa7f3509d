/**
 * `[instrumentation] prometheus = true`: /metrics on its own listener with CometBFT's metric names
 * (chain_id label), the Ethereum JSON-RPC's calls by method and the routing API's requests by route
 * and status; scraped over HTTP and parsed with a Prometheus text-format parser.
 */
import parsePrometheusTextFormat from 'parse-prometheus-text-format';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEV_ADDRESS_1, DEV_KEY_0, signEthTransfer } from '../../src/app/fixtures/signed-txs.js';
import type { ChainletNode } from '../../src/node/node.js';
import { startTestNode } from '../helpers/node.js';

interface Family {
  name: string;
  type: string;
  metrics: { value?: string; labels?: Record<string, string>; buckets?: Record<string, string>; count?: string }[];
}

let node: ChainletNode;

beforeAll(async () => {
  node = await startTestNode({ config: { instrumentation: { prometheus: true, prometheusListenAddr: '127.0.0.1:0' } } });
});
afterAll(async () => {
  await node?.stop();
});

const rpc = async (method: string, params: unknown[] = []) =>
  (await (
    await fetch(node.urls.jsonRpc!, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
    })
  ).json()) as { result?: unknown; error?: unknown };

async function scrape(): Promise<Map<string, Family>> {
  const r = await fetch(node.urls.metrics!);
  expect(r.status).toBe(200);
  expect(r.headers.get('content-type')).toContain('text/plain');
  const families = parsePrometheusTextFormat(await r.text()) as Family[];
  return new Map(families.map((f) => [f.name, f]));
}

describe('Prometheus metrics', () => {
  it('exposes CometBFT’s consensus and mempool metrics, the JSON-RPC’s and the routing API’s', async () => {
    expect(node.urls.metrics).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/metrics$/);
    for (let i = 0; i < 3; i++) {
      const hash = (
        await rpc('eth_sendRawTransaction', [`0x${Buffer.from(signEthTransfer(DEV_KEY_0, DEV_ADDRESS_1, 1n, { nonce: BigInt(i) })).toString('hex')}`])
      ).result as string;
      for (let j = 0; j < 200 && (await rpc('eth_getTransactionReceipt', [hash])).result === null; j++) await new Promise((r) => setTimeout(r, 10));
    }
    expect((await rpc('eth_sendRawTransaction', ['0x1234'])).error).toBeDefined(); // a tx that fails CheckTx
    await rpc('eth_chainId');
    await fetch(`${node.urls.routing}/v2/info/chains`);
    await fetch(`${node.urls.routing}/v2/nothing`);

    const m = await scrape();
    const value = (name: string) => Number(m.get(name)!.metrics[0]!.value);
    expect(m.get('cometbft_consensus_height')!.metrics[0]!.labels).toMatchObject({ chain_id: node.chainId });
    expect(value('cometbft_consensus_height')).toBe(node.height + 1);
    expect(value('cometbft_consensus_latest_block_height')).toBe(node.height);
    expect(value('cometbft_consensus_total_txs')).toBe(3);
    expect(value('cometbft_consensus_validators')).toBe(1);
    expect(value('cometbft_consensus_missing_validators')).toBe(0);
    expect(value('cometbft_mempool_size')).toBe(0);
    expect(value('cometbft_mempool_failed_txs')).toBeGreaterThanOrEqual(0);
    // (This parser keeps a labelled histogram's buckets only: the +Inf bucket is its count.)
    expect(Number(m.get('cometbft_mempool_tx_size_bytes')!.metrics[0]!.buckets!['+Inf'])).toBe(3);
    expect(Number(m.get('cometbft_consensus_block_interval_seconds')!.metrics[0]!.buckets!['+Inf'])).toBeGreaterThanOrEqual(3);
    const calls = m.get('chainlet_json_rpc_requests_total')!.metrics;
    expect(calls.find((c) => c.labels?.method === 'eth_chainId' && c.labels?.outcome === 'ok')?.value).toBe('1');
    expect(Number(calls.find((c) => c.labels?.method === 'eth_sendRawTransaction' && c.labels?.outcome === 'ok')?.value)).toBe(3);
    expect(m.get('chainlet_json_rpc_duration_seconds')!.type).toBe('HISTOGRAM');
    const routes = m.get('chainlet_routing_requests_total')!.metrics;
    expect(routes.find((c) => c.labels?.route === '/v2/info/chains' && c.labels?.status === '200')?.value).toBe('1');
    expect(routes.find((c) => c.labels?.route === 'unmatched' && c.labels?.status === '404')?.value).toBe('1');
    const other = await fetch(node.urls.metrics!.replace('/metrics', '/other'));
    expect(other.status).toBe(404);
  });

  it('a kvstore chain of a network has its own endpoint with its chain_id', async () => {
    const { startKvStoreChain } = await import('../../src/chains/kvstore/start.js');
    const kv = await startKvStoreChain({
      kind: 'kvstore',
      config: { rpc: { laddr: '' }, consensus: { mode: 'manual' }, instrumentation: { prometheus: true, prometheusListenAddr: '127.0.0.1:0' } },
    });
    try {
      await kv.broadcastTx(new TextEncoder().encode('a=1'));
      await kv.mine(1);
      const families = parsePrometheusTextFormat(await (await fetch(kv.urls.metrics!)).text()) as Family[];
      const height = families.find((f) => f.name === 'cometbft_consensus_latest_block_height')!.metrics[0]!;
      expect(height.labels).toMatchObject({ chain_id: 'kvstore-1' });
      expect(Number(height.value)).toBe(kv.height);
      expect(families.find((f) => f.name === 'cometbft_consensus_total_txs')!.metrics[0]!.value).toBe('1');
    } finally {
      await kv.stop();
    }
  });

  it('is off by default', async () => {
    const plain = await startTestNode();
    try {
      expect(plain.urls.metrics).toBeUndefined();
      expect(plain.internals.metrics).toBeUndefined();
    } finally {
      await plain.stop();
    }
  });
});
