/**
 * Errors of tracing, worded as geth's tracing API words them (eth/tracers/api.go) so that clients
 * that match on text keep working. The RPC maps every one to -32000.
 */
import { EvmAppError, type TxRejectedError } from '../errors.js';

export class TraceError extends EvmAppError {
  override name = 'TraceError';
}

/** debug_traceTransaction of a hash no block contains. */
export class TxNotFoundError extends TraceError {
  override name = 'TxNotFoundError';
  constructor(readonly hash: string) {
    super('transaction not found');
  }
}

/** A block number or hash the chain does not have. */
export class BlockNotFoundError extends TraceError {
  override name = 'BlockNotFoundError';
  constructor(readonly block: number | string) {
    super(typeof block === 'number' ? `block #${block} not found` : `block ${block} not found`);
  }
}

/** Block 0 has no txs and no parent state to replay from. */
export class GenesisNotTraceableError extends TraceError {
  override name = 'GenesisNotTraceableError';
  constructor() {
    super('genesis is not traceable');
  }
}

/** A tracer name other than the built-in ones (JS tracers are not offered). */
export class UnknownTracerError extends TraceError {
  override name = 'UnknownTracerError';
  constructor(readonly tracer: string) {
    super(`tracer not found: ${tracer} (available: callTracer, prestateTracer, or none for the struct logger)`);
  }
}

/** A TraceConfig value of the wrong kind; the message is Go's decoding error, as geth returns it. */
export class TraceConfigError extends TraceError {
  override name = 'TraceConfigError';
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(message);
  }
}

/** The trace ran past its `timeout` (geth: the tracer is stopped with this error). */
export class TraceTimeoutError extends TraceError {
  override name = 'TraceTimeoutError';
  constructor(readonly timeoutMs: number) {
    super('execution timeout');
  }
}

/** debug_traceCall's message failed validation (funds, intrinsic gas, fee); nothing ran. */
export class TraceCallRejectedError extends TraceError {
  override name = 'TraceCallRejectedError';
  constructor(readonly rejection: TxRejectedError) {
    super(rejection.log);
  }
}
