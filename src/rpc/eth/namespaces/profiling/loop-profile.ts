/**
 * The block and mutex profiles of Go, mapped onto Node: a JavaScript thread never blocks on a
 * channel or a mutex, but everything waits when the event loop is held up, so both profiles
 * record event-loop delay (perf_hooks.monitorEventLoopDelay) while their rate is set, and
 * the mutex profile adds event-loop utilization (how busy the one thread was). Profiles are
 * written as JSON, not pprof.
 *
 * Go's rate is in nanoseconds; here it picks the sampling resolution (10 ms to 1 s).
 */
import { monitorEventLoopDelay, performance, type EventLoopUtilization, type IntervalHistogram } from 'node:perf_hooks';

export type LoopProfileKind = 'block' | 'mutex';

const PERCENTILES = [50, 75, 90, 99, 99.9] as const;

export interface LoopProfileJson {
  profile: LoopProfileKind;
  source: string;
  unit: 'ns';
  enabled: boolean;
  rate: number;
  resolutionMs: number;
  since: string | null;
  writtenAt: string;
  eventLoopDelay: {
    count: number;
    min: number;
    max: number;
    mean: number;
    stddev: number;
    exceeds: number;
    percentiles: Record<string, number>;
  };
  eventLoopUtilization?: { idleMs: number; activeMs: number; utilization: number };
}

export class LoopProfile {
  private histogram: IntervalHistogram | undefined;
  private rate = 0;
  private resolutionMs = 10;
  private since: Date | undefined;
  private eluStart: EventLoopUtilization | undefined;

  constructor(readonly kind: LoopProfileKind) {}

  /** rate > 0 starts (or keeps) sampling; 0 or less stops it and keeps what was recorded. */
  setRate(rate: number): void {
    this.rate = rate;
    if (rate <= 0) {
      this.histogram?.disable();
      return;
    }
    const resolutionMs = Math.min(1000, Math.max(10, Math.round(rate / 1e6)));
    if (this.histogram === undefined || resolutionMs !== this.resolutionMs) {
      this.histogram?.disable();
      this.resolutionMs = resolutionMs;
      this.histogram = monitorEventLoopDelay({ resolution: resolutionMs });
      this.since = new Date();
      this.eluStart = performance.eventLoopUtilization();
    }
    this.histogram.enable();
  }

  /** Drops what was recorded (a timed profile starts from nothing). */
  reset(): void {
    this.histogram?.reset();
    this.since = new Date();
    this.eluStart = performance.eventLoopUtilization();
  }

  toJSON(): LoopProfileJson {
    const h = this.histogram;
    const ns = (v: number | undefined) => (v === undefined || !Number.isFinite(v) ? 0 : v);
    const percentiles: Record<string, number> = {};
    for (const p of PERCENTILES) percentiles[String(p)] = h && h.count > 0 ? h.percentile(p) : 0;
    const out: LoopProfileJson = {
      profile: this.kind,
      source: 'perf_hooks.monitorEventLoopDelay',
      unit: 'ns',
      enabled: this.rate > 0,
      rate: this.rate,
      resolutionMs: this.resolutionMs,
      since: this.since?.toISOString() ?? null,
      writtenAt: new Date().toISOString(),
      eventLoopDelay: {
        count: h?.count ?? 0,
        min: h && h.count > 0 ? ns(h.min) : 0,
        max: h && h.count > 0 ? ns(h.max) : 0,
        mean: h && h.count > 0 ? ns(h.mean) : 0,
        stddev: h && h.count > 0 ? ns(h.stddev) : 0,
        exceeds: h?.exceeds ?? 0,
        percentiles,
      },
    };
    if (this.kind === 'mutex' && this.eluStart !== undefined) {
      const elu = performance.eventLoopUtilization(this.eluStart);
      out.eventLoopUtilization = { idleMs: elu.idle, activeMs: elu.active, utilization: elu.utilization };
    }
    return out;
  }

  dispose(): void {
    this.histogram?.disable();
    this.histogram = undefined;
    this.rate = 0;
  }
}
