/**
 * The debug namespace's profiling hooks for one node, each the nearest real thing in V8:
 *
 *   CPU profile    node:inspector Profiler → a `.cpuprofile` (Chrome DevTools) file
 *   memory profile v8.writeHeapSnapshot → a `.heapsnapshot` file
 *   block / mutex  event-loop delay (loop-profile.ts) → JSON
 *   MemStats/GC    process.memoryUsage + v8.getHeapStatistics + GC observer (mem-stats.ts)
 *   freeOSMemory   a full GC (global.gc, or one obtained at run time: full-gc.ts)
 *   stacks         the diagnostic report (stacks.ts)
 *
 * One profiler per node, created on first use; `dispose()` (at node stop) stops the CPU
 * profile (writing what it has), the samplers and the GC observer, and ends the waits of
 * debug_cpuProfile / blockProfile / mutexProfile early.
 */
import type { Session } from 'node:inspector/promises';
import type { FileHandle } from 'node:fs/promises';
import { writeHeapSnapshot } from 'node:v8';
import { GcMonitor } from './gc-monitor.js';
import { LoopProfile } from './loop-profile.js';
import { gcStats, memStats, type GoGcStats, type GoMemStats } from './mem-stats.js';
import { createProfileFile, fileError, resolveProfilePath, writeProfileFile } from './paths.js';
import { stacksReport } from './stacks.js';
import { fullGc } from './full-gc.js';
import { timerMs } from '../../../../util/timer.js';

/** A profiling request refused the way geth refuses it (errors.New text). */
export class ProfilingError extends Error {
  override name = 'ProfilingError';
}

interface CpuRun {
  session: Session;
  file: FileHandle;
  path: string;
}

/** Go's default GOGC. */
const DEFAULT_GC_PERCENT = 100;

export class DebugProfiler {
  private readonly gc = new GcMonitor();
  private readonly block = new LoopProfile('block');
  private readonly mutex = new LoopProfile('mutex');
  private cpu: CpuRun | undefined;
  private cpuStarting = false;
  private gcPercent = DEFAULT_GC_PERCENT;
  private readonly waits = new Set<() => void>();
  private disposed = false;

  // ── CPU ────────────────────────────────────────────────────────────────────────────────

  async startCPUProfile(file: string): Promise<void> {
    if (this.cpu !== undefined || this.cpuStarting) throw new ProfilingError('CPU profiling already in progress');
    this.cpuStarting = true;
    try {
      const path = resolveProfilePath(file);
      const fh = await createProfileFile(path);
      // node:inspector is loaded by the first CPU profile, not by every start.
      const { Session } = await import('node:inspector/promises');
      const session = new Session();
      session.connect();
      try {
        await session.post('Profiler.enable');
        await session.post('Profiler.start');
      } catch (e) {
        session.disconnect();
        await fh.close();
        throw e;
      }
      this.cpu = { session, file: fh, path };
    } finally {
      this.cpuStarting = false;
    }
  }

  async stopCPUProfile(): Promise<void> {
    const run = this.cpu;
    if (run === undefined) throw new ProfilingError('CPU profiling not in progress');
    this.cpu = undefined;
    try {
      const { profile } = await run.session.post('Profiler.stop');
      await run.file.writeFile(JSON.stringify(profile)).catch((e: unknown) => {
        throw fileError('write', run.path, e);
      });
    } finally {
      run.session.disconnect();
      await run.file.close();
    }
  }

  async cpuProfile(file: string, seconds: number): Promise<void> {
    await this.startCPUProfile(file);
    await this.sleep(seconds);
    if (this.cpu !== undefined) await this.stopCPUProfile();
  }

  // ── memory ─────────────────────────────────────────────────────────────────────────────

  async writeMemProfile(file: string): Promise<void> {
    const path = resolveProfilePath(file);
    await (await createProfileFile(path)).close(); // os.Create's errors first, as geth
    try {
      writeHeapSnapshot(path);
    } catch (e) {
      throw fileError('write', path, e);
    }
  }

  memStats(): GoMemStats {
    return memStats(this.gc);
  }

  gcStats(): GoGcStats {
    return gcStats(this.gc);
  }

  freeOSMemory(): void {
    fullGc()();
  }

  /** Go's GOGC. V8 sizes its heap itself, so the value is kept and reported only. */
  setGCPercent(v: number): number {
    const prev = this.gcPercent;
    this.gcPercent = v;
    return prev;
  }

  stacks(): string {
    return stacksReport();
  }

  // ── block / mutex ──────────────────────────────────────────────────────────────────────

  setBlockProfileRate(rate: number): void {
    this.block.setRate(rate);
  }

  setMutexProfileFraction(rate: number): void {
    this.mutex.setRate(rate);
  }

  writeBlockProfile(file: string): Promise<void> {
    return writeProfileFile(resolveProfilePath(file), JSON.stringify(this.block.toJSON(), null, 2));
  }

  writeMutexProfile(file: string): Promise<void> {
    return writeProfileFile(resolveProfilePath(file), JSON.stringify(this.mutex.toJSON(), null, 2));
  }

  /** Samples for `seconds`, writes the profile, then stops sampling (geth: rate 1 … rate 0). */
  async blockProfile(file: string, seconds: number): Promise<void> {
    await this.timed(this.block, file, seconds);
  }

  async mutexProfile(file: string, seconds: number): Promise<void> {
    await this.timed(this.mutex, file, seconds);
  }

  private async timed(p: LoopProfile, file: string, seconds: number): Promise<void> {
    p.setRate(1);
    p.reset();
    try {
      await this.sleep(seconds);
      await writeProfileFile(resolveProfilePath(file), JSON.stringify(p.toJSON(), null, 2));
    } finally {
      p.setRate(0);
    }
  }

  // ── lifetime ───────────────────────────────────────────────────────────────────────────

  /** Waits `seconds`, or until the node stops. */
  private sleep(seconds: number): Promise<void> {
    if (this.disposed || seconds <= 0) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.waits.delete(done);
        resolve();
      };
      const timer = setTimeout(done, timerMs(seconds * 1000));
      this.waits.add(done);
    });
  }

  async dispose(): Promise<void> {
    if (this.disposed) return;
    this.disposed = true;
    for (const done of [...this.waits]) done();
    if (this.cpu !== undefined) await this.stopCPUProfile().catch(() => undefined);
    this.block.dispose();
    this.mutex.dispose();
    this.gc.stop();
  }
}
