/** The key table's part for `app.toml` (Cosmos EVM's file, and Chainlet's own sections), one list per section; keys.ts joins them. */
import { configKey as k, type ConfigKey } from './key-def.js';

/** The JSON-RPC namespaces `[json-rpc] api` may name (Cosmos EVM's set; devnet control is `[evm] devnet`). */
export const JSON_RPC_NAMESPACES = ['eth', 'web3', 'net', 'txpool', 'debug', 'personal', 'admin', 'miner'] as const;
const address = { address: true } as const;

/** Top level: the stores. */
export const APP_KEYS: readonly ConfigKey[] = [
  k(
    'app',
    '',
    'pruning-keep-recent',
    ['pruningKeepRecent'],
    'int',
    'Versions of the provable (IAVL) stores kept for proofs and queries at past heights (0 = every version, as the SDK\'s pruning = "nothing")',
  ),
];

/** `[json-rpc]`: the Ethereum JSON-RPC server. */
export const JSON_RPC_KEYS: readonly ConfigKey[] = [
  k('app', 'json-rpc', 'enable', ['jsonRpc', 'enable'], 'bool', 'Enable the Ethereum JSON-RPC server'),
  k('app', 'json-rpc', 'address', ['jsonRpc', 'address'], 'string', 'HTTP address', address),
  k('app', 'json-rpc', 'ws-address', ['jsonRpc', 'wsAddress'], 'string', 'WebSocket address', address),
  k('app', 'json-rpc', 'api', ['jsonRpc', 'api'], 'list', 'Enabled namespaces: eth,web3,net,txpool,debug,personal,admin,miner', {
    choices: JSON_RPC_NAMESPACES,
  }),
  k(
    'app',
    'json-rpc',
    'gas-cap',
    ['jsonRpc', 'gasCap'],
    'bigint',
    "Gas cap for eth_call, eth_estimateGas and the routing API's ERC-20 reads (0 = no cap); alias rpc-gas-cap",
  ),
  k('app', 'json-rpc', 'evm-timeout', ['jsonRpc', 'evmTimeoutMs'], 'duration', "Timeout for eth_call, eth_estimateGas and the routing API's ERC-20 reads"),
  k('app', 'json-rpc', 'txfee-cap', ['jsonRpc', 'txFeeCap'], 'int', 'Fee cap (in whole tokens) for eth_sendTransaction'),
  k('app', 'json-rpc', 'filter-cap', ['jsonRpc', 'filterCap'], 'int', 'Maximum number of installed filters'),
  k('app', 'json-rpc', 'filter-timeout', ['jsonRpc', 'filterTimeoutMs'], 'duration', 'Idle filters expire after this'),
  k('app', 'json-rpc', 'feehistory-cap', ['jsonRpc', 'feeHistoryCap'], 'int', 'Maximum blocks in eth_feeHistory'),
  k('app', 'json-rpc', 'logs-cap', ['jsonRpc', 'logsCap'], 'int', 'Maximum results of eth_getLogs'),
  k('app', 'json-rpc', 'block-range-cap', ['jsonRpc', 'blockRangeCap'], 'int', 'Maximum block range of eth_getLogs'),
  k('app', 'json-rpc', 'http-timeout', ['jsonRpc', 'httpTimeoutMs'], 'duration', 'HTTP read/write timeout'),
  k('app', 'json-rpc', 'http-idle-timeout', ['jsonRpc', 'httpIdleTimeoutMs'], 'duration', 'HTTP idle timeout'),
  k('app', 'json-rpc', 'allow-unprotected-txs', ['jsonRpc', 'allowUnprotectedTxs'], 'bool', 'Accept non-EIP-155 txs over RPC'),
  k('app', 'json-rpc', 'allow-insecure-unlock', ['jsonRpc', 'allowInsecureUnlock'], 'bool', 'Allow personal_unlockAccount over HTTP and WebSocket'),
  k('app', 'json-rpc', 'max-open-connections', ['jsonRpc', 'maxOpenConnections'], 'int', 'Maximum simultaneous connections (0 = unlimited)'),
  k('app', 'json-rpc', 'batch-request-limit', ['jsonRpc', 'batchRequestLimit'], 'int', 'Maximum requests in a batch'),
  k('app', 'json-rpc', 'batch-response-max-size', ['jsonRpc', 'batchResponseMaxSize'], 'int', 'Maximum size of a batch response, in bytes'),
  k('app', 'json-rpc', 'enable-profiling', ['jsonRpc', 'enableProfiling'], 'bool', 'Enable the debug profiling methods'),
  k('app', 'json-rpc', 'ws-origins', ['jsonRpc', 'wsOrigins'], 'list', 'Allowed WebSocket origins'),
  k(
    'app',
    'json-rpc',
    'ws-write-buffer-bytes',
    ['jsonRpc', 'wsWriteBufferBytes'],
    'int',
    'Bytes queued for a WebSocket client before it is closed as slow (1008)',
  ),
  k(
    'app',
    'json-rpc',
    'http-corsdomain',
    ['jsonRpc', 'httpCorsDomain'],
    'list',
    'Origins allowed cross-origin HTTP requests ("*" = any; empty = none; devnet default "*", a home\'s none)',
  ),
  k(
    'app',
    'json-rpc',
    'client-version',
    ['jsonRpc', 'clientVersion'],
    'string',
    'web3_clientVersion answer; empty: "anvil-compatible Chainlet/…" when devnet control is on (so Hardhat and Foundry tools accept the devnet), else "Chainlet/…"',
  ),
  k('app', 'json-rpc', 'http-body-limit', ['jsonRpc', 'maxBodyBytes'], 'int', 'Maximum request body size, in bytes'),
  k(
    'app',
    'json-rpc',
    'max-header-bytes',
    ['jsonRpc', 'maxHeaderBytes'],
    'int',
    'Maximum size of request headers (HTTP and WebSocket upgrade), in bytes (larger: 431)',
  ),
  k('app', 'json-rpc', 'max-url-bytes', ['jsonRpc', 'maxUrlBytes'], 'int', 'Maximum size of a request target (path and query), in bytes (larger: 414)'),
  k('app', 'json-rpc', 'max-json-depth', ['jsonRpc', 'maxJsonDepth'], 'int', 'Deepest nesting of arrays/objects in a JSON-RPC request (0 = no limit)'),
];

