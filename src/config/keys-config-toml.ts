/** The key table's part for `config.toml` (CometBFT's file), one list per section; keys.ts joins them. */
import { configKey as k, type ConfigKey } from './key-def.js';

const address = { address: true } as const;

/** Top level: the node itself. */
export const NODE_KEYS: readonly ConfigKey[] = [
  k('config', '', 'moniker', ['moniker'], 'string', 'A custom human readable name for this node'),
  k('config', '', 'db_backend', ['dbBackend'], 'string', 'memory | classic (classic-level on disk under the home)', { choices: ['memory', 'classic'] }),
  k('config', '', 'log_level', ['logLevel'], 'string', 'trace | debug | info | warn | error | silent', {
    choices: ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'],
  }),
];

/** `[rpc]`: the CometBFT RPC server. */
export const RPC_KEYS: readonly ConfigKey[] = [
  k('config', 'rpc', 'laddr', ['rpc', 'laddr'], 'string', 'TCP address for the RPC server to listen on ("" turns it off)', { address: 'or-empty' }),
  k('config', 'rpc', 'cors_allowed_origins', ['rpc', 'corsAllowedOrigins'], 'list', 'Origins a cross-domain request can be executed from; empty disables CORS'),
  k('config', 'rpc', 'cors_allowed_methods', ['rpc', 'corsAllowedMethods'], 'list', 'Methods the client may use with cross-domain requests'),
  k('config', 'rpc', 'cors_allowed_headers', ['rpc', 'corsAllowedHeaders'], 'list', 'Non-simple headers the client may use'),
  k('config', 'rpc', 'unsafe', ['rpc', 'unsafe'], 'bool', 'Activate unsafe RPC commands (dial_seeds, dial_peers, unsafe_flush_mempool)'),
  k('config', 'rpc', 'max_open_connections', ['rpc', 'maxOpenConnections'], 'int', 'Maximum simultaneous connections (0 = unlimited)'),
  k('config', 'rpc', 'max_subscription_clients', ['rpc', 'maxSubscriptionClients'], 'int', 'Maximum number of unique clientIDs that can /subscribe'),
  k(
    'config',
    'rpc',
    'max_subscriptions_per_client',
    ['rpc', 'maxSubscriptionsPerClient'],
    'int',
    'Maximum number of unique queries a client can /subscribe to',
  ),
  k('config', 'rpc', 'experimental_subscription_buffer_size', ['rpc', 'experimentalSubscriptionBufferSize'], 'int', 'Events buffered per subscription'),
  k(
    'config',
    'rpc',
    'experimental_websocket_write_buffer_size',
    ['rpc', 'experimentalWebsocketWriteBufferSize'],
    'int',
    'Messages buffered per WebSocket connection',
  ),
  k(
    'config',
    'rpc',
    'experimental_websocket_write_buffer_bytes',
    ['rpc', 'experimentalWebsocketWriteBufferBytes'],
    'int',
    'Bytes queued for a WebSocket client before it is closed as slow (1008)',
  ),
  k('config', 'rpc', 'experimental_close_on_slow_client', ['rpc', 'experimentalCloseOnSlowClient'], 'bool', 'Close a WebSocket client that cannot keep up'),
  k(
    'config',
    'rpc',
    'timeout_broadcast_tx_commit',
    ['rpc', 'timeoutBroadcastTxCommitMs'],
    'duration',
    'How long broadcast_tx_commit waits for a tx to be committed',
  ),
  k('config', 'rpc', 'max_request_batch_size', ['rpc', 'maxRequestBatchSize'], 'int', 'Maximum number of requests in a batch'),
  k('config', 'rpc', 'max_body_bytes', ['rpc', 'maxBodyBytes'], 'int', 'Maximum size of a request body, in bytes'),
  k('config', 'rpc', 'max_header_bytes', ['rpc', 'maxHeaderBytes'], 'int', 'Maximum size of request headers, in bytes'),
  k(
    'config',
    'rpc',
    'max_url_bytes',
    ['rpc', 'maxUrlBytes'],
    'int',
    "Maximum size of a request target (path and query), in bytes (larger: 414; Chainlet's addition)",
  ),
  k('config', 'rpc', 'max_json_depth', ['rpc', 'maxJsonDepth'], 'int', 'Deepest nesting of arrays/objects in a JSON-RPC request (0 = no limit)'),
];

