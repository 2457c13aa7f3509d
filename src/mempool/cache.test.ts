import { describe, expect, it } from 'vitest';
import { createTxCache, LruTxCache, NopTxCache } from './cache.js';

describe('LruTxCache', () => {
  it('reports a repeated key and evicts the least recently pushed', () => {
    const c = new LruTxCache(2);
    expect(c.push('a')).toBe(true);
    expect(c.push('b')).toBe(true);
    expect(c.push('a')).toBe(false); // refreshes a; b is now the oldest
    expect(c.push('c')).toBe(true); // evicts b
    expect(c.has('a')).toBe(true);
    expect(c.has('b')).toBe(false);
    expect(c.has('c')).toBe(true);
    expect(c.size).toBe(2);
  });

  it('removes and resets', () => {
    const c = new LruTxCache(10);
    c.push('a');
    c.push('b');
    c.remove('a');
    expect(c.push('a')).toBe(true);
    c.reset();
    expect(c.size).toBe(0);
    expect(c.push('b')).toBe(true);
  });

  it('rejects a non-positive capacity', () => {
    expect(() => new LruTxCache(0)).toThrow(RangeError);
  });
});

describe('createTxCache', () => {
  it('size 0 gives a cache that remembers nothing', () => {
    const c = createTxCache(0);
    expect(c).toBeInstanceOf(NopTxCache);
    expect(c.push('a')).toBe(true);
    expect(c.push('a')).toBe(true);
    expect(c.has('a')).toBe(false);
  });
});
