/**
 * The node's configuration: `config.toml` (CometBFT sections) and `app.toml` (application sections),
 * built once with all defaults in `defaults.ts`; each module receives only its own section.
 */

export interface RpcConfig {
  laddr: string;
  corsAllowedOrigins: string[];
  corsAllowedMethods: string[];
  corsAllowedHeaders: string[];
  unsafe: boolean;
  maxOpenConnections: number;
  maxSubscriptionClients: number;
  maxSubscriptionsPerClient: number;
  experimentalSubscriptionBufferSize: number;
  experimentalWebsocketWriteBufferSize: number;
  /** Bytes waiting to be sent to a WebSocket client before it is closed (1008) as too slow. */
  experimentalWebsocketWriteBufferBytes: number;
  experimentalCloseOnSlowClient: boolean;
  timeoutBroadcastTxCommitMs: number;
  maxRequestBatchSize: number;
  maxBodyBytes: number;
  maxHeaderBytes: number;
  /** A longer request target (path and query) gets 414 (Chainlet's addition). */
  maxUrlBytes: number;
  /** Deepest nesting of arrays/objects in a JSON-RPC request (0 = no limit). */
  maxJsonDepth: number;
}

export type ProductionMode = 'automine' | 'interval' | 'manual';

export interface ConsensusConfig {
  timeoutProposeMs: number;
  timeoutProposeDeltaMs: number;
  timeoutPrevoteMs: number;
  timeoutPrevoteDeltaMs: number;
  timeoutPrecommitMs: number;
  timeoutPrecommitDeltaMs: number;
  timeoutCommitMs: number;
  skipTimeoutCommit: boolean;
  createEmptyBlocks: boolean;
  createEmptyBlocksIntervalMs: number;
  /** Chainlet: how blocks are produced. automine = a block as soon as txs are pending. */
  mode: ProductionMode;
}

export interface MempoolSection {
  recheck: boolean;
  size: number;
  maxTxsBytes: number;
  cacheSize: number;
  maxTxBytes: number;
  keepInvalidTxsInCache: boolean;
  /** Queued (nonce-gapped) txs per sender (geth's txpool.accountqueue). */
  accountQueue: number;
  /** Queued txs of all senders (geth's txpool.globalqueue). */
  globalQueue: number;
}

export interface TxIndexConfig {
  indexer: 'kv' | 'null';
}

/** `[instrumentation]` of config.toml, as CometBFT spells it. */
export interface InstrumentationConfig {
  /** Serve Prometheus metrics (default false). */
  prometheus: boolean;
  /** Where `/metrics` listens (CometBFT's default ":26660"; a bare ":port" binds 127.0.0.1 here). */
  prometheusListenAddr: string;
  /** 0 = unlimited. */
  maxOpenConnections: number;
  /** Metric name prefix (CometBFT's default "cometbft"). */
  namespace: string;
  /** Larger request bodies get 413 (a scrape sends none). */
  maxBodyBytes: number;
  /** Larger request heads get 431. */
  maxHeaderBytes: number;
  /** A longer request target gets 414. */
  maxUrlBytes: number;
}

export interface JsonRpcConfig {
  enable: boolean;
  address: string;
  wsAddress: string;
  api: string[];
  gasCap: bigint;
  evmTimeoutMs: number;
  txFeeCap: number;
  filterCap: number;
  filterTimeoutMs: number;
  feeHistoryCap: number;
  logsCap: number;
  blockRangeCap: number;
  httpTimeoutMs: number;
  httpIdleTimeoutMs: number;
  allowUnprotectedTxs: boolean;
  allowInsecureUnlock: boolean;
  maxOpenConnections: number;
  batchRequestLimit: number;
  batchResponseMaxSize: number;
  enableProfiling: boolean;
  wsOrigins: string[];
  /** Bytes waiting to be sent to a WebSocket client before it is closed (1008) as too slow. */
  wsWriteBufferBytes: number;
  /** Origins allowed cross-origin HTTP requests (geth's --http.corsdomain); empty = no CORS headers. */
  httpCorsDomain: string[];
  maxBodyBytes: number;
  /** Larger request heads get 431 (geth's 1 MiB). */
  maxHeaderBytes: number;
  /** A longer request target gets 414. */
  maxUrlBytes: number;
  /** Deepest nesting of arrays/objects in a JSON-RPC request (0 = no limit). */
  maxJsonDepth: number;
  /** web3_clientVersion; '' = chosen from the profile (see rpc/eth/env.ts clientVersion). */
  clientVersion: string;
}

