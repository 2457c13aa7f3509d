/** Tracing over the chain's EVM view and the EVM module's overlay state: geth's struct logger, callTracer and prestateTracer. */
export { traceTransaction, traceBlock } from './trace-tx.js';
export { traceCall, type TraceCallArgs, type TraceCallOptions } from './trace-call.js';
export { createTracer, traceTimeoutMs, parseGoDuration, DEFAULT_TRACE_TIMEOUT_MS, TRACERS } from './create-tracer.js';
export {
  BlockNotFoundError,
  GenesisNotTraceableError,
  TraceCallRejectedError,
  TraceConfigError,
  TraceError,
  TraceTimeoutError,
  TxNotFoundError,
  UnknownTracerError,
} from './errors.js';
export type {
  BlockTraceEntry,
  CallFrame,
  CallLog,
  CallType,
  PrestateAccount,
  PrestateResult,
  StructLog,
  StructLoggerResult,
  TraceConfig,
  Tracer,
} from './types.js';
