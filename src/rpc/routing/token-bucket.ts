/**
 * The global token bucket shared by every caller without an API key: it holds up to `burst`
 * tokens and refills at `ratePerSecond`; each request takes one. Time comes from an injectable
 * monotonic clock so tests can drive it without sleeping.
 */

export type Clock = () => number;

/** Milliseconds from a monotonic source (never jumps with the wall clock). */
export const monotonicMs: Clock = () => performance.now();

export interface TakeResult {
  ok: boolean;
  /** When refused: milliseconds until one token is available. */
  retryAfterMs: number;
}

export class TokenBucket {
  private tokens: number;
  private last: number;

  /** `ratePerSecond <= 0` turns limiting off (every take succeeds). */
  constructor(
    readonly ratePerSecond: number,
    readonly burst: number,
    private readonly now: Clock = monotonicMs,
  ) {
    if (!Number.isFinite(ratePerSecond)) throw new RangeError(`rate must be finite, got ${ratePerSecond}`);
    if (!Number.isFinite(burst) || burst < 0) throw new RangeError(`burst must be a non-negative number, got ${burst}`);
    this.tokens = Math.max(burst, 1);
    this.last = now();
  }

  get unlimited(): boolean {
    return this.ratePerSecond <= 0;
  }

  /** Capacity: a burst of 0 still lets one request through per refill. */
  private get capacity(): number {
    return Math.max(this.burst, 1);
  }

  private refill(): void {
    const t = this.now();
    const elapsed = t - this.last;
    this.last = t;
    if (elapsed > 0) this.tokens = Math.min(this.capacity, this.tokens + (elapsed * this.ratePerSecond) / 1000);
  }

  take(): TakeResult {
    if (this.unlimited) return { ok: true, retryAfterMs: 0 };
    this.refill();
    if (this.tokens >= 1) {
      this.tokens -= 1;
      return { ok: true, retryAfterMs: 0 };
    }
    return { ok: false, retryAfterMs: ((1 - this.tokens) * 1000) / this.ratePerSecond };
  }

  /** Tokens available now (fractional), for tests and metrics. */
  available(): number {
    if (this.unlimited) return Infinity;
    this.refill();
    return this.tokens;
  }
}
