/**
 * A TraceConfig → the tracer it names and the time it may run. No tracer name is the struct
 * logger; `callTracer` and `prestateTracer` are geth's native ones. geth's JS tracers are not
 * offered (they would run arbitrary code in the node).
 */
import { CallTracer } from './call-tracer.js';
import { TraceConfigError, UnknownTracerError } from './errors.js';
import { PrestateTracer } from './prestate-tracer.js';
import { StructLogger } from './struct-logger.js';
import type { TraceConfig, Tracer } from './types.js';

/** geth's default per-tx trace timeout. */
export const DEFAULT_TRACE_TIMEOUT_MS = 5_000;

export const TRACERS = ['callTracer', 'prestateTracer'] as const;

export function createTracer(config: TraceConfig = {}): Tracer {
  const name = config.tracer;
  if (name === undefined || name === '') {
    return new StructLogger({
      disableStack: config.disableStack,
      disableStorage: config.disableStorage,
      enableMemory: config.enableMemory,
      enableReturnData: config.enableReturnData,
      limit: config.limit,
    });
  }
  const opts = config.tracerConfig ?? {};
  if (name === 'callTracer') {
    return new CallTracer({ onlyTopCall: flag(opts, 'callTracerConfig', 'onlyTopCall'), withLog: flag(opts, 'callTracerConfig', 'withLog') });
  }
  if (name === 'prestateTracer') {
    const s = 'prestateTracerConfig';
    return new PrestateTracer({
      diffMode: flag(opts, s, 'diffMode'),
      disableCode: flag(opts, s, 'disableCode'),
      disableStorage: flag(opts, s, 'disableStorage'),
      includeEmpty: flag(opts, s, 'includeEmpty'),
    });
  }
  throw new UnknownTracerError(name);
}

/** The trace timeout in ms (geth parses it with time.ParseDuration). */
export function traceTimeoutMs(config: TraceConfig = {}): number {
  return config.timeout === undefined ? DEFAULT_TRACE_TIMEOUT_MS : parseGoDuration(config.timeout);
}

function flag(opts: Record<string, unknown>, struct: string, field: string): boolean {
  const v = opts[field];
  if (v === undefined || v === null) return false;
  if (typeof v !== 'boolean') throw new TraceConfigError(field, `json: cannot unmarshal ${jsonKind(v)} into Go struct field ${struct}.${field} of type bool`);
  return v;
}

function jsonKind(v: unknown): string {
  if (Array.isArray(v)) return 'array';
  return typeof v === 'object' ? 'object' : typeof v;
}

const UNIT_MS: Record<string, number> = { ns: 1e-6, us: 1e-3, µs: 1e-3, μs: 1e-3, ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/** Go's time.ParseDuration ("5s", "1m30s", "300ms", "1.5h"), in milliseconds. */
export function parseGoDuration(text: string): number {
  const invalid = () => new TraceConfigError('timeout', `time: invalid duration "${text}"`);
  let s = text;
  let sign = 1;
  if (s.startsWith('-') || s.startsWith('+')) {
    sign = s.startsWith('-') ? -1 : 1;
    s = s.slice(1);
  }
  if (s === '0') return 0;
  if (s === '') throw invalid();
  if (/^(\d+(\.\d*)?|\.\d+)$/.test(s)) throw new TraceConfigError('timeout', `time: missing unit in duration "${text}"`);
  let total = 0;
  const re = /^(\d+(?:\.\d*)?|\.\d+)(ns|us|µs|μs|ms|s|m|h)/;
  while (s.length > 0) {
    const m = re.exec(s);
    if (m === null) throw invalid();
    total += Number(m[1]) * UNIT_MS[m[2]!]!;
    s = s.slice(m[0].length);
  }
  return sign * total;
}
