/**
 * eth_subscribe / eth_unsubscribe over WebSocket: newHeads, logs (address and topic filters) and
 * newPendingTransactions (hashes, or full txs with `true`). Notifications are
 *   {"jsonrpc":"2.0","method":"eth_subscription","params":{"subscription":id,"result":…}}
 * and a session's subscriptions end with its connection.
 */
import type { EvmBlock, EvmLog, EvmReceipt } from '../../app/views/evm-view.js';
import type { EthEnv } from './env.js';
import { EthRpcError, InvalidParamsError, NotSupportedError } from './errors.js';
import { formatHeader, formatLog, formatTx } from './format.js';
import { newId } from './ids.js';
import { bloomTester, logCriteriaOf, matchLog, type LogCriteria } from './log-filter.js';
import { ParamDecodeError } from './params.js';
import type { CallContext } from './route.js';

function notificationOf(id: string, resultJson: string): string {
  return `{"jsonrpc":"2.0","method":"eth_subscription","params":{"subscription":"${id}","result":${resultJson}}}`;
}

/** A block's newHeads result, encoded once for every subscriber (blocks are immutable values). */
const headerJson = new WeakMap<EvmBlock, string>();

function headerJsonOf(b: EvmBlock): string {
  let json = headerJson.get(b);
  if (json === undefined) headerJson.set(b, (json = JSON.stringify(formatHeader(b))));
  return json;
}

/**
 * A log's result, encoded once for every logs subscriber it matches (the view hands every
 * listener the same receipts), and a pending tx's, once for every newPendingTransactions
 * subscriber (every listener gets the same hash bytes).
 */
const logJson = new WeakMap<EvmLog, string>();
const pendingJson = new WeakMap<Uint8Array, { hash?: string; full?: string }>();

function logJsonOf(l: EvmLog, r: EvmReceipt, b: EvmBlock): string {
  let json = logJson.get(l);
  if (json === undefined) logJson.set(l, (json = JSON.stringify(formatLog(l, r, b.timestamp))));
  return json;
}

/** A pending tx's result (its hash, or the whole tx with `full`); undefined once it left the pool. */
function pendingJsonOf(env: EthEnv, hash: Uint8Array, full: boolean): string | undefined {
  let entry = pendingJson.get(hash);
  if (entry === undefined) pendingJson.set(hash, (entry = {}));
  if (!full) return (entry.hash ??= JSON.stringify(`0x${Buffer.from(hash).toString('hex')}`));
  if (entry.full === undefined) {
    const p = env.txpool.pending(hash);
    if (p) entry.full = JSON.stringify(formatTx(p.tx, p.sender, p.hash));
  }
  return entry.full;
}

/** Handler for `eth_subscribe`. */
export function subscribe(env: EthEnv, [kind, options]: [string, unknown], ctx: CallContext): string {
  const session = ctx.session;
  if (!session) throw new EthRpcError(-32601, 'notifications not supported');
  const id = newId();
  let stop: () => void;
  switch (kind) {
    case 'newHeads':
      stop = env.view.onBlock((b) => session.send(notificationOf(id, headerJsonOf(b))));
      break;
    case 'logs': {
      let criteria: LogCriteria = { addresses: [], topics: [] };
      if (options !== undefined && options !== null) {
        try {
          criteria = logCriteriaOf(options);
        } catch (e) {
          if (e instanceof ParamDecodeError) throw new InvalidParamsError(e.message, 1);
          throw e;
        }
      }
      const test = bloomTester(criteria);
      stop = env.view.onBlock((b, receipts) => {
        if (!test(b.logsBloom)) return;
        for (const r of receipts) for (const l of r.logs) if (matchLog(l, criteria)) session.send(notificationOf(id, logJsonOf(l, r, b)));
      });
      break;
    }
    case 'newPendingTransactions': {
      const full = options === true;
      stop = env.txpool.onNewTx((hash) => {
        const json = pendingJsonOf(env, hash, full);
        if (json !== undefined) session.send(notificationOf(id, json));
      });
      break;
    }
    case 'syncing':
      throw new NotSupportedError('the syncing subscription');
    default:
      throw new EthRpcError(-32601, `no ${JSON.stringify(kind)} subscription in eth namespace`);
  }
  env.subscriptions.of(session).set(id, stop);
  return id;
}

/** Handler for `eth_unsubscribe`. */
export function unsubscribe(env: EthEnv, [id]: [string], ctx: CallContext): boolean {
  if (!ctx.session) throw new EthRpcError(-32601, 'notifications not supported');
  const subs = env.subscriptions.of(ctx.session);
  const stop = subs.get(id.toLowerCase());
  if (!stop) return false;
  stop();
  subs.delete(id.toLowerCase());
  return true;
}
