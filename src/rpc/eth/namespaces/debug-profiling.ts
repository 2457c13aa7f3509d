/**
 * Handlers of the debug namespace's profiling hooks. As in Cosmos EVM, each answers
 * `profiling disabled in the debug namespace` (-32000) unless `[json-rpc] enable-profiling` is
 * set. The work is done by one DebugProfiler per node (profiling/profiler.ts), held by the node's
 * one eth env (`env.profiler`), created on first use and disposed when the node stops.
 */
import type { EthEnv } from '../env.js';
import { ServerError } from '../errors.js';
import { ProfileFileError } from './profiling/paths.js';
import { DebugProfiler, ProfilingError } from './profiling/profiler.js';
import type { GoGcStats, GoMemStats } from './profiling/mem-stats.js';

export const PROFILING_DISABLED = 'profiling disabled in the debug namespace';

/**
 * A node's profiler, made at the first profiling call (its GC observer is not free) and ended by
 * `dispose()` when the node stops: the CPU profile, the samplers and pending waits.
 */
export class ProfilerSlot {
  private profiler: DebugProfiler | undefined;

  get(): DebugProfiler {
    return (this.profiler ??= new DebugProfiler());
  }

  async dispose(): Promise<void> {
    const p = this.profiler;
    this.profiler = undefined;
    await p?.dispose();
  }
}

/** The node's profiler, when profiling is enabled. */
function profiler(env: EthEnv): DebugProfiler {
  if (!env.config.enableProfiling) throw new ServerError(PROFILING_DISABLED);
  return env.profiler.get();
}

/** Runs a profiling call; its refusals and file errors answer -32000 with their text. */
async function run<T>(env: EthEnv, fn: (p: DebugProfiler) => T | Promise<T>): Promise<T> {
  const p = profiler(env);
  try {
    return await fn(p);
  } catch (e) {
    if (e instanceof ProfilingError || e instanceof ProfileFileError) throw new ServerError(e.message);
    throw e;
  }
}

const nil = () => null;

/** Handler for `debug_startCPUProfile`. */
export const startCPUProfile = (env: EthEnv, [file]: [string]) => run(env, (p) => p.startCPUProfile(file)).then(nil);
/** Handler for `debug_stopCPUProfile`. */
export const stopCPUProfile = (env: EthEnv) => run(env, (p) => p.stopCPUProfile()).then(nil);
/** Handler for `debug_cpuProfile`. */
export const cpuProfile = (env: EthEnv, [file, nsec]: [string, number]) => run(env, (p) => p.cpuProfile(file, nsec)).then(nil);
/** Handler for `debug_writeMemProfile`. */
export const writeMemProfile = (env: EthEnv, [file]: [string]) => run(env, (p) => p.writeMemProfile(file)).then(nil);
/** Handler for `debug_memStats`. */
export const memStats = (env: EthEnv): Promise<GoMemStats> => run(env, (p) => p.memStats());
/** Handler for `debug_gcStats`. */
export const gcStats = (env: EthEnv): Promise<GoGcStats> => run(env, (p) => p.gcStats());
/** Handler for `debug_freeOSMemory`. */
export const freeOSMemory = (env: EthEnv) => run(env, (p) => p.freeOSMemory()).then(nil);
/** Handler for `debug_setGCPercent`: the previous value. */
export const setGCPercent = (env: EthEnv, [v]: [number]): Promise<number> => run(env, (p) => p.setGCPercent(v));
/** Handler for `debug_stacks`. */
export const stacks = (env: EthEnv): Promise<string> => run(env, (p) => p.stacks());
/** Handler for `debug_setBlockProfileRate`. */
export const setBlockProfileRate = (env: EthEnv, [rate]: [number]) => run(env, (p) => p.setBlockProfileRate(rate)).then(nil);
/** Handler for `debug_writeBlockProfile`. */
export const writeBlockProfile = (env: EthEnv, [file]: [string]) => run(env, (p) => p.writeBlockProfile(file)).then(nil);
/** Handler for `debug_blockProfile`. */
export const blockProfile = (env: EthEnv, [file, nsec]: [string, number]) => run(env, (p) => p.blockProfile(file, nsec)).then(nil);
/** Handler for `debug_setMutexProfileFraction`. */
export const setMutexProfileFraction = (env: EthEnv, [rate]: [number]) => run(env, (p) => p.setMutexProfileFraction(rate)).then(nil);
/** Handler for `debug_writeMutexProfile`. */
export const writeMutexProfile = (env: EthEnv, [file]: [string]) => run(env, (p) => p.writeMutexProfile(file)).then(nil);
/** Handler for `debug_mutexProfile`. */
export const mutexProfile = (env: EthEnv, [file, nsec]: [string, number]) => run(env, (p) => p.mutexProfile(file, nsec)).then(nil);