export interface RoutingConfig {
  enable: boolean;
  address: string;
  rateLimitPerSecond: number;
  rateLimitBurst: number;
  submittedTimeoutMs: number;
  stalledTimeoutMs: number;
  prices: Record<string, string>;
  publicUrl: string;
  /** ERC20 contracts (0x addresses) /v2/fungible/assets lists besides those seen on chain. */
  erc20Tokens: string[];
  /** Origins allowed cross-origin requests (as `[rpc] cors_allowed_origins`); empty or absent = no CORS headers. */
  corsAllowedOrigins?: string[];
  /** Deepest nesting of arrays/objects in a request body (default 128; 0 = no limit). */
  maxJsonDepth?: number;
  /** Larger request heads get 431 (default 16 KiB). */
  maxHeaderBytes?: number;
  /** A longer request target gets 414 (default 65 536). */
  maxUrlBytes?: number;
}

export interface EvmConfig {
  minGasPrice: bigint;
  /** Devnet control methods (evm_*, anvil_*, hardhat_*). */
  devnet: boolean;
  /** Most blocks one mine call (anvil_mine, hardhat_mine, evm_mine) may mine; 0: no cap. */
  maxMineBlocks: number;
  /** Most state-trie nodes in the EVM app's read cache (src/app/stores/trie-db.ts); 0: none. */
  trieCacheSize: number;
}

export interface NodeConfig {
  home: string | undefined;
  moniker: string;
  dbBackend: 'memory' | 'classic';
  /** app.toml `pruning-keep-recent`: IAVL versions kept (0 = all). */
  pruningKeepRecent: number;
  logLevel: string;
  rpc: RpcConfig;
  consensus: ConsensusConfig;
  mempool: MempoolSection;
  txIndex: TxIndexConfig;
  instrumentation: InstrumentationConfig;
  jsonRpc: JsonRpcConfig;
  routing: RoutingConfig;
  evm: EvmConfig;
  svm: SvmConfig;
}

/** The SVM chain's history and journal sizes (docs/rpc-solana.md). */
export interface SvmConfig {
  /** Tx records kept for getTransaction, statuses and getSignaturesForAddress. */
  maxRecords: number;
  /** Blocks (closed slots) kept for getBlock and getBlocks. */
  maxBlocks: number;
  /** Journal size on a home that folds it into a new snapshot, in bytes. */
  maxJournalBytes: number;
  /** Origins allowed cross-origin requests to the Solana RPC ("*" = any; empty = no CORS headers). */
  corsAllowedOrigins: string[];
  /** Larger request bodies (and WebSocket messages) get 413 / a close. */
  maxBodyBytes: number;
  /** Larger request heads get 431. */
  maxHeaderBytes: number;
  /** A longer request target gets 414. */
  maxUrlBytes: number;
  /** Bytes waiting to be sent to a WebSocket client before it is closed (1008) as too slow. */
  wsWriteBufferBytes: number;
}

/** A deep-partial view used for overrides from files, flags and `startNode` options. */
export type DeepPartial<T> = {
  [K in keyof T]?: T[K] extends (infer U)[] ? U[] : T[K] extends bigint ? T[K] : T[K] extends object ? DeepPartial<T[K]> : T[K];
};
