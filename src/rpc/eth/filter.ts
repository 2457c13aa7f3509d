/**
 * Polling filters and eth_getLogs. Filters live in the server's FilterRegistry; an unknown or
 * expired id answers geth's "filter not found".
 */
import type { EthEnv } from './env.js';
import { GethText, ServerError } from './errors.js';
import type { Json } from './format.js';
import { queryLogs, type LogCriteria } from './log-filter.js';

/** Handler for `eth_newFilter`. */
export function newFilter(env: EthEnv, [criteria]: [LogCriteria]): string {
  return env.filters.install('logs', criteria);
}

/** Handler for `eth_newBlockFilter`. */
export function newBlockFilter(env: EthEnv): string {
  return env.filters.install('blocks');
}

/** Handler for `eth_newPendingTransactionFilter`. */
export function newPendingTransactionFilter(env: EthEnv): string {
  return env.filters.install('pendingTransactions');
}

/** Handler for `eth_getFilterChanges`: block hashes, tx hashes or logs since the last poll. */
export function getFilterChanges(env: EthEnv, [id]: [string]): unknown[] {
  const changes = env.filters.takeChanges(id);
  if (changes === undefined) throw new ServerError(GethText.filterNotFound);
  return changes;
}

/** Handler for `eth_getFilterLogs`: every log matching a log filter's criteria. */
export function getFilterLogs(env: EthEnv, [id]: [string]): Promise<Json[]> {
  const f = env.filters.get(id);
  if (!f || f.kind !== 'logs' || !f.criteria) throw new ServerError(GethText.filterNotFound);
  return queryLogs(env.view, f.criteria, env.config);
}

/** Handler for `eth_uninstallFilter`. */
export function uninstallFilter(env: EthEnv, [id]: [string]): boolean {
  return env.filters.uninstall(id);
}

/** Handler for `eth_getLogs`. */
export function getLogs(env: EthEnv, [criteria]: [LogCriteria]): Promise<Json[]> {
  return queryLogs(env.view, criteria, env.config);
}
