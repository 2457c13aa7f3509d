/**
 * Route entries of the `debug` namespace: geth's tracing API and Cosmos EVM's profiling hooks
 * (those gated by `enable-profiling`). Concatenate DEBUG_ROUTES into ETH_ROUTES; the namespace is
 * served when `debug` is in `[json-rpc] api`.
 */
import { blockNumberOf, blockNumberOrHashOf } from '../block-param.js';
import { hashOf, jsonKind, optional, required, stringOf, typeError, type Decoder } from '../params.js';
import { route } from '../route.js';
import { txArgsOf } from '../tx-args.js';
import * as prof from './debug-profiling.js';
import * as trace from './debug-trace.js';
import { traceConfigOf } from './trace-config.js';

/** A Go `int` / `uint` parameter: a JSON integer. */
const goInt =
  (goType: 'int' | 'uint'): Decoder<number> =>
  (raw) => {
    if (typeof raw !== 'number') throw typeError(jsonKind(raw), goType);
    if (!Number.isSafeInteger(raw) || (goType === 'uint' && raw < 0)) throw typeError(`number ${raw}`, goType);
    return raw;
  };

const file = required('file', 'string', stringOf);
const nsec = required('nsec', 'uint', goInt('uint'));
const rate = required('rate', 'int', goInt('int'));
const traceConfig = optional('config', 'TraceConfig', traceConfigOf);
const txHash = required('txHash', 'Hash', hashOf());

const GATED = 'Needs `enable-profiling`.';

export const DEBUG_ROUTES = [
  // ── tracing ──
  route('debug_traceTransaction', {
    params: [txHash, traceConfig],
    handler: trace.traceTransactionHandler,
    doc: 'Replays the tx’s block up to it on the parent state (every tx, Cosmos ones too, as the block ran them) and traces it: struct logger (default), `callTracer`, `prestateTracer`.',
  }),
  route('debug_traceCall', {
    params: [required('transaction', 'TransactionArgs', txArgsOf), required('block', 'BlockNumberOrHash', blockNumberOrHashOf), traceConfig],
    handler: trace.traceCallHandler,
    doc: 'Traces a call on the state after a block, in that block’s environment; `stateOverrides` ignored (as Cosmos EVM).',
  }),
  route('debug_traceBlockByNumber', {
    params: [required('block', 'BlockNumber', blockNumberOf), traceConfig],
    handler: trace.traceBlockByNumberHandler,
    doc: 'Runs the block again (Cosmos txs too) and traces every EVM tx: `[{ txHash, result }]` (`error` for a tx that could not be traced).',
  }),
  route('debug_traceBlockByHash', {
    params: [required('blockHash', 'Hash', hashOf()), traceConfig],
    handler: trace.traceBlockByHashHandler,
    doc: 'As debug_traceBlockByNumber, by CometBFT block hash.',
  }),
  // ── profiling (Cosmos EVM gates all of these) ──
  route('debug_startCPUProfile', {
    params: [file],
    handler: prof.startCPUProfile,
    doc: `Starts the V8 CPU profiler (node:inspector); the file gets a .cpuprofile. ${GATED}`,
  }),
  route('debug_stopCPUProfile', { params: [], handler: prof.stopCPUProfile, doc: `Stops it and writes the profile. ${GATED}` }),
  route('debug_cpuProfile', { params: [file, nsec], handler: prof.cpuProfile, doc: `CPU profile for nsec seconds. ${GATED}` }),
  route('debug_writeMemProfile', { params: [file], handler: prof.writeMemProfile, doc: `V8 heap snapshot (v8.writeHeapSnapshot). ${GATED}` }),
  route('debug_memStats', { params: [], handler: prof.memStats, doc: `Go MemStats fields from process.memoryUsage and v8.getHeapStatistics. ${GATED}` }),
  route('debug_gcStats', { params: [], handler: prof.gcStats, doc: `Go GCStats from observed V8 GC pauses. ${GATED}` }),
  route('debug_freeOSMemory', {
    params: [],
    handler: prof.freeOSMemory,
    doc: `A full GC (global.gc, or one V8 gives the process at run time when --expose-gc was not passed). ${GATED}`,
  }),
  route('debug_setGCPercent', {
    params: [required('v', 'int', goInt('int'))],
    handler: prof.setGCPercent,
    doc: `Records GOGC, returns the previous value (V8 sizes its heap itself). ${GATED}`,
  }),
  route('debug_stacks', { params: [], handler: prof.stacks, doc: `The JS stack, libuv handles and async resources (process.report). ${GATED}` }),
  route('debug_setBlockProfileRate', {
    params: [rate],
    handler: prof.setBlockProfileRate,
    doc: `Starts (> 0) or stops event-loop delay sampling for the block profile. ${GATED}`,
  }),
  route('debug_writeBlockProfile', { params: [file], handler: prof.writeBlockProfile, doc: `Writes the block profile (event-loop delay, JSON). ${GATED}` }),
  route('debug_blockProfile', { params: [file, nsec], handler: prof.blockProfile, doc: `Samples event-loop delay for nsec seconds and writes it. ${GATED}` }),
  route('debug_setMutexProfileFraction', {
    params: [rate],
    handler: prof.setMutexProfileFraction,
    doc: `Starts (> 0) or stops sampling for the mutex profile. ${GATED}`,
  }),
  route('debug_writeMutexProfile', {
    params: [file],
    handler: prof.writeMutexProfile,
    doc: `Writes the mutex profile (event-loop delay and utilization, JSON). ${GATED}`,
  }),
  route('debug_mutexProfile', { params: [file, nsec], handler: prof.mutexProfile, doc: `Samples for nsec seconds and writes the mutex profile. ${GATED}` }),
] as const;