/** `[consensus]`: timeouts and block production. */
export const CONSENSUS_KEYS: readonly ConfigKey[] = [
  k('config', 'consensus', 'timeout_propose', ['consensus', 'timeoutProposeMs'], 'duration', 'How long to wait for a proposal block'),
  k('config', 'consensus', 'timeout_propose_delta', ['consensus', 'timeoutProposeDeltaMs'], 'duration', 'Increase of timeout_propose per round'),
  k('config', 'consensus', 'timeout_prevote', ['consensus', 'timeoutPrevoteMs'], 'duration', 'How long to wait after receiving +2/3 prevotes for anything'),
  k('config', 'consensus', 'timeout_prevote_delta', ['consensus', 'timeoutPrevoteDeltaMs'], 'duration', 'Increase of timeout_prevote per round'),
  k(
    'config',
    'consensus',
    'timeout_precommit',
    ['consensus', 'timeoutPrecommitMs'],
    'duration',
    'How long to wait after receiving +2/3 precommits for anything',
  ),
  k('config', 'consensus', 'timeout_precommit_delta', ['consensus', 'timeoutPrecommitDeltaMs'], 'duration', 'Increase of timeout_precommit per round'),
  k(
    'config',
    'consensus',
    'timeout_commit',
    ['consensus', 'timeoutCommitMs'],
    'duration',
    'Pause after a commit before the next height (interval mode: the block time)',
  ),
  k('config', 'consensus', 'skip_timeout_commit', ['consensus', 'skipTimeoutCommit'], 'bool', 'Make progress as soon as all precommits are in'),
  k('config', 'consensus', 'create_empty_blocks', ['consensus', 'createEmptyBlocks'], 'bool', 'Produce blocks when there are no txs'),
  k(
    'config',
    'consensus',
    'create_empty_blocks_interval',
    ['consensus', 'createEmptyBlocksIntervalMs'],
    'duration',
    'Interval between empty blocks when create_empty_blocks is true',
  ),
  k('config', 'consensus', 'mode', ['consensus', 'mode'], 'string', 'Chainlet block production: automine | interval | manual', {
    choices: ['automine', 'interval', 'manual'],
  }),
];

/** `[mempool]`. */
export const MEMPOOL_KEYS: readonly ConfigKey[] = [
  k('config', 'mempool', 'recheck', ['mempool', 'recheck'], 'bool', 'Recheck the remaining txs after every block'),
  k('config', 'mempool', 'size', ['mempool', 'size'], 'int', 'Maximum number of txs in the mempool'),
  k('config', 'mempool', 'max_txs_bytes', ['mempool', 'maxTxsBytes'], 'int', 'Maximum total size of all txs in the mempool'),
  k('config', 'mempool', 'cache_size', ['mempool', 'cacheSize'], 'int', 'Size of the seen-tx cache'),
  k('config', 'mempool', 'max_tx_bytes', ['mempool', 'maxTxBytes'], 'int', 'Maximum size of one tx'),
  k('config', 'mempool', 'keep-invalid-txs-in-cache', ['mempool', 'keepInvalidTxsInCache'], 'bool', 'Keep txs that failed CheckTx in the cache'),
  k('config', 'mempool', 'account_queue', ['mempool', 'accountQueue'], 'int', "Maximum queued (nonce-gapped) txs per sender (geth's txpool.accountqueue)"),
  k('config', 'mempool', 'global_queue', ['mempool', 'globalQueue'], 'int', "Maximum queued txs of all senders (geth's txpool.globalqueue)"),
];

/** `[tx_index]`. */
export const TX_INDEX_KEYS: readonly ConfigKey[] = [
  k('config', 'tx_index', 'indexer', ['txIndex', 'indexer'], 'string', 'kv | null', { choices: ['kv', 'null'] }),
];

/** `[instrumentation]`: the Prometheus endpoint. */
export const INSTRUMENTATION_KEYS: readonly ConfigKey[] = [
  k('config', 'instrumentation', 'prometheus', ['instrumentation', 'prometheus'], 'bool', 'Serve Prometheus metrics at prometheus_listen_addr/metrics'),
  k(
    'config',
    'instrumentation',
    'prometheus_listen_addr',
    ['instrumentation', 'prometheusListenAddr'],
    'string',
    'Address of the Prometheus metrics server (":26660" = 127.0.0.1:26660)',
    address,
  ),
  k(
    'config',
    'instrumentation',
    'max_open_connections',
    ['instrumentation', 'maxOpenConnections'],
    'int',
    'Maximum simultaneous connections to the metrics server (0 = unlimited)',
  ),
  k('config', 'instrumentation', 'namespace', ['instrumentation', 'namespace'], 'string', 'Prefix of every metric name'),
  k(
    'config',
    'instrumentation',
    'max_body_bytes',
    ['instrumentation', 'maxBodyBytes'],
    'int',
    'Maximum size of a request body to the metrics server, in bytes (larger: 413)',
  ),
  k(
    'config',
    'instrumentation',
    'max_header_bytes',
    ['instrumentation', 'maxHeaderBytes'],
    'int',
    'Maximum size of request headers to the metrics server, in bytes (larger: 431)',
  ),
  k(
    'config',
    'instrumentation',
    'max_url_bytes',
    ['instrumentation', 'maxUrlBytes'],
    'int',
    'Maximum size of a request target to the metrics server, in bytes (larger: 414)',
  ),
];
