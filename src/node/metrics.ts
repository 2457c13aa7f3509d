/**
 * Prometheus metrics of a chain, under CometBFT's own names (`cometbft_consensus_height`,
 * `cometbft_mempool_size`, …, with its `chain_id` label and `[instrumentation] namespace` prefix),
 * plus the Ethereum JSON-RPC's requests and latencies by method and the routing API's by route and
 * status. Each node has its own registry (several nodes live in one process). Values come from the
 * event bus (NewBlock, NewRound), the mempool's CheckTx outcomes and, at scrape time, its size.
 */
import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { EventBus } from '../events/bus.js';
import type { Mempool } from '../mempool/mempool.js';
import { BlockIDFlag, CheckTxType, CodeTypeOK } from '../abci/types.js';
import { timestampToMs } from '../types/time.js';
import type { ValidatorSet } from '../types/validator-set.js';

export interface ChainMetricsSource {
  chainId: string;
  eventBus: EventBus;
  mempool: Mempool;
  /** The current validator set (validators, power). */
  validators(): ValidatorSet;
  /** The last committed height when the metrics start (blocks made before are not replayed), and its time. */
  height: number;
  lastBlockTimeMs?: number;
}

export interface ChainMetrics {
  readonly registry: Registry;
  readonly observeEth: (method: string, seconds: number, ok: boolean) => void;
  readonly observeRouting: (route: string, status: number, seconds: number) => void;
  stop(): void;
}

let subscribers = 0;

export function createChainMetrics(src: ChainMetricsSource, namespace = 'cometbft'): ChainMetrics {
  const registry = new Registry();
  registry.setDefaultLabels({ chain_id: src.chainId });
  const ns = namespace === '' ? '' : `${namespace}_`;
  const gauge = (name: string, help: string) => new Gauge({ name: `${ns}${name}`, help, registers: [registry] });
  const counter = (name: string, help: string) => new Counter({ name: `${ns}${name}`, help, registers: [registry] });

  const height = gauge('consensus_height', 'Height of the chain.');
  const latestHeight = gauge('consensus_latest_block_height', 'The latest block height.');
  const rounds = gauge('consensus_rounds', 'Number of rounds.');
  const validators = gauge('consensus_validators', 'Number of validators.');
  const validatorsPower = gauge('consensus_validators_power', 'Total power of all validators.');
  const missing = gauge('consensus_missing_validators', 'Number of validators who did not sign.');
  const missingPower = gauge('consensus_missing_validators_power', 'Total power of the missing validators.');
  const byzantine = gauge('consensus_byzantine_validators', 'Number of validators who tried to double sign.');
  const numTxs = gauge('consensus_num_txs', 'Number of transactions.');
  const totalTxs = counter('consensus_total_txs', 'Total number of transactions.');
  const blockSize = gauge('consensus_block_size_bytes', 'Size of the block.');
  const interval = new Histogram({ name: `${ns}consensus_block_interval_seconds`, help: 'Time between this and the last block.', buckets: [0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 2, 5, 10], registers: [registry] });
  new Gauge({
    name: `${ns}mempool_size`,
    help: 'Number of uncommitted transactions in the mempool.',
    registers: [registry],
    collect() {
      this.set(src.mempool.size());
    },
  });
  new Gauge({
    name: `${ns}mempool_size_bytes`,
    help: 'Total size of the mempool in bytes.',
    registers: [registry],
    collect() {
      this.set(src.mempool.sizeBytes());
    },
  });
  const txSize = new Histogram({ name: `${ns}mempool_tx_size_bytes`, help: 'Transaction sizes in bytes.', buckets: [64, 128, 256, 512, 1024, 4096, 16384, 65536, 262144, 1048576], registers: [registry] });
  const failedTxs = counter('mempool_failed_txs', 'Number of failed transactions.');
  const recheckTimes = counter('mempool_recheck_times', 'Number of times transactions are rechecked in the mempool.');
  gauge('p2p_peers', 'Number of peers (an in-process network has none).').set(0);
  const ethRequests = new Counter({ name: 'chainlet_json_rpc_requests_total', help: 'Ethereum JSON-RPC calls by method and outcome.', labelNames: ['method', 'outcome'], registers: [registry] });
  const ethLatency = new Histogram({ name: 'chainlet_json_rpc_duration_seconds', help: 'Ethereum JSON-RPC call latency by method.', labelNames: ['method'], buckets: [0.0001, 0.0005, 0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 5], registers: [registry] });
  const routingRequests = new Counter({ name: 'chainlet_routing_requests_total', help: 'Routing API requests by route and HTTP status.', labelNames: ['route', 'status'], registers: [registry] });
  const routingLatency = new Histogram({ name: 'chainlet_routing_duration_seconds', help: 'Routing API request latency by route.', labelNames: ['route'], buckets: [0.0005, 0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 5], registers: [registry] });

  height.set(src.height + 1);
  latestHeight.set(src.height);
  const setValidators = () => {
    const set = src.validators();
    validators.set(set.validators.length);
    validatorsPower.set(Number(set.totalVotingPower()));
  };
  setValidators();

  let lastBlockMs: number | undefined = src.lastBlockTimeMs;
  const id = `metrics-${++subscribers}`;
  const blocks = src.eventBus.subscribe(id, "tm.event = 'NewBlock'");
  blocks.setListener((m) => {
    if (m.data.type !== 'NewBlock') return;
    const { block } = m.data.value;
    const h = block.header.height;
    height.set(h + 1);
    latestHeight.set(h);
    numTxs.set(block.data.txs.length);
    totalTxs.inc(block.data.txs.length);
    blockSize.set(block.data.txs.reduce((a, t) => a + t.length, 0));
    const ms = timestampToMs(block.header.time);
    if (lastBlockMs !== undefined) interval.observe(Math.max(0, ms - lastBlockMs) / 1000);
    lastBlockMs = ms;
    const set = src.validators();
    let absent = 0;
    let absentPower = 0;
    for (const sig of block.lastCommit.signatures) {
      if (sig.blockIdFlag === BlockIDFlag.Commit) continue;
      absent++;
      absentPower += Number(set.getByAddress(sig.validatorAddress)?.validator.votingPower ?? 0);
    }
    missing.set(absent);
    missingPower.set(absentPower);
    byzantine.set(0);
    setValidators();
  });
  const roundsSub = src.eventBus.subscribe(id, "tm.event = 'NewRound'");
  roundsSub.setListener((m) => {
    if (m.data.type === 'NewRound') rounds.set(m.data.value.round);
  });
  const offChecked = src.mempool.onChecked((res, size, type) => {
    if (type === CheckTxType.Recheck) recheckTimes.inc();
    else if (res.code === CodeTypeOK) txSize.observe(size);
    if (res.code !== CodeTypeOK) failedTxs.inc();
  });

  return {
    registry,
    observeEth(method, seconds, ok) {
      ethRequests.inc({ method, outcome: ok ? 'ok' : 'error' });
      ethLatency.observe({ method }, seconds);
    },
    observeRouting(route, status, seconds) {
      routingRequests.inc({ route, status: String(status) });
      routingLatency.observe({ route }, seconds);
    },
    stop() {
      blocks.cancel();
      roundsSub.cancel();
      offChecked();
    },
  };
}
