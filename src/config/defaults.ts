/** Every default in one place: CometBFT v0.38's config.go and Cosmos EVM's app.toml, with devnet choices noted. */
import type { DeepPartial, NodeConfig } from './types.js';

export function defaultConfig(): NodeConfig {
  return {
    home: undefined,
    moniker: 'chainlet',
    dbBackend: 'memory',
    pruningKeepRecent: 0,
    logLevel: 'info',
    rpc: {
      laddr: 'tcp://127.0.0.1:26657',
      corsAllowedOrigins: [],
      corsAllowedMethods: ['HEAD', 'GET', 'POST'],
      corsAllowedHeaders: ['Origin', 'Accept', 'Content-Type', 'X-Requested-With', 'X-Server-Time'],
      unsafe: false,
      maxOpenConnections: 900,
      maxSubscriptionClients: 100,
      maxSubscriptionsPerClient: 5,
      experimentalSubscriptionBufferSize: 200,
      experimentalWebsocketWriteBufferSize: 200,
      // Chainlet's byte bound on a connection's queue (uWS backpressure): past it the client is closed.
      experimentalWebsocketWriteBufferBytes: 4_194_304,
      experimentalCloseOnSlowClient: false,
      timeoutBroadcastTxCommitMs: 10_000,
      maxRequestBatchSize: 10,
      maxBodyBytes: 1_000_000,
      maxHeaderBytes: 1_048_576,
      // Every server's request-target limit (414): below the ~128 KiB head uWebSockets.js resets unanswered.
      maxUrlBytes: 65_536,
      // serde_json's recursion limit (solana-test-validator); the JSON-RPC core's default too.
      maxJsonDepth: 128,
    },
    consensus: {
      timeoutProposeMs: 3000,
      timeoutProposeDeltaMs: 500,
      timeoutPrevoteMs: 1000,
      timeoutPrevoteDeltaMs: 500,
      timeoutPrecommitMs: 1000,
      timeoutPrecommitDeltaMs: 500,
      timeoutCommitMs: 1000,
      skipTimeoutCommit: false,
      createEmptyBlocks: true,
      createEmptyBlocksIntervalMs: 0,
      // Devnet default: a block as soon as txs arrive (as Anvil and Hardhat).
      mode: 'automine',
    },
    mempool: {
      recheck: true,
      size: 5000,
      maxTxsBytes: 1_073_741_824,
      cacheSize: 10_000,
      maxTxBytes: 1_048_576,
      keepInvalidTxsInCache: false,
      // geth's txpool.accountqueue / txpool.globalqueue defaults.
      accountQueue: 64,
      globalQueue: 1024,
    },
    txIndex: { indexer: 'kv' },
    // A scrape is a GET without a body: 1 KiB of body and 64 KiB of head are plenty.
    instrumentation: {
      prometheus: false,
      prometheusListenAddr: ':26660',
      maxOpenConnections: 3,
      namespace: 'cometbft',
      maxBodyBytes: 1024,
      maxHeaderBytes: 65_536,
      maxUrlBytes: 65_536,
    },
    jsonRpc: {
      enable: true,
      address: '127.0.0.1:8545',
      wsAddress: '127.0.0.1:8546',
      api: ['eth', 'web3', 'net', 'txpool'],
      gasCap: 0n,
      evmTimeoutMs: 10_000,
      txFeeCap: 1,
      filterCap: 200,
      filterTimeoutMs: 5 * 60_000,
      feeHistoryCap: 100,
      logsCap: 10_000,
      blockRangeCap: 10_000,
      httpTimeoutMs: 30_000,
      httpIdleTimeoutMs: 120_000,
      allowUnprotectedTxs: false,
      allowInsecureUnlock: true,
      maxOpenConnections: 0,
      batchRequestLimit: 1000,
      batchResponseMaxSize: 25_000_000,
      enableProfiling: false,
      wsOrigins: ['127.0.0.1', 'localhost'],
      wsWriteBufferBytes: 4_194_304,
      // Devnet: any origin, so browser dapps reach it (Cosmos EVM's default); a home allows none (homeProfile).
      httpCorsDomain: ['*'],
      maxBodyBytes: 5_242_880,
      // geth's maxHeaderBytes (node/rpcstack.go).
      maxHeaderBytes: 1_048_576,
      maxUrlBytes: 65_536,
      maxJsonDepth: 128,
      clientVersion: '',
    },
    routing: {
      enable: true,
      address: '127.0.0.1:8080',
      // A local test suite must not meet the shared bucket; `--routing.rate-limit-burst 5` makes it strict.
      rateLimitPerSecond: 100,
      rateLimitBurst: 1000,
      submittedTimeoutMs: 5 * 60_000,
      stalledTimeoutMs: 10 * 60_000,
      prices: {},
      publicUrl: '',
      erc20Tokens: [],
      // Devnet: any origin (Skip Go widgets call it from browsers); a home allows none (homeProfile).
      corsAllowedOrigins: ['*'],
      maxJsonDepth: 128,
      maxHeaderBytes: 16 * 1024,
      maxUrlBytes: 65_536,
    },
    // devnet: on for the in-memory devnet profile; startNode({ home }) and `chainlet init` turn it off.
    evm: { minGasPrice: 0n, devnet: true, maxMineBlocks: 100_000, trieCacheSize: 16_384 },
    svm: {
      maxRecords: 100_000,
      maxBlocks: 100_000,
      maxJournalBytes: 64 * 1024 * 1024,
      // Devnet: any origin (browser wallets and dapps); a home allows none (homeProfile).
      corsAllowedOrigins: ['*'],
      // Room for any batch of 1232-byte txs a client sends; 1 MiB of head as the other JSON-RPCs.
      maxBodyBytes: 50 * 1024 * 1024,
      maxHeaderBytes: 1_048_576,
      maxUrlBytes: 65_536,
      wsWriteBufferBytes: 4_194_304,
    },
  };
}

/**
 * The defaults of a node with a home (not the throwaway devnet): devnet control off and no
 * cross-origin access, as CometBFT's empty `cors_allowed_origins`; the home's files may turn them on.
 */
export function homeProfile(cfg: NodeConfig): NodeConfig {
  return {
    ...cfg,
    evm: { ...cfg.evm, devnet: false },
    jsonRpc: { ...cfg.jsonRpc, httpCorsDomain: [] },
    routing: { ...cfg.routing, corsAllowedOrigins: [] },
    svm: { ...cfg.svm, corsAllowedOrigins: [] },
  };
}

/** Merges `over` into `base` (objects deeply; arrays, bigints and scalars replaced). Returns a new object. */
export function mergeConfig<T>(base: T, over: DeepPartial<T> | undefined): T {
  if (over === undefined) return base;
  const out: Record<string, unknown> = { ...(base as Record<string, unknown>) };
  for (const [k, v] of Object.entries(over as Record<string, unknown>)) {
    if (v === undefined) continue;
    const cur = out[k];
    if (v !== null && typeof v === 'object' && !Array.isArray(v) && cur !== null && typeof cur === 'object' && !Array.isArray(cur)) {
      out[k] = mergeConfig(cur, v as DeepPartial<typeof cur>);
    } else {
      out[k] = v;
    }
  }
  return out as T;
}
