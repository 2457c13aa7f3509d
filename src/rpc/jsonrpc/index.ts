export type { JsonRpcError, JsonRpcFailure, JsonRpcId, JsonRpcRequest, JsonRpcResponse, JsonRpcSuccess } from './types.js';
export {
  ErrorCode,
  JsonRpcErrorException,
  SPEC_ERROR_TEXTS,
  internalError,
  invalidParams,
  invalidRequest,
  methodNotFound,
  parseError,
  resolveTexts,
  responseTooLarge,
  rpcError,
  serverError,
  type ErrorTexts,
} from './errors.js';
export { InvalidRequestItem, parseJsonRpcBody, validateRequest, type BatchItem, type ParseOptions, type ParsedBody } from './parse.js';
export { dispatchJsonRpc, type DispatchOptions, type DispatchResult, type JsonRpcCall } from './dispatch.js';
export { errorJson, successJson } from './serialize.js';
export { DEFAULT_MAX_JSON_DEPTH, depthReason, jsonDepthExceeds } from './depth.js';
export { methodTable } from './table.js';
