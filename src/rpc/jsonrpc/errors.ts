/**
 * JSON-RPC error objects and the exception that carries one out of a handler.
 *
 * Constructors default to the JSON-RPC 2.0 spec texts; a family passes its own (CometBFT says
 * `Parse error. Invalid JSON`, geth `the method x does not exist/is not available`) either per
 * call or as an `ErrorTexts` table to parse and dispatch.
 */
import type { JsonRpcError } from './types.js';

export const ErrorCode = {
  ParseError: -32700,
  InvalidRequest: -32600,
  MethodNotFound: -32601,
  InvalidParams: -32602,
  InternalError: -32603,
  ServerError: -32000,
  /** geth's code for a (batch) response over batch-response-max-size. */
  ResponseTooLarge: -32003,
} as const;

/** The message of each error the core itself produces. */
export interface ErrorTexts {
  parse: string;
  invalidRequest: string;
  methodNotFound: string;
  invalidParams: string;
  internal: string;
  server: string;
  responseTooLarge: string;
}

export const SPEC_ERROR_TEXTS: Readonly<ErrorTexts> = Object.freeze({
  parse: 'Parse error',
  invalidRequest: 'Invalid Request',
  methodNotFound: 'Method not found',
  invalidParams: 'Invalid params',
  internal: 'Internal error',
  server: 'Server error',
  responseTooLarge: 'response too large',
});

/** A family passes one texts object for every request: merged once. */
const resolved = new WeakMap<Partial<ErrorTexts>, ErrorTexts>();

export function resolveTexts(texts: Partial<ErrorTexts> | undefined): ErrorTexts {
  if (!texts) return SPEC_ERROR_TEXTS;
  let out = resolved.get(texts);
  // Frozen: callers share it (a caller's later change to `texts` would not show; families pass constants).
  if (!out) resolved.set(texts, (out = Object.freeze({ ...SPEC_ERROR_TEXTS, ...texts })));
  return out;
}

/** `data` is left out of the object when undefined, so it never shows as a key. */
export function rpcError(code: number, message: string, data?: unknown): JsonRpcError {
  return data === undefined ? { code, message } : { code, message, data };
}

export const parseError = (data?: unknown, message = SPEC_ERROR_TEXTS.parse): JsonRpcError => rpcError(ErrorCode.ParseError, message, data);
export const invalidRequest = (data?: unknown, message = SPEC_ERROR_TEXTS.invalidRequest): JsonRpcError => rpcError(ErrorCode.InvalidRequest, message, data);
export const methodNotFound = (data?: unknown, message = SPEC_ERROR_TEXTS.methodNotFound): JsonRpcError => rpcError(ErrorCode.MethodNotFound, message, data);
export const invalidParams = (data?: unknown, message = SPEC_ERROR_TEXTS.invalidParams): JsonRpcError => rpcError(ErrorCode.InvalidParams, message, data);
export const internalError = (data?: unknown, message = SPEC_ERROR_TEXTS.internal): JsonRpcError => rpcError(ErrorCode.InternalError, message, data);
export const serverError = (data?: unknown, message = SPEC_ERROR_TEXTS.server): JsonRpcError => rpcError(ErrorCode.ServerError, message, data);
export const responseTooLarge = (data?: unknown, message = SPEC_ERROR_TEXTS.responseTooLarge): JsonRpcError =>
  rpcError(ErrorCode.ResponseTooLarge, message, data);

/** Thrown by a handler to answer with exactly this error object. */
export class JsonRpcErrorException extends Error {
  override name = 'JsonRpcErrorException';
  constructor(
    readonly error: JsonRpcError,
    options?: { cause?: unknown },
  ) {
    super(error.message, options);
  }

  get code(): number {
    return this.error.code;
  }
}
