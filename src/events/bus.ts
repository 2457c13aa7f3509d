/**
 * The event bus (CometBFT types/event_bus.go over libs/pubsub): subscribers register queries, the
 * node publishes typed events, and each subscription whose query matches the event's flattened
 * map receives `{data, events}`.
 *
 * Publishing is on the block executor's hot path (a block of 5000 txs publishes 5000 Tx events),
 * so the bus first asks whether anyone could want the event type, from the `tm.event = 'X'`
 * condition most queries carry, and builds no event map at all otherwise. The map is also built
 * only on demand: a query with no condition but `tm.event = 'X'` matches every event of type X
 * without it, and the message's `events` is built when first read (a WebSocket subscriber's
 * envelope reads it; the relayer's and the packet index's listeners never do).
 */
import { AlreadySubscribedError, CANCEL_NODE_EXITED, CANCEL_UNSUBSCRIBED, EventBusClosedError, SubscriptionNotFoundError } from './errors.js';
import { toHexUpper } from '../crypto/encoding.js';
import { txHash } from '../types/txs.js';
import { appendEvent, flattenEvents } from './flatten.js';
import { Query } from './query/query.js';
import { Subscription } from './subscription.js';
import {
  EVENT_TYPE_KEY,
  EventType,
  TX_HASH_KEY,
  TX_HEIGHT_KEY,
  type EventData,
  type EventDataNewBlock,
  type EventDataNewBlockEvents,
  type EventDataNewBlockHeader,
  type EventDataNewEvidence,
  type EventDataValidatorSetUpdates,
  type EventMessage,
  type EventPayloads,
  type EventTypeName,
  type TxResult,
} from './types.js';

export const DEFAULT_SUBSCRIPTION_BUFFER = 200;

export interface SubscribeOptions {
  /** Messages a pull-mode subscription may hold before it is cancelled (default 200). */
  bufferSize?: number;
}

/** The single event type a query can match, or undefined when it does not pin one. */
function pinnedEventType(q: Query): string | undefined {
  for (const c of q.ast.conditions) {
    if (c.tag === EVENT_TYPE_KEY && c.op === '=' && c.arg?.kind === 'string') return c.arg.value;
  }
  return undefined;
}

export class EventBus {
  /** subscriber → canonical query text → subscription. */
  private readonly clients = new Map<string, Map<string, Subscription>>();
  /** Subscriptions whose query pins `tm.event`, by that type; the rest may match anything. */
  private readonly byType = new Map<string, Set<Subscription>>();
  private readonly anyType = new Set<Subscription>();
  /** Subscriptions whose query is `tm.event = 'X'` alone (always in byType, never in anyType). */
  private readonly typeOnly = new WeakSet<Subscription>();
  private nextId = 1;
  private closedReason: string | undefined;

  subscribe(subscriber: string, query: string | Query, opts: SubscribeOptions = {}): Subscription {
    if (this.closedReason !== undefined) throw new EventBusClosedError({ reason: this.closedReason });
    const q = typeof query === 'string' ? Query.parse(query) : query;
    const key = q.toString();
    const subs = this.clients.get(subscriber);
    if (subs?.has(key)) throw new AlreadySubscribedError({ subscriber, query: key });
    const bufferSize = opts.bufferSize ?? DEFAULT_SUBSCRIPTION_BUFFER;
    if (!Number.isInteger(bufferSize) || bufferSize < 1) {
      throw new RangeError(`bufferSize must be a positive integer, got ${bufferSize}`);
    }

    const sub = new Subscription({
      id: String(this.nextId++),
      subscriber,
      query: q,
      bufferSize,
      detach: (s) => this.detach(s, key),
    });
    if (subs) subs.set(key, sub);
    else this.clients.set(subscriber, new Map([[key, sub]]));
    const type = pinnedEventType(q);
    if (type !== undefined && q.ast.conditions.length === 1) this.typeOnly.add(sub);
    if (type === undefined) this.anyType.add(sub);
    else {
      const set = this.byType.get(type);
      if (set) set.add(sub);
      else this.byType.set(type, new Set([sub]));
    }
    return sub;
  }

  unsubscribe(subscriber: string, query: string | Query): void {
    const key = (typeof query === 'string' ? Query.parse(query) : query).toString();
    const sub = this.clients.get(subscriber)?.get(key);
    if (!sub) throw new SubscriptionNotFoundError({ subscriber, query: key });
    sub.cancel(CANCEL_UNSUBSCRIBED);
  }

  unsubscribeAll(subscriber: string): void {
    const subs = this.clients.get(subscriber);
    if (!subs) throw new SubscriptionNotFoundError({ subscriber });
    for (const sub of [...subs.values()]) sub.cancel(CANCEL_UNSUBSCRIBED);
  }

  /** Distinct subscribers with at least one subscription. */
  numClients(): number {
    return this.clients.size;
  }

  numClientSubscriptions(subscriber: string): number {
    return this.clients.get(subscriber)?.size ?? 0;
  }

