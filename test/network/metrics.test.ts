/**
 * Prometheus for a whole network: `[instrumentation] prometheus` on the EVM chain opens one
 * `/metrics` (at its `prometheus_listen_addr`) for every chain: CometBFT's metric names for the EVM
 * chain and the hub, each under its `chain_id`, and the SVM chain's slot, txs and fees. Scraped
 * over HTTP after a tx on each chain (viem-signed EVM transfer, cosmjs bank send, @solana/kit SOL
 * transfer) and parsed with a Prometheus text-format parser.
 */
import { DirectSecp256k1HdWallet } from '@cosmjs/proto-signing';
import { GasPrice, SigningStargateClient } from '@cosmjs/stargate';
import { createKeyPairSignerFromBytes, type KeyPairSigner } from '@solana/kit';
import { getTransferSolInstruction } from '@solana-program/system';
import parsePrometheusTextFormat from 'parse-prometheus-text-format';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEV_ADDRESS_1, DEV_KEY_0, signEthTransfer } from '../../src/app/fixtures/signed-txs.js';
import { mergeConfig } from '../../src/config/defaults.js';
import { DEV_MNEMONIC } from '../../src/genesis/dev-accounts.js';
import type { HubChain } from '../../src/chains/hub/start.js';
import { startNetwork, type Network } from '../../src/network/network.js';
import type { SvmChain } from '../../src/chains/svm/start.js';
import type { ChainletNode } from '../../src/node/node.js';
import { FAST_CONSENSUS, TEST_PORTS } from '../helpers/node.js';
import { signedWire } from '../svm/helpers.js';

interface Family {
  name: string;
  type: string;
  metrics: { value?: string; labels?: Record<string, string>; buckets?: Record<string, string> }[];
}

const PROMETHEUS = { instrumentation: { prometheus: true, prometheusListenAddr: '127.0.0.1:0' } };

let network: Network;
let evm: ChainletNode;
let hub: HubChain;
let svm: SvmChain;

beforeAll(async () => {
  network = await startNetwork({
    ibc: false,
    chains: [
      { kind: 'evm', config: mergeConfig(mergeConfig(TEST_PORTS as never, FAST_CONSENSUS as never), PROMETHEUS as never) as never },
      { kind: 'hub', config: { rpc: { laddr: 'tcp://127.0.0.1:0' } } },
      { kind: 'svm', rpc: '127.0.0.1:0', ws: '127.0.0.1:0', slotMs: 0 },
    ],
  });
  evm = network.evm!;
  hub = network.chains.find((c): c is HubChain => c.kind === 'hub')!;
  svm = network.chains.find((c): c is SvmChain => c.kind === 'svm')!;
}, 60_000);

afterAll(async () => {
  await network?.stop();
});

/** The families by name, and the raw text (this parser merges a histogram's labelled series into one). */
async function scrape(): Promise<Map<string, Family> & { text: string }> {
  const r = await fetch(network.urls.metrics!);
  expect(r.status).toBe(200);
  const text = await r.text();
  // One HELP and TYPE per family, whatever the number of chains (Prometheus refuses a second).
  const types = text.split('\n').filter((l) => l.startsWith('# TYPE '));
  expect(new Set(types).size).toBe(types.length);
  const families = parsePrometheusTextFormat(text) as Family[];
  return Object.assign(new Map(families.map((f) => [f.name, f])), { text });
}

/** A histogram's `_count` for one chain, read from the text. */
function histogramCount(text: string, name: string, chainId: string): number {
  const line = text.split('\n').find((l) => l.startsWith(`${name}_count{`) && l.includes(`chain_id="${chainId}"`));
  expect(line, `${name}_count of ${chainId}`).toBeDefined();
  return Number(line!.split(' ').pop());
}

/** The one series of `name` whose labels include these. */
function series(m: Map<string, Family>, name: string, labels: Record<string, string>): Family['metrics'][number] {
  const found = (m.get(name)?.metrics ?? []).filter((s) => Object.entries(labels).every(([k, v]) => s.labels?.[k] === v));
  expect(found, `${name} ${JSON.stringify(labels)}`).toHaveLength(1);
  return found[0]!;
}

const value = (m: Map<string, Family>, name: string, labels: Record<string, string>) => Number(series(m, name, labels).value);

