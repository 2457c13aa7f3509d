/**
 * Go's runtime.MemStats and debug.GCStats, filled from what V8 and Node report. The JSON keys
 * are Go's field names (the structs have no json tags). Where V8 has no counterpart the value
 * is 0 and the mapping below says so; docs/rpc-debug.md lists the same table.
 *
 *   Alloc, HeapAlloc, HeapInuse  v8 used_heap_size
 *   TotalAlloc                   v8 used_heap_size (V8 keeps no cumulative allocation counter)
 *   Sys                          process.memoryUsage().rss
 *   HeapSys                      v8 total_heap_size
 *   HeapIdle                     total_heap_size − used_heap_size
 *   HeapReleased                 total_heap_size − total_physical_size (reserved, not resident)
 *   StackInuse, StackSys         0 (V8 does not report its stack)
 *   GCSys                        v8 malloced_memory (V8's own metadata outside the heap)
 *   OtherSys                     process.memoryUsage().external (buffers, native objects)
 *   NextGC                       v8 total_heap_size (V8 collects before growing past it)
 *   LastGC, PauseTotalNs, PauseNs, PauseEnd, NumGC, NumForcedGC, GCCPUFraction: the GC monitor
 *   Lookups, Mallocs, Frees, HeapObjects, MSpan*, MCache*, BuckHashSys, BySize: 0 / []
 */
import { getHeapStatistics } from 'node:v8';
import type { GcMonitor } from './gc-monitor.js';

export interface GoMemStats {
  Alloc: number;
  TotalAlloc: number;
  Sys: number;
  Lookups: number;
  Mallocs: number;
  Frees: number;
  HeapAlloc: number;
  HeapSys: number;
  HeapIdle: number;
  HeapInuse: number;
  HeapReleased: number;
  HeapObjects: number;
  StackInuse: number;
  StackSys: number;
  MSpanInuse: number;
  MSpanSys: number;
  MCacheInuse: number;
  MCacheSys: number;
  BuckHashSys: number;
  GCSys: number;
  OtherSys: number;
  NextGC: number;
  LastGC: number;
  PauseTotalNs: number;
  PauseNs: number[];
  PauseEnd: number[];
  NumGC: number;
  NumForcedGC: number;
  GCCPUFraction: number;
  EnableGC: boolean;
  DebugGC: boolean;
  BySize: { Size: number; Mallocs: number; Frees: number }[];
}

export interface GoGcStats {
  /** RFC 3339 time of the last GC (Go's zero time before any). */
  LastGC: string;
  NumGC: number;
  /** Nanoseconds. */
  PauseTotal: number;
  /** Most recent first, nanoseconds. */
  Pause: number[];
  /** Most recent first, RFC 3339. */
  PauseEnd: string[];
  PauseQuantiles: null;
}

const GO_ZERO_TIME = '0001-01-01T00:00:00Z';

export function memStats(gc: GcMonitor): GoMemStats {
  const heap = getHeapStatistics();
  const mem = process.memoryUsage();
  const used = heap.used_heap_size;
  return {
    Alloc: used,
    TotalAlloc: used,
    Sys: mem.rss,
    Lookups: 0,
    Mallocs: 0,
    Frees: 0,
    HeapAlloc: used,
    HeapSys: heap.total_heap_size,
    HeapIdle: Math.max(0, heap.total_heap_size - used),
    HeapInuse: used,
    HeapReleased: Math.max(0, heap.total_heap_size - heap.total_physical_size),
    HeapObjects: 0,
    StackInuse: 0,
    StackSys: 0,
    MSpanInuse: 0,
    MSpanSys: 0,
    MCacheInuse: 0,
    MCacheSys: 0,
    BuckHashSys: 0,
    GCSys: heap.malloced_memory,
    OtherSys: mem.external,
    NextGC: heap.total_heap_size,
    LastGC: Number(gc.lastGcEndNs),
    PauseTotalNs: Number(gc.pauseTotalNs),
    PauseNs: gc.pauseNs.map(Number),
    PauseEnd: gc.pauseEnd.map(Number),
    NumGC: gc.numGC,
    NumForcedGC: gc.numForcedGC,
    GCCPUFraction: gc.cpuFraction(),
    EnableGC: true,
    DebugGC: false,
    BySize: [],
  };
}

export function gcStats(gc: GcMonitor): GoGcStats {
  const recent = gc.recent();
  return {
    LastGC: gc.numGC === 0 ? GO_ZERO_TIME : rfc3339(gc.lastGcEndNs),
    NumGC: gc.numGC,
    PauseTotal: Number(gc.pauseTotalNs),
    Pause: recent.map((p) => Number(p.pause)),
    PauseEnd: recent.map((p) => rfc3339(p.end)),
    PauseQuantiles: null,
  };
}

function rfc3339(unixNs: bigint): string {
  return new Date(Number(unixNs / 1_000_000n)).toISOString();
}
