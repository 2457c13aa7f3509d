/**
 * A wake-up signal with timers that never outlive `close()`: `wait` resolves on wake, timeout or
 * close; `sleep` only on timeout or close (a consensus timeout is not cut short by new txs).
 */

import { timerMs } from '../util/timer.js';

export class Waker {
  private waiters = new Set<() => void>();
  private sleepers = new Set<() => void>();
  private closed = false;

  wake(): void {
    const ws = [...this.waiters];
    this.waiters.clear();
    for (const w of ws) w();
  }

  wait(timeoutMs?: number): Promise<void> {
    if (this.closed) return Promise.resolve();
    return new Promise((resolve) => {
      let timer: NodeJS.Timeout | undefined;
      const done = () => {
        if (timer) clearTimeout(timer);
        this.waiters.delete(done);
        resolve();
      };
      this.waiters.add(done);
      if (timeoutMs !== undefined) timer = setTimeout(done, timerMs(timeoutMs));
    });
  }

  sleep(ms: number): Promise<void> {
    if (this.closed) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.sleepers.delete(done);
        resolve();
      };
      const timer = setTimeout(done, timerMs(ms));
      this.sleepers.add(done);
    });
  }

  close(): void {
    this.closed = true;
    this.wake();
    for (const s of [...this.sleepers]) s();
  }
}
