/**
 * Routing API errors. Every failure a handler can meet is a `RoutingError` subclass carrying its
 * gRPC status code; `errorResponse` is the one place that turns an error into the wire body
 * `{code, message, details: []}` and the HTTP status gRPC-gateway would use for that code.
 * Where the Skip Go API fixes a text (`tx must be base64 encoded`, `chain ID not supported`,
 * `tx is invalid on chain`, `tx not found`, `internal server error`), `message` is that exact text.
 */

/** gRPC status codes (grpc/doc/statuscodes.md) used by this API. */
export const GrpcCode = {
  UNKNOWN: 2,
  INVALID_ARGUMENT: 3,
  NOT_FOUND: 5,
  RESOURCE_EXHAUSTED: 8,
  UNIMPLEMENTED: 12,
  UNAVAILABLE: 14,
  UNAUTHENTICATED: 16,
} as const;
export type GrpcCodeValue = (typeof GrpcCode)[keyof typeof GrpcCode];

/** HTTP status for each code, as grpc-gateway's HTTPStatusFromCode maps them. */
const HTTP_STATUS: Record<GrpcCodeValue, number> = {
  2: 500,
  3: 400,
  5: 404,
  8: 429,
  12: 501,
  14: 503,
  16: 401,
};

export function httpStatusOf(code: GrpcCodeValue): number {
  return HTTP_STATUS[code];
}

/** The error body of every routing API failure. `details` is always empty here. */
export interface ErrorBody {
  code: number;
  message: string;
  details: never[];
}

export abstract class RoutingError extends Error {
  abstract readonly code: GrpcCodeValue;
  /** Overrides the HTTP status the code maps to (e.g. 405 for a wrong method). */
  readonly httpStatus?: number;
  /** Extra response headers (e.g. Retry-After). */
  readonly headers?: Record<string, string>;

  constructor(message: string, opts?: { cause?: unknown }) {
    super(message, opts);
    this.name = new.target.name;
  }
}

export class InvalidArgumentError extends RoutingError {
  readonly code = GrpcCode.INVALID_ARGUMENT;
}

export class NotFoundError extends RoutingError {
  readonly code = GrpcCode.NOT_FOUND;
}

export class TxNotBase64Error extends InvalidArgumentError {
  constructor() {
    super('tx must be base64 encoded');
  }
}

export class TxInvalidOnChainError extends InvalidArgumentError {
  /** What the chain says of the tx (result code and log), for the logs. */
  readonly chainCode: number;
  readonly chainLog: string;

  constructor(args: { chainCode: number; chainLog: string }) {
    super('tx is invalid on chain');
    this.chainCode = args.chainCode;
    this.chainLog = args.chainLog;
  }
}

/** The chain refused a submitted tx at CheckTx or mempool admission; `message` is the chain's own text. */
export class TxRejectedError extends InvalidArgumentError {
  readonly chainCode: number;
  readonly codespace: string;

  constructor(args: { log: string; chainCode: number; codespace: string }) {
    super(args.log || `tx rejected with code ${args.chainCode}`);
    this.chainCode = args.chainCode;
    this.codespace = args.codespace;
  }
}

export class ChainNotSupportedError extends NotFoundError {
  readonly chainId: string;

  constructor(chainId: string) {
    super('chain ID not supported');
    this.chainId = chainId;
  }
}

export class TxNotFoundError extends NotFoundError {
  readonly txHash: string;

  constructor(txHash: string) {
    super('tx not found');
    this.txHash = txHash;
  }
}

export class RouteNotFoundError extends NotFoundError {
  readonly path: string;

  constructor(path: string) {
    super('Not Found');
    this.path = path;
  }
}

export class MethodNotAllowedError extends RoutingError {
  readonly code = GrpcCode.UNIMPLEMENTED;
  override readonly httpStatus = 405;
  override readonly headers: Record<string, string>;

  constructor(allowed: string[]) {
    super('Method Not Allowed');
    this.headers = { allow: allowed.join(', ') };
  }
}

export class UnauthenticatedError extends RoutingError {
  readonly code = GrpcCode.UNAUTHENTICATED;

  constructor() {
    super('invalid API key');
  }
}

export class RateLimitedError extends RoutingError {
  readonly code = GrpcCode.RESOURCE_EXHAUSTED;
  override readonly headers: Record<string, string>;
  readonly retryAfterMs: number;

  constructor(retryAfterMs: number) {
    super('rate limit exceeded');
    this.retryAfterMs = retryAfterMs;
    this.headers = { 'retry-after': String(Math.max(1, Math.ceil(retryAfterMs / 1000))) };
  }
}

/** The mempool is full: the chain cannot take more txs right now. */
export class ChainBusyError extends RoutingError {
  readonly code = GrpcCode.RESOURCE_EXHAUSTED;
}

/** Anything unexpected. The cause is logged; the caller only sees the fixed text. */
export class InternalError extends RoutingError {
  readonly code = GrpcCode.UNKNOWN;

  constructor(cause?: unknown) {
    super('internal server error', { cause });
  }
}

/** A `[routing]` setting that cannot work (bad price, bad address). Thrown at start, never served. */
export class RoutingConfigError extends Error {
  readonly key: string;

  constructor(key: string, problem: string) {
    super(`[routing] ${key}: ${problem}`);
    this.name = 'RoutingConfigError';
    this.key = key;
  }
}

export interface ErrorReply {
  status: number;
  headers: Record<string, string>;
  body: ErrorBody;
  /** True when the error was not a RoutingError: the caller logs it. */
  internal: boolean;
}

/** The single mapping from any thrown value to the wire error. */
export function errorResponse(err: unknown): ErrorReply {
  const e = err instanceof RoutingError ? err : new InternalError(err);
  return {
    status: e.httpStatus ?? httpStatusOf(e.code),
    headers: e.headers ?? {},
    body: { code: e.code, message: e.message, details: [] },
    internal: !(err instanceof RoutingError) || err instanceof InternalError,
  };
}

/** A problem with the API key store (bad file, bad name). Raised by `chainlet keys` and at start. */
export class ApiKeyStoreError extends Error {
  readonly path: string | undefined;

  constructor(message: string, opts?: { path?: string; cause?: unknown }) {
    super(opts?.path ? `${opts.path}: ${message}` : message, { cause: opts?.cause });
    this.name = 'ApiKeyStoreError';
    this.path = opts?.path;
  }
}

/** A balance could not be read for one denom; shown in that denom's `error.message`, not as a request error. */
export class DenomBalanceError extends Error {
  readonly denom: string;

  constructor(denom: string, message: string, opts?: { cause?: unknown }) {
    super(message, opts);
    this.name = 'DenomBalanceError';
    this.denom = denom;
  }
}