  hasSubscribers(): boolean {
    return this.clients.size > 0;
  }

  /** Whether some subscription could match an event of `type` (cheap; no event map needed). */
  wants(type: EventTypeName): boolean {
    return this.anyType.size > 0 || (this.byType.get(type)?.size ?? 0) > 0;
  }

  /** Cancels every subscription; later subscribes fail and publishes are dropped. */
  close(reason: string = CANCEL_NODE_EXITED): void {
    if (this.closedReason !== undefined) return;
    this.closedReason = reason;
    for (const subs of [...this.clients.values()]) {
      for (const sub of [...subs.values()]) sub.cancel(reason);
    }
  }

  // -------------------------------------------------------------------------------------------
  // Publishing
  // -------------------------------------------------------------------------------------------

  /**
   * Publishes any event. `extra` adds keys to the event map (copied; `tm.event` is appended).
   * Used directly for the consensus-internal events, which carry only `tm.event`.
   */
  publish<T extends EventTypeName>(type: T, value: EventPayloads[T], extra?: Record<string, readonly string[]>): void {
    if (!this.wants(type)) return;
    this.dispatch({ type, value } as EventData, () => {
      const events: Record<string, string[]> = {};
      if (extra) for (const [k, vs] of Object.entries(extra)) events[k] = [...vs];
      return events;
    });
  }

  /** NewBlock: `tm.event` plus the flattened FinalizeBlock events. */
  publishNewBlock(data: EventDataNewBlock): void {
    if (!this.wants(EventType.NewBlock)) return;
    this.dispatch({ type: EventType.NewBlock, value: data }, () => flattenEvents(data.resultFinalizeBlock.events));
  }

  publishNewBlockHeader(data: EventDataNewBlockHeader): void {
    if (!this.wants(EventType.NewBlockHeader)) return;
    this.dispatch({ type: EventType.NewBlockHeader, value: data }, () => ({}));
  }

  /** NewBlockEvents: `tm.event` plus the flattened block events. */
  publishNewBlockEvents(data: EventDataNewBlockEvents): void {
    if (!this.wants(EventType.NewBlockEvents)) return;
    this.dispatch({ type: EventType.NewBlockEvents, value: data }, () => flattenEvents(data.events));
  }

  publishNewEvidence(data: EventDataNewEvidence): void {
    if (!this.wants(EventType.NewEvidence)) return;
    this.dispatch({ type: EventType.NewEvidence, value: data }, () => ({}));
  }

  /** Tx: `tm.event`, `tx.hash` (upper-case hex SHA-256), `tx.height` and the flattened tx events. */
  publishTx(txResult: TxResult): void {
    if (!this.wants(EventType.Tx)) return;
    this.dispatch({ type: EventType.Tx, value: { txResult } }, () => {
      const events = flattenEvents(txResult.result.events);
      appendEvent(events, TX_HASH_KEY, toHexUpper(txHash(txResult.tx)));
      appendEvent(events, TX_HEIGHT_KEY, String(txResult.height));
      return events;
    });
  }

  publishValidatorSetUpdates(data: EventDataValidatorSetUpdates): void {
    if (!this.wants(EventType.ValidatorSetUpdates)) return;
    this.dispatch({ type: EventType.ValidatorSetUpdates, value: data }, () => ({}));
  }

  /**
   * Hands the message to every matching subscription. `build` makes the event map (without
   * `tm.event`, appended here); it runs at most once, when a query or a reader first needs the map.
   */
  private dispatch(data: EventData, build: () => Record<string, string[]>): void {
    if (this.closedReason !== undefined) return;
    let events: Record<string, string[]> | undefined;
    const eventMap = (): Record<string, string[]> => {
      if (events === undefined) {
        events = build();
        appendEvent(events, EVENT_TYPE_KEY, data.type);
      }
      return events;
    };
    const message: EventMessage = {
      data,
      get events() {
        return eventMap();
      },
    };
    // Snapshot: listeners may (un)subscribe while we deliver.
    const pinned = this.byType.get(data.type);
    const targets = pinned ? [...pinned, ...this.anyType] : [...this.anyType];
    for (const sub of targets) {
      if (sub.canceled) continue;
      // A `tm.event = 'X'`-only subscription is here because X is this event's type: it matches.
      if (this.typeOnly.has(sub) || sub.query.matches(eventMap())) sub.deliver(message);
    }
  }

  private detach(sub: Subscription, key: string): void {
    const subs = this.clients.get(sub.subscriber);
    if (subs?.get(key) === sub) {
      subs.delete(key);
      if (subs.size === 0) this.clients.delete(sub.subscriber);
    }
    this.anyType.delete(sub);
    const type = pinnedEventType(sub.query);
    if (type !== undefined) {
      const set = this.byType.get(type);
      set?.delete(sub);
      if (set?.size === 0) this.byType.delete(type);
    }
  }
}
