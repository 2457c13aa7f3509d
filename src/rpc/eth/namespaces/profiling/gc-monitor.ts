/**
 * V8's garbage collections as Go's runtime counts them: every GC pause seen by a
 * PerformanceObserver ('gc' entries) since the monitor started, with the last 256 pauses and
 * their end times in Go's circular-buffer layout (MemStats.PauseNs / PauseEnd).
 */
import { PerformanceObserver, constants, performance, type PerformanceEntry } from 'node:perf_hooks';

const RING = 256;

export class GcMonitor {
  numGC = 0;
  numForcedGC = 0;
  pauseTotalNs = 0n;
  /** Unix ns of the end of the last GC; 0 before any. */
  lastGcEndNs = 0n;
  /** Go layout: the pause of GC number n (1-based) is at (n + 255) % 256. */
  readonly pauseNs: bigint[] = new Array<bigint>(RING).fill(0n);
  readonly pauseEnd: bigint[] = new Array<bigint>(RING).fill(0n);
  readonly startedAt = performance.now();
  private readonly observer: PerformanceObserver;

  constructor() {
    this.observer = new PerformanceObserver((list) => {
      for (const e of list.getEntries()) this.record(e);
    });
    this.observer.observe({ entryTypes: ['gc'] });
  }

  /** One GC; `detail.flags` tells a forced one (global.gc, --expose-gc) from V8's own. */
  private record(e: PerformanceEntry): void {
    const pause = BigInt(Math.round(e.duration * 1e6));
    const endNs = BigInt(Math.round((performance.timeOrigin + e.startTime + e.duration) * 1e6));
    const slot = this.numGC % RING;
    this.numGC++;
    const flags = (e as PerformanceEntry & { detail?: { flags?: number } }).detail?.flags ?? 0;
    if ((flags & constants.NODE_PERFORMANCE_GC_FLAGS_FORCED) !== 0) this.numForcedGC++;
    this.pauseTotalNs += pause;
    this.pauseNs[slot] = pause;
    this.pauseEnd[slot] = endNs;
    this.lastGcEndNs = endNs;
  }

  /** The most recent pauses first, with their end times (Go's debug.GCStats order). */
  recent(): { pause: bigint; end: bigint }[] {
    const n = Math.min(this.numGC, RING);
    const out: { pause: bigint; end: bigint }[] = [];
    for (let i = 0; i < n; i++) {
      const slot = (this.numGC - 1 - i + RING * 2) % RING;
      out.push({ pause: this.pauseNs[slot]!, end: this.pauseEnd[slot]! });
    }
    return out;
  }

  /** Share of wall time spent in GC pauses since the monitor started. */
  cpuFraction(): number {
    const elapsedNs = (performance.now() - this.startedAt) * 1e6;
    return elapsedNs > 0 ? Number(this.pauseTotalNs) / elapsedNs : 0;
  }

  stop(): void {
    this.observer.disconnect();
  }
}