async function ethRpc(method: string, params: unknown[]): Promise<unknown> {
  const r = await fetch(evm.urls.jsonRpc!, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  return ((await r.json()) as { result?: unknown }).result;
}

async function solRpc(method: string, params: unknown[]): Promise<{ result?: unknown; error?: { message: string } }> {
  const r = await fetch(svm.urls.rpc!, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  return (await r.json()) as { result?: unknown; error?: { message: string } };
}

describe('one /metrics for every chain of a network', () => {
  it('is the network’s endpoint; the chains open none of their own', () => {
    expect(network.urls.metrics).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/metrics$/);
    expect(evm.urls.metrics).toBeUndefined();
    expect((hub.urls as { metrics?: string }).metrics).toBeUndefined();
  });

  it('counts the height and txs of the EVM chain and the hub, each under its chain_id', async () => {
    const hash = (await ethRpc('eth_sendRawTransaction', [
      `0x${Buffer.from(signEthTransfer(DEV_KEY_0, DEV_ADDRESS_1, 1n, { nonce: 0n })).toString('hex')}`,
    ])) as string;
    for (let j = 0; j < 500 && (await ethRpc('eth_getTransactionReceipt', [hash])) === null; j++) await new Promise((r) => setTimeout(r, 10));
    const wallet = await DirectSecp256k1HdWallet.fromMnemonic(DEV_MNEMONIC, { prefix: 'hub' });
    const [from] = await wallet.getAccounts();
    const client = await SigningStargateClient.connectWithSigner(hub.urls.rpc!, wallet, {
      gasPrice: GasPrice.fromString('0.025uhub'),
      broadcastPollIntervalMs: 50,
    });
    try {
      const sent = await client.sendTokens(from!.address, hub.devAddresses[1]!, [{ denom: 'uhub', amount: '1000' }], {
        amount: [{ denom: 'uhub', amount: '5000' }],
        gas: '200000',
      });
      expect(sent.code).toBe(0);
    } finally {
      client.disconnect();
    }

    const m = await scrape();
    for (const chain of [evm, hub]) {
      const id = { chain_id: chain.chainId };
      expect(value(m, 'cometbft_consensus_latest_block_height', id)).toBe(chain.height);
      expect(value(m, 'cometbft_consensus_height', id)).toBe(chain.height + 1);
      expect(value(m, 'cometbft_consensus_total_txs', id)).toBe(1);
      expect(value(m, 'cometbft_consensus_validators', id)).toBe(1);
      expect(value(m, 'cometbft_mempool_size', id)).toBe(0);
      expect(value(m, 'cometbft_mempool_failed_txs', id)).toBe(0);
      expect(value(m, 'cometbft_p2p_peers', id)).toBe(0);
      expect(histogramCount(m.text, 'cometbft_mempool_tx_size_bytes', chain.chainId)).toBe(1);
      expect(histogramCount(m.text, 'cometbft_consensus_block_interval_seconds', chain.chainId)).toBeGreaterThanOrEqual(1);
      expect(histogramCount(m.text, 'cometbft_state_block_processing_time', chain.chainId)).toBeGreaterThanOrEqual(1);
    }
    // The EVM chain's JSON-RPC calls are counted under its chain_id.
    expect(value(m, 'chainlet_json_rpc_requests_total', { chain_id: evm.chainId, method: 'eth_sendRawTransaction', outcome: 'ok' })).toBe(1);
  });

  it('counts the SVM chain’s slot, txs by status and fees', async () => {
    const id = { chain_id: svm.chainId };
    let m = await scrape();
    expect(value(m, 'chainlet_svm_slot', id)).toBe(svm.height);
    expect(value(m, 'chainlet_svm_transactions_total', { ...id, status: 'success' })).toBe(0);
    expect(value(m, 'chainlet_svm_fees_lamports_total', id)).toBe(0);

    const signer: KeyPairSigner = await createKeyPairSignerFromBytes(svm.ledger.devAccounts[0]!.secretKey);
    const to = svm.ledger.devAccounts[1]!.address as never;
    const ok = await signedWire(signer, [getTransferSolInstruction({ source: signer, destination: to, amount: 1_000_000n })], svm.ledger.latestBlockhash());
    expect((await solRpc('sendTransaction', [ok, { encoding: 'base64' }])).error).toBeUndefined();
    // More lamports than the payer holds: executed, failed on chain, its fee paid.
    const tooMuch = await signedWire(signer, [getTransferSolInstruction({ source: signer, destination: to, amount: 2n ** 63n })], svm.ledger.latestBlockhash());
    expect((await solRpc('sendTransaction', [tooMuch, { encoding: 'base64', skipPreflight: true }])).error).toBeUndefined();
    await svm.mine(2);

    m = await scrape();
    expect(value(m, 'chainlet_svm_slot', id)).toBe(svm.height);
    expect(value(m, 'chainlet_svm_transactions_total', { ...id, status: 'success' })).toBe(1);
    expect(value(m, 'chainlet_svm_transactions_total', { ...id, status: 'failed' })).toBe(1);
    expect(value(m, 'chainlet_svm_fees_lamports_total', id)).toBe(10_000);
  });
});

describe('a network without Prometheus', () => {
  it('opens no /metrics and counts nothing', async () => {
    const plain = await startNetwork({
      ibc: false,
      chains: [
        { kind: 'evm', config: mergeConfig(TEST_PORTS as never, FAST_CONSENSUS as never) as never },
        { kind: 'hub', config: { rpc: { laddr: '' } } },
      ],
    });
    try {
      expect(plain.urls.metrics).toBeUndefined();
      expect(plain.evm!.internals.metrics).toBeUndefined();
    } finally {
      await plain.stop();
    }
  });
});
