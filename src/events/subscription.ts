/**
 * One subscriber's subscription to one query.
 *
 *   EventBus.publish ──deliver()──┬─ listener set? ── listener(msg)          (push: WebSocket servers)
 *                                 ├─ next() waiting? ── resolve it            (pull)
 *                                 └─ buffer (bounded) ── full? cancel(ErrOutOfCapacity)
 *
 * Once cancelled, nothing more is delivered; next() still drains what was buffered and then
 * returns undefined.
 */
import { CANCEL_OUT_OF_CAPACITY, CANCEL_UNSUBSCRIBED } from './errors.js';
import type { Query } from './query/query.js';
import type { EventMessage } from './types.js';

export type MessageListener = (message: EventMessage) => void;
export type CancelListener = (reason: string) => void;

export class Subscription implements AsyncIterable<EventMessage> {
  readonly id: string;
  readonly subscriber: string;
  readonly query: Query;
  readonly bufferSize: number;

  private buffer: (EventMessage | undefined)[] = [];
  private head = 0;
  private waiters: ((m: EventMessage | undefined) => void)[] = [];
  private listener: MessageListener | undefined;
  private cancelListeners: CancelListener[] = [];
  private reason: string | undefined;
  private readonly detach: (sub: Subscription) => void;

  /** @internal Created by EventBus.subscribe; `detach` removes it from the bus on cancel. */
  constructor(args: { id: string; subscriber: string; query: Query; bufferSize: number; detach: (sub: Subscription) => void }) {
    this.id = args.id;
    this.subscriber = args.subscriber;
    this.query = args.query;
    this.bufferSize = args.bufferSize;
    this.detach = args.detach;
  }

  get canceled(): boolean {
    return this.reason !== undefined;
  }

  get cancelReason(): string | undefined {
    return this.reason;
  }

  /** Messages waiting to be pulled. */
  get buffered(): number {
    return this.buffer.length - this.head;
  }

  /** The next message; undefined once cancelled and drained. */
  next(): Promise<EventMessage | undefined> {
    if (this.head < this.buffer.length) return Promise.resolve(this.shift());
    if (this.canceled) return Promise.resolve(undefined);
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  /**
   * Switches to push mode: messages go synchronously to `fn` instead of the buffer (anything
   * already buffered is handed over first). A listener that throws cancels the subscription.
   */
  setListener(fn: MessageListener): void {
    this.listener = fn;
    while (this.head < this.buffer.length && !this.canceled) this.callListener(this.shift()!);
  }

  /** Calls `fn` once with the reason when the subscription is cancelled (at once if it already is). */
  onCancel(fn: CancelListener): void {
    if (this.reason !== undefined) fn(this.reason);
    else this.cancelListeners.push(fn);
  }

  /** Ends the subscription and removes it from the bus. Idempotent. */
  cancel(reason: string = CANCEL_UNSUBSCRIBED): void {
    if (this.reason !== undefined) return;
    this.reason = reason;
    this.detach(this);
    for (const w of this.waiters.splice(0)) w(undefined);
    for (const fn of this.cancelListeners.splice(0)) fn(reason);
  }

  /** @internal Called by the bus for each matching event. */
  deliver(message: EventMessage): void {
    if (this.canceled) return;
    if (this.listener) {
      this.callListener(message);
      return;
    }
    const waiter = this.waiters.shift();
    if (waiter) {
      waiter(message);
      return;
    }
    if (this.buffered >= this.bufferSize) {
      this.cancel(CANCEL_OUT_OF_CAPACITY);
      return;
    }
    this.buffer.push(message);
  }

  [Symbol.asyncIterator](): AsyncIterator<EventMessage> {
    return {
      next: async () => {
        const value = await this.next();
        return value === undefined ? { done: true, value: undefined } : { done: false, value };
      },
      // Leaving a `for await` loop early ends the subscription.
      return: async () => {
        this.cancel(CANCEL_UNSUBSCRIBED);
        return { done: true, value: undefined };
      },
    };
  }

  private shift(): EventMessage | undefined {
    const m = this.buffer[this.head];
    this.buffer[this.head++] = undefined; // let the message be collected
    if (this.head === this.buffer.length) {
      this.buffer = [];
      this.head = 0;
    } else if (this.head > 1024 && this.head * 2 > this.buffer.length) {
      this.buffer = this.buffer.slice(this.head);
      this.head = 0;
    }
    return m;
  }

  private callListener(message: EventMessage): void {
    try {
      this.listener!(message);
    } catch (err) {
      this.cancel(`listener failed: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
}
