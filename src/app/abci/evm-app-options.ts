/** What the EVM app is built with (createEvmApp). */
import type { Logger } from 'pino';
import type { AppLevel } from '../stores/app-store.js';
import type { LazyQueryRoutes, QueryRoute } from '../../sdk/query-router.js';
import type { SegmentReader } from '../../store/segments/empty-segment.js';

export interface EvmAppOptions {
  /** The app's own (sub)level; memory-level in tests. The app does not close it. */
  db: AppLevel;
  logger?: Logger;
  /** Overrides the genesis `min_gas_price`. */
  minGasPrice?: bigint;
  /** Accept legacy txs without EIP-155 replay protection in CheckTx (default false). */
  allowUnprotectedTxs?: boolean;
  /** Decoded-tx cache entries (default 10 000). */
  txCacheSize?: number;
  /** Most trie nodes in the read cache (default DEFAULT_TRIE_CACHE_NODES; `[evm] trie-cache-size`). */
  trieCacheSize?: number;
  /** IBC tree versions kept for proofs and past-height queries (0 or unset = all; app.toml `pruning-keep-recent`). */
  pruningKeepRecent?: number;
  /** Committed-state accounts kept in memory for CheckTx (default 100 000). */
  committedAccountsCacheSize?: number;
  /** Extra query routes (e.g. Cosmos SDK gRPC paths), checked with the built-in ones. */
  queryRoutes?: readonly QueryRoute[];
  /** More query routes, loaded at the first query of one of their services. */
  lazyQueryRoutes?: readonly LazyQueryRoutes[];
  /**
   * Execute every tx exactly as ethereumjs does: plain ETH transfers through `runTx` too (see
   * plain-transfer.ts), contract code in ethereumjs's own interpreter loop (interpreter/) and
   * storage written one slot at a time (live-state.ts). Off by default; the tests compare both ways.
   */
  referenceExecution?: boolean;
  /** The chain's empty segments (the block store's records): the app answers for their heights. */
  segments?: SegmentReader;
}

/** The txs of a committed block (CometBFT's order) and its time in ns since the epoch; undefined: unknown height. */
export type BlockSource = (height: number) => Promise<{ txs: readonly Uint8Array[]; timeNs: bigint } | undefined>;
