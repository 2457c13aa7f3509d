/**
 * The Solana WebSocket's subscriptions (slot, signature, account, logs) and their notifications:
 *
 *   ledger event ─▶ each subscription's listener ─▶ result JSON (once per event, shared) ─▶
 *   `{"jsonrpc":"2.0","method":…,"params":{"result":<json>,"subscription":<n>}}` per subscriber
 *
 * A notification differs between subscribers only by its subscription number, so an event's
 * result is serialized once and spliced into each envelope: the bytes are those of the whole
 * object serialized at once.
 */
import type { SvmTxRecord } from '../../svm/ledger.js';
import type { WsConnection } from '../transport/index.js';
import { SolanaRpcError, invalidParam } from './errors.js';
import { stringifyWithBigints } from './json.js';
import { logsResult, subscribeLogs } from './logs-subscription.js';
import { SOLANA_METHODS, type SolanaEnv } from './methods.js';
import { pubkey } from './params.js';

/** Handles a subscribe/unsubscribe call of a WebSocket connection; undefined when `method` is none. */
export type SubscriptionCalls = (method: string, params: unknown[]) => unknown;

export interface SolanaSubscriptions {
  calls(c: WsConnection): SubscriptionCalls;
  /** Ends a connection's subscriptions. */
  close(c: WsConnection): void;
  closeAll(): void;
}

export function notificationText(method: string, subscription: number, resultJson: string): string {
  return `{"jsonrpc":"2.0","method":"${method}","params":{"result":${resultJson},"subscription":${subscription}}}`;
}

/** Result JSON per event object and variant (an account and its encoding): built by the first subscriber, reused by the rest. */
class ResultCache<K extends object> {
  private readonly byEvent = new WeakMap<K, Map<string, string>>();

  json(event: K, variant: string, result: () => unknown): string {
    let m = this.byEvent.get(event);
    if (!m) this.byEvent.set(event, (m = new Map()));
    let json = m.get(variant);
    if (json === undefined) m.set(variant, (json = stringifyWithBigints(result())));
    return json;
  }
}

export function createSolanaSubscriptions(env: SolanaEnv): SolanaSubscriptions {
  let nextSub = 0;
  const subs = new Map<WsConnection, Map<number, () => void>>();
  const txResults = new ResultCache<SvmTxRecord>();
  // Slots are bigints: the last one's result is kept (every slot subscriber gets it in one turn).
  let lastSlot: { slot: bigint; json: string } | undefined;
  const slotJson = (slot: bigint): string => {
    if (lastSlot?.slot !== slot) lastSlot = { slot, json: stringifyWithBigints({ parent: slot - 1n, root: slot > 32n ? slot - 32n : 0n, slot }) };
    return lastSlot.json;
  };
  const send = (c: WsConnection, method: string, subscription: number, json: string): void => {
    if (!c.closed) c.send(notificationText(method, subscription, json));
  };
  const subscriptionsOf = (c: WsConnection) => {
    let m = subs.get(c);
    if (!m) subs.set(c, (m = new Map()));
    return m;
  };

  const calls =
    (c: WsConnection): SubscriptionCalls =>
    (method, params) => {
      const mine = subscriptionsOf(c);
      const ledger = env.ledger;
      if (method === 'slotSubscribe') {
        const id = ++nextSub;
        mine.set(
          id,
          ledger.onSlot((slot) => send(c, 'slotNotification', id, slotJson(slot)), { live: true }),
        );
        return id;
      }
      if (method === 'signatureSubscribe') {
        const sig = params[0];
        if (typeof sig !== 'string') throw invalidParam('Invalid signature');
        const id = ++nextSub;
        const done = (r: SvmTxRecord) => {
          send(
            c,
            'signatureNotification',
            id,
            txResults.json(r, 'signature', () => ({ context: { slot: r.slot }, value: { err: r.err } })),
          );
          mine.get(id)?.();
          mine.delete(id);
        };
        const known = ledger.transaction(sig);
        if (known) {
          mine.set(id, () => undefined);
          // After the subscription's own answer, which the dispatcher writes within this turn's microtasks.
          setImmediate(() => done(known));
        } else {
          mine.set(
            id,
            ledger.onTransaction((r) => r.signature === sig && done(r)),
          );
        }
        return id;
      }
      if (method === 'accountSubscribe') {
        // Checked (length first, then base58) when subscribing, not at the first notification.
        const key = pubkey(params[0]);
        const encoding = ((params[1] ?? {}) as { encoding?: string }).encoding ?? 'base64';
        const id = ++nextSub;
        mine.set(
          id,
          ledger.onTransaction((r) => {
            // Only accounts the tx changed (a failed tx that merely named one writable changes nothing).
            if (!r.changed.includes(key)) return;
            const json = txResults.json(r, `account ${key} ${encoding}`, () => ({
              context: { slot: r.slot },
              value: (SOLANA_METHODS['getAccountInfo']!(env, [key, { encoding }]) as { value: unknown }).value,
            }));
            send(c, 'accountNotification', id, json);
          }),
        );
        return id;
      }
      if (method === 'logsSubscribe') {
        const off = subscribeLogs(ledger, params, (r) =>
          send(
            c,
            'logsNotification',
            id,
            txResults.json(r, 'logs', () => logsResult(r)),
          ),
        );
        const id = ++nextSub;
        mine.set(id, off);
        return id;
      }
      const unsub = /^(slot|signature|account|logs)Unsubscribe$/.exec(method);
      if (unsub) {
        const id = params[0];
        const off = typeof id === 'number' ? mine.get(id) : undefined;
        if (!off) throw new SolanaRpcError(-32602, 'Invalid subscription id.');
        off();
        mine.delete(id as number);
        return true;
      }
      return undefined;
    };

  return {
    calls,
    close(c) {
      for (const off of subs.get(c)?.values() ?? []) off();
      subs.delete(c);
    },
    closeAll() {
      for (const m of subs.values()) for (const off of m.values()) off();
      subs.clear();
    },
  };
}
