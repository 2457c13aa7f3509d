/**
 * Prometheus metrics of the chains of a process, in one registry: CometBFT's own names for each
 * CometBFT-style chain (`cometbft_consensus_height`, `cometbft_mempool_size`, …, with its `chain_id`
 * label and the `[instrumentation] namespace` prefix), the Ethereum JSON-RPC's requests and
 * latencies by method, the routing API's by route and status, and the SVM chain's slot, txs and
 * fees. A registry belongs to a standalone chain or to a network (one `/metrics` for all its chains);
 * several registries live side by side in one process. Values come from the event bus (NewBlock,
 * NewRound), the mempool's CheckTx outcomes and, at scrape time, the mempool's size and the slot.
 * This module (and prom-client) is loaded only with Prometheus on.
 */
import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { BlockExecutor } from '../consensus/block-executor.js';
import type { EventBus } from '../events/bus.js';
import type { Mempool } from '../mempool/mempool.js';
import { BlockIDFlag, CheckTxType, CodeTypeOK } from '../abci/types.js';
import { timestampToMs } from '../types/time.js';
import type { ValidatorSet } from '../types/validator-set.js';

export interface ChainMetricsSource {
  chainId: string;
  eventBus: EventBus;
  mempool: Mempool;
  /** Its FinalizeBlock timing hook. */
  executor: Pick<BlockExecutor, 'onFinalizeTime'>;
  /** The current validator set (validators, power). */
  validators(): ValidatorSet;
  /** The last committed height when the metrics start (blocks made before are not replayed), and its time. */
  height: number;
  lastBlockTimeMs?: number;
}

/** What the SVM chain's metrics read: the slot at scrape time, and every tx it records. */
export interface SvmMetricsSource {
  chainId: string;
  slot(): bigint;
  /** Every recorded tx (airdrops are recorded without wire bytes: they are not txs here); returns the unsubscribe. */
  onTransaction(listener: (tx: { wire: Uint8Array; fee: bigint; err: unknown }) => void): () => void;
}

export interface ChainMetrics {
  readonly registry: Registry;
  /** True when the registry is this chain's own (it serves it); false in a network's registry. */
  readonly ownRegistry: boolean;
  readonly observeEth: (method: string, seconds: number, ok: boolean) => void;
  readonly observeRouting: (route: string, status: number, seconds: number) => void;
  /** Stops counting and drops the chain's series from the registry. */
  stop(): void;
}

/** One registry and its metric families, each labelled by `chain_id`. */
export interface MetricsRegistry {
  readonly registry: Registry;
  /** A CometBFT-style chain reports here from now on. */
  cometChain(src: ChainMetricsSource, opts?: { ownRegistry?: boolean }): ChainMetrics;
  /** The SVM chain reports here from now on; returns its stop. */
  svmChain(src: SvmMetricsSource): () => void;
}

let subscribers = 0;

