import { afterEach, describe, expect, it } from 'vitest';
import { MAX_TIMER_MS, timerMs } from '../util/timer.js';
import { Waker } from './waker.js';

describe('Waker with waits no timer can hold', () => {
  const warnings: string[] = [];
  const onWarning = (w: Error) => warnings.push(w.name);
  afterEach(() => {
    process.off('warning', onWarning);
    warnings.length = 0;
  });

  it('waits out a 2^33 ms wait instead of firing after 1 ms (an interval mining period of 2^33 ms spun the engine)', async () => {
    process.on('warning', onWarning);
    const w = new Waker();
    let woke = false;
    void w.wait(2 ** 33).then(() => (woke = true));
    let slept = false;
    void w.sleep(2 ** 40).then(() => (slept = true));
    await new Promise((r) => setTimeout(r, 20));
    expect([woke, slept]).toEqual([false, false]);
    w.close();
    await new Promise((r) => setImmediate(r));
    expect([woke, slept]).toEqual([true, true]);
    expect(warnings).not.toContain('TimeoutOverflowWarning');
  });

  it('clamps at the edge', () => {
    expect(timerMs(MAX_TIMER_MS)).toBe(MAX_TIMER_MS);
    expect(timerMs(MAX_TIMER_MS + 1)).toBe(MAX_TIMER_MS);
    expect(timerMs(-5)).toBe(0);
    expect(timerMs(Number.NaN)).toBe(0);
  });
});
