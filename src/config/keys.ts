/**
 * One table of every config key: its TOML section and name (as CometBFT / Cosmos EVM spell them),
 * where it lands in `NodeConfig`, and how its value is parsed. The TOML loader, the TOML writer and
 * the `--section.key` CLI flags all read this table, so a key exists in one place only.
 */
import { parseListenAddress } from './listen-address.js';
import type { NodeConfig } from './types.js';

export type KeyKind = 'string' | 'int' | 'bool' | 'duration' | 'list' | 'bigint' | 'map';

export interface ConfigKey {
  file: 'config' | 'app';
  /** TOML section ('' = top level). */
  section: string;
  name: string;
  /** Path into NodeConfig. */
  path: [keyof NodeConfig] | [keyof NodeConfig, string];
  kind: KeyKind;
  doc: string;
  /** The only values a string (or each item of a list) may take. */
  choices?: readonly string[];
  /** A listen address (`host:port`, optionally `tcp://`), checked when parsed; `'or-empty'`: "" turns the server off. */
  address?: true | 'or-empty';
  /** Each item of the list is a 0x address (20 bytes: 0x and 40 hex digits). */
  hexAddresses?: true;
}

const k = (
  file: ConfigKey['file'],
  section: string,
  name: string,
  path: ConfigKey['path'],
  kind: KeyKind,
  doc: string,
  extra: Pick<ConfigKey, 'choices' | 'address' | 'hexAddresses'> = {},
): ConfigKey => ({ file, section, name, path, kind, doc, ...extra });

/** The JSON-RPC namespaces `[json-rpc] api` may name (Cosmos EVM's set; devnet control is `[evm] devnet`). */
export const JSON_RPC_NAMESPACES = ['eth', 'web3', 'net', 'txpool', 'debug', 'personal', 'admin', 'miner'] as const;
const address = { address: true } as const;
const HEX_ADDRESS_RE = /^0x[0-9a-fA-F]{40}$/;

export const CONFIG_KEYS: readonly ConfigKey[] = Object.freeze([
  k('config', '', 'moniker', ['moniker'], 'string', 'A custom human readable name for this node'),
  k('config', '', 'db_backend', ['dbBackend'], 'string', 'memory | classic (classic-level on disk under the home)', { choices: ['memory', 'classic'] }),
  k('config', '', 'log_level', ['logLevel'], 'string', 'trace | debug | info | warn | error | silent', {
    choices: ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'],
  }),
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
  k('config', 'mempool', 'recheck', ['mempool', 'recheck'], 'bool', 'Recheck the remaining txs after every block'),
  k('config', 'mempool', 'size', ['mempool', 'size'], 'int', 'Maximum number of txs in the mempool'),
  k('config', 'mempool', 'max_txs_bytes', ['mempool', 'maxTxsBytes'], 'int', 'Maximum total size of all txs in the mempool'),
  k('config', 'mempool', 'cache_size', ['mempool', 'cacheSize'], 'int', 'Size of the seen-tx cache'),
  k('config', 'mempool', 'max_tx_bytes', ['mempool', 'maxTxBytes'], 'int', 'Maximum size of one tx'),
  k('config', 'mempool', 'keep-invalid-txs-in-cache', ['mempool', 'keepInvalidTxsInCache'], 'bool', 'Keep txs that failed CheckTx in the cache'),
  k('config', 'mempool', 'account_queue', ['mempool', 'accountQueue'], 'int', "Maximum queued (nonce-gapped) txs per sender (geth's txpool.accountqueue)"),
  k('config', 'mempool', 'global_queue', ['mempool', 'globalQueue'], 'int', "Maximum queued txs of all senders (geth's txpool.globalqueue)"),
  k('config', 'tx_index', 'indexer', ['txIndex', 'indexer'], 'string', 'kv | null', { choices: ['kv', 'null'] }),
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
  k(
    'app',
    '',
    'pruning-keep-recent',
    ['pruningKeepRecent'],
    'int',
    'Versions of the provable (IAVL) stores kept for proofs and queries at past heights (0 = every version, as the SDK\'s pruning = "nothing")',
  ),
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
]);

/** Parses Go-style durations ("1s", "10ms", "2m0s", "1h30m") or bare numbers (milliseconds). */
export function parseDurationMs(v: string | number): number {
  if (typeof v === 'number') return v;
  const s = v.trim();
  if (/^\d+(\.\d+)?$/.test(s)) return Number(s);
  const re = /(\d+(?:\.\d+)?)(ns|us|µs|ms|s|m|h)/g;
  const unit: Record<string, number> = { ns: 1e-6, us: 1e-3, µs: 1e-3, ms: 1, s: 1000, m: 60_000, h: 3_600_000 };
  let total = 0;
  let consumed = 0;
  for (const m of s.matchAll(re)) {
    total += Number(m[1]) * unit[m[2]!]!;
    consumed += m[0].length;
  }
  if (consumed !== s.length || consumed === 0) throw new Error(`invalid duration "${v}"`);
  return total;
}

