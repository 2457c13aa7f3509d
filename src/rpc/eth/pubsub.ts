/**
 * eth_subscribe / eth_unsubscribe over WebSocket: newHeads, logs (address and topic filters) and
 * newPendingTransactions (hashes, or full txs with `true`). Notifications are
 *   {"jsonrpc":"2.0","method":"eth_subscription","params":{"subscription":id,"result":…}}
 * and a session's subscriptions end with its connection.
 */
import type { EvmBlock } from '../../app/evm-view.js';
import type { EthEnv } from './env.js';
import { EthRpcError, InvalidParamsError, NotSupportedError } from './errors.js';
import { formatHeader, formatTx } from './format.js';
import { newId } from './filter-registry.js';
import { blockLogs, bloomTester, logCriteriaOf, type LogCriteria } from './log-filter.js';
import { ParamDecodeError } from './params.js';
import type { CallContext, WsSession } from './route.js';

const sessions = new WeakMap<WsSession, Map<string, () => void>>();

function subscriptionsOf(session: WsSession): Map<string, () => void> {
  let m = sessions.get(session);
  if (!m) {
    const subs = new Map<string, () => void>();
    sessions.set(session, subs);
    session.onClose(() => {
      for (const stop of subs.values()) stop();
      subs.clear();
    });
    m = subs;
  }
  return m;
}

function notification(id: string, result: unknown): string {
  return notificationOf(id, JSON.stringify(result));
}

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

/** Handler for `eth_subscribe`. */
export function subscribe(env: EthEnv, [kind, options]: [string, unknown], ctx: CallContext): string {
  const session = ctx.session;
  if (!session) throw new EthRpcError(-32601, 'notifications not supported');
  const id = newId();
  const send = (result: unknown) => session.send(notification(id, result));
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
        const logs: Record<string, unknown>[] = [];
        blockLogs(b, receipts, criteria, logs);
        for (const l of logs) send(l);
      });
      break;
    }
    case 'newPendingTransactions': {
      const full = options === true;
      stop = env.txpool.onNewTx((hash) => {
        if (!full) return void send(`0x${Buffer.from(hash).toString('hex')}`);
        const p = env.txpool.pending(hash);
        if (p) send(formatTx(p.tx, p.sender, p.hash));
      });
      break;
    }
    case 'syncing':
      throw new NotSupportedError('the syncing subscription');
    default:
      throw new EthRpcError(-32601, `no ${JSON.stringify(kind)} subscription in eth namespace`);
  }
  subscriptionsOf(session).set(id, stop);
  return id;
}

/** Handler for `eth_unsubscribe`. */
export function unsubscribe(_env: EthEnv, [id]: [string], ctx: CallContext): boolean {
  if (!ctx.session) throw new EthRpcError(-32601, 'notifications not supported');
  const subs = subscriptionsOf(ctx.session);
  const stop = subs.get(id.toLowerCase());
  if (!stop) return false;
  stop();
  subs.delete(id.toLowerCase());
  return true;
}