/** `[routing]`: the routing API and the explorer. */
export const ROUTING_KEYS: readonly ConfigKey[] = [
  k('app', 'routing', 'enable', ['routing', 'enable'], 'bool', 'Enable the routing API'),
  k('app', 'routing', 'address', ['routing', 'address'], 'string', 'HTTP address of the routing API', address),
  k('app', 'routing', 'rate-limit-per-second', ['routing', 'rateLimitPerSecond'], 'int', 'Token refill rate for callers without an API key'),
  k('app', 'routing', 'rate-limit-burst', ['routing', 'rateLimitBurst'], 'int', 'Bucket size for callers without an API key'),
  k('app', 'routing', 'submitted-timeout', ['routing', 'submittedTimeoutMs'], 'duration', 'A tracked tx never seen on chain is abandoned after this'),
  k('app', 'routing', 'stalled-timeout', ['routing', 'stalledTimeoutMs'], 'duration', 'A pending tx that makes no progress is abandoned after this'),
  k('app', 'routing', 'prices', ['routing', 'prices'], 'map', 'USD price per display unit, by denom or contract address'),
  k('app', 'routing', 'public-url', ['routing', 'publicUrl'], 'string', 'Base URL used in explorer links (default: the listen address)'),
  k(
    'app',
    'routing',
    'cors-allowed-origins',
    ['routing', 'corsAllowedOrigins'],
    'list',
    'Origins allowed cross-origin requests ("*" = any; empty = none; devnet default "*", a home\'s none)',
  ),
  k('app', 'routing', 'erc20-tokens', ['routing', 'erc20Tokens'], 'list', 'ERC20 contracts /v2/fungible/assets lists (besides those seen moving on chain)', {
    hexAddresses: true,
  }),
  k(
    'app',
    'routing',
    'max-json-depth',
    ['routing', 'maxJsonDepth'],
    'int',
    'Deepest nesting of arrays/objects in a request body, explorer proxies included (0 = no limit)',
  ),
  k(
    'app',
    'routing',
    'max-header-bytes',
    ['routing', 'maxHeaderBytes'],
    'int',
    'Maximum size of request headers to the routing API and explorer, in bytes (larger: 431)',
  ),
  k(
    'app',
    'routing',
    'max-url-bytes',
    ['routing', 'maxUrlBytes'],
    'int',
    'Maximum size of a request target to the routing API and explorer, in bytes (larger: 414)',
  ),
];

/** `[evm]`: the EVM chain. */
export const EVM_KEYS: readonly ConfigKey[] = [
  k('app', 'evm', 'min-gas-price', ['evm', 'minGasPrice'], 'bigint', 'Minimum gas price (wei) accepted by the mempool'),
  k('app', 'evm', 'devnet', ['evm', 'devnet'], 'bool', 'Enable devnet control methods (evm_*, anvil_*, hardhat_*)'),
  k(
    'app',
    'evm',
    'max-mine-blocks',
    ['evm', 'maxMineBlocks'],
    'int',
    'Most blocks one anvil_mine / hardhat_mine / evm_mine call may mine (larger counts get -32602; 0 = no cap)',
  ),
  k(
    'app',
    'evm',
    'trie-cache-size',
    ['evm', 'trieCacheSize'],
    'int',
    'Most state-trie nodes kept in the read cache (older ones are read from the store again; 0 = no cache)',
  ),
];

/** `[svm]`: the SVM chain and its Solana RPC. */
export const SVM_KEYS: readonly ConfigKey[] = [
  k('app', 'svm', 'max-records', ['svm', 'maxRecords'], 'int', 'SVM chain: tx records kept for getTransaction, statuses and getSignaturesForAddress'),
  k('app', 'svm', 'max-blocks', ['svm', 'maxBlocks'], 'int', 'SVM chain: blocks (closed slots) kept for getBlock and getBlocks; older ones answer -32001'),
  k('app', 'svm', 'max-journal-bytes', ['svm', 'maxJournalBytes'], 'int', 'SVM chain on a home: journal size that folds it into a new snapshot'),
  k(
    'app',
    'svm',
    'cors-allowed-origins',
    ['svm', 'corsAllowedOrigins'],
    'list',
    'Origins allowed cross-origin requests to the Solana RPC ("*" = any; empty = none; devnet default "*", a home\'s none)',
  ),
  k('app', 'svm', 'max-body-bytes', ['svm', 'maxBodyBytes'], 'int', 'Maximum size of a Solana RPC request body or WebSocket message, in bytes (larger: 413)'),
  k('app', 'svm', 'max-header-bytes', ['svm', 'maxHeaderBytes'], 'int', 'Maximum size of Solana RPC request headers, in bytes (larger: 431)'),
  k('app', 'svm', 'max-url-bytes', ['svm', 'maxUrlBytes'], 'int', 'Maximum size of a Solana RPC request target, in bytes (larger: 414)'),
  k(
    'app',
    'svm',
    'ws-write-buffer-bytes',
    ['svm', 'wsWriteBufferBytes'],
    'int',
    'Bytes queued for a Solana WebSocket client before it is closed as slow (1008)',
  ),
];