/** Formats milliseconds as a Go duration string ("1s", "500ms", "5m0s"). */
export function formatDuration(ms: number): string {
  if (ms === 0) return '0s';
  if (ms % 60_000 === 0) return `${ms / 60_000}m0s`;
  if (ms % 1000 === 0) return `${ms / 1000}s`;
  return `${ms}ms`;
}

/** What a key accepts, in words, for error messages and `--help`. */
export function describeAccepted(key: ConfigKey): string {
  if (key.choices) return key.kind === 'list' ? `a comma-separated list of ${key.choices.join(', ')}` : `one of ${key.choices.join(', ')}`;
  if (key.hexAddresses) return 'a comma-separated list of 0x addresses, 40 hex digits each';
  if (key.address)
    return `a listen address host:port (port 0-65535), e.g. 127.0.0.1:8545 or tcp://0.0.0.0:26657${key.address === 'or-empty' ? ' ("" turns the server off)' : ''}`;
  switch (key.kind) {
    case 'string':
      return 'a string';
    case 'int':
      return 'an integer';
    case 'bigint':
      return 'a non-negative integer';
    case 'bool':
      return 'true or false';
    case 'duration':
      return 'a duration such as 500ms, 10s or 1m30s (a bare number is milliseconds)';
    case 'list':
      return 'a comma-separated list';
    case 'map':
      return 'comma-separated name=value pairs';
  }
}

/** The flag or TOML name of a key: `json-rpc.api`, `moniker`. */
export function keyName(key: ConfigKey): string {
  return key.section ? `${key.section}.${key.name}` : key.name;
}

/** A value a key does not accept; the message names the key and what it accepts. */
export class ConfigValueError extends Error {
  override name = 'ConfigValueError';
  constructor(
    readonly key: ConfigKey,
    readonly raw: unknown,
  ) {
    super(`invalid value ${JSON.stringify(typeof raw === 'bigint' ? String(raw) : raw)} for ${keyName(key)}: expected ${describeAccepted(key)}`);
  }
}

/** Converts a raw TOML or flag value to the key's type; a value it does not accept throws `ConfigValueError`. */
export function parseKeyValue(key: ConfigKey, raw: unknown): unknown {
  const v = convert(key, raw);
  const bad = (): never => {
    throw new ConfigValueError(key, raw);
  };
  if (key.choices) {
    const items = Array.isArray(v) ? (v as string[]) : [v as string];
    if (items.some((x) => !key.choices!.includes(x))) bad();
  }
  if (key.hexAddresses && (v as string[]).some((x) => !HEX_ADDRESS_RE.test(x))) bad();
  // An empty address turns that server off (as `laddr = ""` does in CometBFT).
  if (key.address && !(key.address === 'or-empty' && v === '')) {
    try {
      parseListenAddress(v as string, keyName(key));
    } catch {
      bad();
    }
  }
  return v;
}

function convert(key: ConfigKey, raw: unknown): unknown {
  const fail = (): never => {
    throw new ConfigValueError(key, raw);
  };
  switch (key.kind) {
    case 'string':
      return typeof raw === 'string' ? raw : fail();
    case 'int': {
      const n =
        typeof raw === 'number' ? raw : typeof raw === 'bigint' ? Number(raw) : typeof raw === 'string' && /^-?\d+$/.test(raw.trim()) ? Number(raw) : NaN;
      return Number.isSafeInteger(n) ? n : fail();
    }
    case 'bigint':
      if (typeof raw === 'bigint') return raw >= 0n ? raw : fail();
      if (typeof raw === 'number' && Number.isSafeInteger(raw) && raw >= 0) return BigInt(raw);
      if (typeof raw === 'string' && /^\d+$/.test(raw.trim())) return BigInt(raw.trim());
      return fail();
    case 'bool':
      if (typeof raw === 'boolean') return raw;
      if (raw === 'true') return true;
      if (raw === 'false') return false;
      return fail();
    case 'duration':
      try {
        return parseDurationMs(raw as string | number);
      } catch {
        return fail();
      }
    case 'list':
      if (Array.isArray(raw)) return raw.map(String);
      if (typeof raw === 'string')
        return raw === ''
          ? []
          : raw
              .split(',')
              .map((s) => s.trim())
              .filter(Boolean);
      return fail();
    case 'map':
      if (raw !== null && typeof raw === 'object' && !Array.isArray(raw)) {
        return Object.fromEntries(Object.entries(raw as Record<string, unknown>).map(([a, b]) => [a, String(b)]));
      }
      if (typeof raw === 'string') {
        const pairs = raw
          .split(',')
          .filter(Boolean)
          .map((kv) => kv.split('=').map((s) => s.trim()));
        if (pairs.some((p) => p.length !== 2 || p[0] === '')) fail();
        return Object.fromEntries(pairs as [string, string][]);
      }
      return fail();
  }
}
