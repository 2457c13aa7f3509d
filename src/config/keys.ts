/**
 * One table of every config key: its TOML section and name (as CometBFT / Cosmos EVM spell them),
 * where it lands in `NodeConfig`, and how its value is parsed. The TOML loader, the TOML writer and
 * the `--section.key` CLI flags all read this table, so a key exists in one place only.
 *
 * The table is assembled here from one list per TOML section (keys-config-toml.ts for config.toml,
 * keys-app-toml.ts for app.toml), in the order the TOML writer and `--help` show them; key-def.ts
 * is a key's shape, key-values.ts how its values parse.
 */
import type { ConfigKey } from './key-def.js';
import { APP_KEYS, EVM_KEYS, JSON_RPC_KEYS, ROUTING_KEYS, SVM_KEYS } from './keys-app-toml.js';
import { CONSENSUS_KEYS, INSTRUMENTATION_KEYS, MEMPOOL_KEYS, NODE_KEYS, RPC_KEYS, TX_INDEX_KEYS } from './keys-config-toml.js';

export { keyName, type ConfigKey, type KeyKind } from './key-def.js';
export { ConfigValueError, describeAccepted, formatDuration, parseDurationMs, parseKeyValue } from './key-values.js';
export { JSON_RPC_NAMESPACES } from './keys-app-toml.js';

export const CONFIG_KEYS: readonly ConfigKey[] = Object.freeze([
  // config.toml
  ...NODE_KEYS,
  ...RPC_KEYS,
  ...CONSENSUS_KEYS,
  ...MEMPOOL_KEYS,
  ...TX_INDEX_KEYS,
  ...INSTRUMENTATION_KEYS,
  // app.toml
  ...APP_KEYS,
  ...JSON_RPC_KEYS,
  ...ROUTING_KEYS,
  ...EVM_KEYS,
  ...SVM_KEYS,
]);
