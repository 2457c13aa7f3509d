import { describe, expect, it } from 'vitest';
import { GasTracker, minAvailFor } from './gas-tracker.js';

const cap = (x: bigint) => x - x / 64n;

describe('minAvailFor (EIP-150)', () => {
  it('is the least avail whose 63/64 share covers the need', () => {
    for (const need of [1n, 63n, 64n, 100n, 6400n, 123_457n, 10n ** 9n]) {
      const x = minAvailFor(need);
      expect(cap(x)).toBeGreaterThanOrEqual(need);
      expect(cap(x - 1n)).toBeLessThan(need);
    }
    expect(minAvailFor(0n)).toBe(0n);
  });
});

describe('GasTracker', () => {
  it('a leaf frame: the final gas left', () => {
    expect(new GasTracker().topSlack(500n)).toBe(500n);
  });
  it('the SSTORE sentry binds when less is left at the end than 2301 before', () => {
    const t = new GasTracker();
    t.onSstore(3000n);
    expect(t.topSlack(2900n)).toBe(699n);
  });
  it('a child that needs most of what it got', () => {
    const t = new GasTracker();
    t.enterCall({ avail: 64_000n, given: cap(64_000n), stipend: 0n });
    // Child used all but 1000 of its share; parent left with 1000 + 1/64 after.
    const used = cap(64_000n) - 1000n;
    t.exitCall(64_000n - used, false);
    const slack = t.topSlack(64_000n - used);
    // The child needed `used`: the parent needs avail ≥ minAvailFor(used).
    expect(slack).toBe(64_000n - minAvailFor(used));
  });
  it('a child that burnt everything marks the run nonlinear', () => {
    const t = new GasTracker();
    t.enterCall({ avail: 64_000n, given: cap(64_000n), stipend: 0n });
    t.exitCall(64_000n - cap(64_000n), true);
    expect(t.nonlinear).toBe(true);
  });
});
