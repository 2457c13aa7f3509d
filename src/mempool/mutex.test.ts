import { describe, expect, it } from 'vitest';
import { AsyncMutex } from './mutex.js';

describe('AsyncMutex', () => {
  it('grants the lock in request order, one holder at a time', async () => {
    const m = new AsyncMutex();
    const order: string[] = [];
    const first = await m.acquire();
    expect(m.locked).toBe(true);
    const second = m.acquire().then((release) => {
      order.push('second');
      release();
    });
    const third = m.acquire().then((release) => {
      order.push('third');
      release();
    });
    await new Promise((r) => setImmediate(r));
    expect(order).toEqual([]);
    order.push('first');
    first();
    first(); // releasing twice must not free the lock for someone else
    await Promise.all([second, third]);
    expect(order).toEqual(['first', 'second', 'third']);
    expect(m.locked).toBe(false);
  });
});
