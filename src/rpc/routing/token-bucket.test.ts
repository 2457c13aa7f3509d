import { describe, expect, it } from 'vitest';
import { TokenBucket } from './token-bucket.js';

function clock(start = 1000) {
  let t = start;
  return { now: () => t, advance: (ms: number) => (t += ms) };
}

describe('TokenBucket', () => {
  it('lets a burst through, then refuses until tokens refill', () => {
    const c = clock();
    const b = new TokenBucket(2, 3, c.now);
    expect([b.take().ok, b.take().ok, b.take().ok]).toEqual([true, true, true]);
    const refused = b.take();
    expect(refused.ok).toBe(false);
    expect(refused.retryAfterMs).toBeCloseTo(500, 6);
    c.advance(499);
    expect(b.take().ok).toBe(false);
    c.advance(2);
    expect(b.take().ok).toBe(true);
    expect(b.take().ok).toBe(false);
  });

  it('never holds more than the burst', () => {
    const c = clock();
    const b = new TokenBucket(10, 2, c.now);
    c.advance(60_000);
    expect(b.available()).toBe(2);
    expect(b.take().ok && b.take().ok).toBe(true);
    expect(b.take().ok).toBe(false);
  });

  it('is unlimited with a rate of 0', () => {
    const b = new TokenBucket(0, 0, clock().now);
    for (let i = 0; i < 1000; i++) expect(b.take().ok).toBe(true);
    expect(b.unlimited).toBe(true);
  });

  it('treats a burst of 0 as one request per refill', () => {
    const c = clock();
    const b = new TokenBucket(1, 0, c.now);
    expect(b.take().ok).toBe(true);
    expect(b.take().ok).toBe(false);
    c.advance(1000);
    expect(b.take().ok).toBe(true);
  });

  it('rejects nonsense settings', () => {
    expect(() => new TokenBucket(Number.NaN, 1)).toThrow(RangeError);
    expect(() => new TokenBucket(1, -1)).toThrow(RangeError);
  });
});
