/**
 * Body → JSON-RPC request(s), with the structural checks of the spec:
 *  - nested deeper than `maxDepth` (checked on the raw text, before JSON.parse)
 *                            → parse error (-32700), id null;
 *  - not JSON                → parse error (-32700), id null;
 *  - `[]`                    → one invalid request (-32600), id null;
 *  - element not an object, `jsonrpc` not "2.0", `method` not a string, `id` not
 *    string/number/null, or a number JSON.parse cannot keep (1e400 → Infinity)
 *                            → invalid request for that element (its id echoed when usable, else null).
 * Ids are echoed as parsed: a string exactly, a number in its shortest form (`1.0` → `1`).
 * In a batch each element is checked on its own, so one bad element does not sink the others.
 * Params are not looked at: each family decodes its own.
 */
import { DEFAULT_MAX_JSON_DEPTH, depthReason, jsonDepthExceeds } from './depth.js';
import { ErrorCode, resolveTexts, rpcError, type ErrorTexts } from './errors.js';
import type { JsonRpcError, JsonRpcId, JsonRpcRequest } from './types.js';

/** A batch element that failed validation; answered with `error` under `id`. */
export class InvalidRequestItem {
  constructor(
    readonly error: JsonRpcError,
    readonly id: JsonRpcId,
  ) {}
}

export type BatchItem = JsonRpcRequest | InvalidRequestItem;

export type ParsedBody = { kind: 'single'; req: JsonRpcRequest } | { kind: 'batch'; reqs: BatchItem[] } | { kind: 'error'; error: JsonRpcError; id: JsonRpcId };

export interface ParseOptions {
  texts?: Partial<ErrorTexts>;
  /** Put the reason (e.g. `method must be a string`) in `data`. Default true; geth sends none. */
  reasonAsData?: boolean;
  /** Deepest nesting of arrays/objects accepted; default DEFAULT_MAX_JSON_DEPTH, 0 = no limit. */
  maxDepth?: number;
}

const decoder = new TextDecoder();

export function parseJsonRpcBody(body: string | Uint8Array, opts?: ParseOptions): ParsedBody {
  const texts = resolveTexts(opts?.texts);
  const withData = opts?.reasonAsData ?? true;
  const maxDepth = opts?.maxDepth ?? DEFAULT_MAX_JSON_DEPTH;
  if (jsonDepthExceeds(body, maxDepth)) {
    return { kind: 'error', error: rpcError(ErrorCode.ParseError, texts.parse, withData ? depthReason(maxDepth) : undefined), id: null };
  }
  let value: unknown;
  try {
    value = JSON.parse(typeof body === 'string' ? body : decoder.decode(body));
  } catch (err) {
    const data = withData ? `error unmarshaling request: ${(err as Error).message}` : undefined;
    return { kind: 'error', error: rpcError(ErrorCode.ParseError, texts.parse, data), id: null };
  }
  if (Array.isArray(value)) {
    if (value.length === 0) {
      const data = withData ? 'empty batch' : undefined;
      return { kind: 'error', error: rpcError(ErrorCode.InvalidRequest, texts.invalidRequest, data), id: null };
    }
    const reqs: BatchItem[] = new Array(value.length);
    for (let i = 0; i < value.length; i++) reqs[i] = validateRequest(value[i], texts, withData);
    return { kind: 'batch', reqs };
  }
  const item = validateRequest(value, texts, withData);
  if (item instanceof InvalidRequestItem) return { kind: 'error', error: item.error, id: item.id };
  return { kind: 'single', req: item };
}

/** Check one decoded value; returns it unchanged (no copy) when valid. */
export function validateRequest(value: unknown, texts: ErrorTexts, withData = true): BatchItem {
  const fail = (reason: string, id: JsonRpcId): InvalidRequestItem =>
    new InvalidRequestItem(rpcError(ErrorCode.InvalidRequest, texts.invalidRequest, withData ? reason : undefined), id);

  if (typeof value !== 'object' || value === null || Array.isArray(value)) return fail('request must be an object', null);
  const v = value as Record<string, unknown>;
  const id = v['id'];
  if (id !== undefined && id !== null && typeof id !== 'string' && (typeof id !== 'number' || !Number.isFinite(id))) {
    return fail('id must be a string, a number or null', null);
  }
  const echoId = id === undefined ? null : id;
  if (v['jsonrpc'] !== '2.0') return fail('jsonrpc must be "2.0"', echoId);
  if (typeof v['method'] !== 'string') return fail('method must be a string', echoId);
  return value as JsonRpcRequest;
}
