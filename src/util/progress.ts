/**
 * Progress of long work (a replay of stored blocks at start, a state load, mining many blocks) as
 * log lines: one when it starts, one every `everyMs` while it runs (done/total, percent, rate), one
 * when it ends. Work shorter than `everyMs` logs only its start and end.
 */
import type { Logger } from 'pino';

export interface Progress {
  /** `done` units are complete (of `total`). */
  update(done: number): void;
  finish(): void;
}

export function startProgress(logger: Logger, what: string, total: number, opts: { unit?: string; everyMs?: number; now?: () => number } = {}): Progress {
  const now = opts.now ?? (() => performance.now());
  const unit = opts.unit ?? 'blocks';
  const every = opts.everyMs ?? 1000;
  const t0 = now();
  let last = t0;
  let done = 0;
  logger.info({ total }, `${what}: ${total} ${unit}`);
  return {
    update(n) {
      done = n;
      const t = now();
      if (t - last < every) return;
      last = t;
      const pct = total > 0 ? Math.floor((done * 100) / total) : 100;
      const rate = Math.round((done * 1000) / Math.max(1, t - t0));
      logger.info({ done, total, percent: pct }, `${what}: ${done}/${total} ${unit} (${pct}%, ${rate} ${unit}/s)`);
    },
    finish() {
      const ms = Math.round(now() - t0);
      logger.info({ total, ms }, `${what}: done, ${done || total} ${unit} in ${ms} ms`);
    },
  };
}