export function createMetricsRegistry(namespace = 'cometbft'): MetricsRegistry {
  const registry = new Registry();
  const ns = namespace === '' ? '' : `${namespace}_`;
  const labelNames = ['chain_id'] as const;
  const gauge = (name: string, help: string) => new Gauge({ name: `${ns}${name}`, help, labelNames, registers: [registry] });
  const counter = (name: string, help: string) => new Counter({ name: `${ns}${name}`, help, labelNames, registers: [registry] });
  const histogram = (name: string, help: string, buckets: number[]) =>
    new Histogram({ name: `${ns}${name}`, help, labelNames, buckets, registers: [registry] });
  // Read at scrape time, from every chain reporting here.
  const mempools = new Map<string, Mempool>();
  const slots = new Map<string, () => bigint>();

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
  const interval = histogram('consensus_block_interval_seconds', 'Time between this and the last block.', [0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 2, 5, 10]);
  const mempoolGauge = (name: string, help: string, read: (m: Mempool) => number) =>
    new Gauge({
      name: `${ns}${name}`,
      help,
      labelNames,
      registers: [registry],
      collect() {
        for (const [chain_id, m] of mempools) this.set({ chain_id }, read(m));
      },
    });
  const mempoolSize = mempoolGauge('mempool_size', 'Number of uncommitted transactions in the mempool.', (m) => m.size());
  const mempoolBytes = mempoolGauge('mempool_size_bytes', 'Total size of the mempool in bytes.', (m) => m.sizeBytes());
  const txSize = histogram('mempool_tx_size_bytes', 'Transaction sizes in bytes.', [64, 128, 256, 512, 1024, 4096, 16384, 65536, 262144, 1048576]);
  const failedTxs = counter('mempool_failed_txs', 'Number of failed transactions.');
  const recheckTimes = counter('mempool_recheck_times', 'Number of times transactions are rechecked in the mempool.');
  const peers = gauge('p2p_peers', 'Number of peers (an in-process network has none).');
  // A server's requests (`chainlet_<name>_requests_total`, by `key` and `outcome`) and their latency
  // (`chainlet_<name>_duration_seconds`, by `key`); the returned function counts one request.
  const requestMetrics = (name: string, key: string, outcome: string, help: { requests: string; latency: string }, buckets: number[]) => {
    const requests = new Counter({
      name: `chainlet_${name}_requests_total`,
      help: help.requests,
      labelNames: ['chain_id', key, outcome],
      registers: [registry],
    });
    const latency = new Histogram({
      name: `chainlet_${name}_duration_seconds`,
      help: help.latency,
      labelNames: ['chain_id', key],
      buckets,
      registers: [registry],
    });
    return (chain_id: string, k: string, o: string, seconds: number) => {
      requests.inc({ chain_id, [key]: k, [outcome]: o });
      latency.observe({ chain_id, [key]: k }, seconds);
    };
  };
  const ethRequest = requestMetrics(
    'json_rpc',
    'method',
    'outcome',
    { requests: 'Ethereum JSON-RPC calls by method and outcome.', latency: 'Ethereum JSON-RPC call latency by method.' },
    [0.0001, 0.0005, 0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 5],
  );
  const routingRequest = requestMetrics(
    'routing',
    'route',
    'status',
    { requests: 'Routing API requests by route and HTTP status.', latency: 'Routing API request latency by route.' },
    [0.0005, 0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 5],
  );
  // CometBFT's buckets (1, 11, …, 91 ms).
  const processing = histogram(
    'state_block_processing_time',
    'Time spent processing FinalizeBlock (ms).',
    Array.from({ length: 10 }, (_, i) => 1 + 10 * i),
  );
  const cometFamilies = [
    height,
    latestHeight,
    rounds,
    validators,
    validatorsPower,
    missing,
    missingPower,
    byzantine,
    numTxs,
    totalTxs,
    blockSize,
    interval,
    mempoolSize,
    mempoolBytes,
    txSize,
    failedTxs,
    recheckTimes,
    peers,
    processing,
  ];

  const svmSlot = new Gauge({
    name: 'chainlet_svm_slot',
    help: 'Current slot of the SVM chain.',
    labelNames,
    registers: [registry],
    collect() {
      for (const [chain_id, slot] of slots) this.set({ chain_id }, Number(slot()));
    },
  });
  const svmTxs = new Counter({
    name: 'chainlet_svm_transactions_total',
    help: 'Transactions executed on the SVM chain, by status (success or failed).',
    labelNames: ['chain_id', 'status'],
    registers: [registry],
  });
  const svmFees = new Counter({
    name: 'chainlet_svm_fees_lamports_total',
    help: 'Fees paid on the SVM chain, in lamports.',
    labelNames,
    registers: [registry],
  });

  return {
    registry,
    cometChain(src, opts = {}) {
      const chain_id = src.chainId;
      const l = { chain_id };
      mempools.set(chain_id, src.mempool);
      peers.set(l, 0);
      height.set(l, src.height + 1);
      latestHeight.set(l, src.height);
      // Every series from the chain's start (a labelled series shows only once touched).
      for (const g of [rounds, missing, missingPower, byzantine, numTxs, blockSize]) g.set(l, 0);
      for (const c of [totalTxs, failedTxs, recheckTimes]) c.inc(l, 0);
      for (const h of [interval, txSize, processing]) h.zero(l);
      src.executor.onFinalizeTime = (ms) => processing.observe(l, ms);
      const setValidators = () => {
        const set = src.validators();
        validators.set(l, set.validators.length);
        validatorsPower.set(l, Number(set.totalVotingPower()));
      };
      setValidators();

      let lastBlockMs: number | undefined = src.lastBlockTimeMs;
      const id = `metrics-${++subscribers}`;
      const blocks = src.eventBus.subscribe(id, "tm.event = 'NewBlock'");
      blocks.setListener((m) => {
        if (m.data.type !== 'NewBlock') return;
        const { block } = m.data.value;
        const h = block.header.height;
        height.set(l, h + 1);
        latestHeight.set(l, h);
        numTxs.set(l, block.data.txs.length);
        totalTxs.inc(l, block.data.txs.length);
        blockSize.set(
          l,
          block.data.txs.reduce((a, t) => a + t.length, 0),
        );
        const ms = timestampToMs(block.header.time);
        if (lastBlockMs !== undefined) interval.observe(l, Math.max(0, ms - lastBlockMs) / 1000);
        lastBlockMs = ms;
        const set = src.validators();
        let absent = 0;
        let absentPower = 0;
        for (const sig of block.lastCommit.signatures) {
          if (sig.blockIdFlag === BlockIDFlag.Commit) continue;
          absent++;
          absentPower += Number(set.getByAddress(sig.validatorAddress)?.validator.votingPower ?? 0);
        }
        missing.set(l, absent);
        missingPower.set(l, absentPower);
        byzantine.set(l, 0);
        setValidators();
      });
      const roundsSub = src.eventBus.subscribe(id, "tm.event = 'NewRound'");
      roundsSub.setListener((m) => {
        if (m.data.type === 'NewRound') rounds.set(l, m.data.value.round);
      });
      const offChecked = src.mempool.onChecked((res, size, type) => {
        if (type === CheckTxType.Recheck) recheckTimes.inc(l);
        else if (res.code === CodeTypeOK) txSize.observe(l, size);
        if (res.code !== CodeTypeOK) failedTxs.inc(l);
      });

      return {
        registry,
        ownRegistry: opts.ownRegistry ?? false,
        observeEth: (method, seconds, ok) => ethRequest(chain_id, method, ok ? 'ok' : 'error', seconds),
        observeRouting: (route, status, seconds) => routingRequest(chain_id, route, String(status), seconds),
        stop() {
          blocks.cancel();
          roundsSub.cancel();
          offChecked();
          src.executor.onFinalizeTime = undefined;
          mempools.delete(chain_id);
          for (const f of cometFamilies) f.remove(l);
        },
      };
    },
    svmChain(src) {
      const chain_id = src.chainId;
      slots.set(chain_id, src.slot);
      svmTxs.inc({ chain_id, status: 'success' }, 0);
      svmTxs.inc({ chain_id, status: 'failed' }, 0);
      svmFees.inc({ chain_id }, 0);
      const off = src.onTransaction((tx) => {
        if (tx.wire.length === 0) return;
        svmTxs.inc({ chain_id, status: tx.err === null ? 'success' : 'failed' });
        svmFees.inc({ chain_id }, Number(tx.fee));
      });
      return () => {
        off();
        slots.delete(chain_id);
        svmSlot.remove({ chain_id });
        svmTxs.remove({ chain_id, status: 'success' });
        svmTxs.remove({ chain_id, status: 'failed' });
        svmFees.remove({ chain_id });
      };
    },
  };
}

/** A standalone chain's metrics, in a registry of its own. */
export function createChainMetrics(src: ChainMetricsSource, namespace = 'cometbft'): ChainMetrics {
  return createMetricsRegistry(namespace).cometChain(src, { ownRegistry: true });
}
