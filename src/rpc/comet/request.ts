/**
 * CometBFT's reading of a JSON-RPC body (rpc/jsonrpc/types RPCRequest.UnmarshalJSON), which is
 * looser and stricter than the spec in its own ways:
 *  - `jsonrpc` is not checked; a missing `method` is the empty method (→ Method not found);
 *  - an absent or null `id` makes a notification (skipped, no answer);
 *  - an id must be a string or a whole number; any other id, or any element that is not an
 *    object, fails the whole body as a parse error (Go unmarshals the array in one go);
 *  - `[]` is a valid, empty batch (answered with nothing).
 * Before any of that, a body nested deeper than `max_json_depth` is refused unparsed ('too-deep':
 * -32600, HTTP 200), so nothing below recurses into it.
 */
import { DEFAULT_MAX_JSON_DEPTH, depthReason, jsonDepthExceeds, type JsonRpcId } from '../jsonrpc/index.js';

export interface CometRequest {
  /** undefined = notification. */
  id: Exclude<JsonRpcId, null> | undefined;
  method: string;
  /** Raw params as sent (object, array, or anything else, which fails param conversion). */
  params: unknown;
  hasParams: boolean;
}

export type ParsedRequests =
  | { kind: 'requests'; requests: CometRequest[]; isArray: boolean }
  /** `reason` goes after "error unmarshaling request: ". */
  | { kind: 'parse-error'; reason: string }
  | { kind: 'too-deep'; reason: string };

class RequestShapeError extends Error {}

function goKind(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'object') return 'object';
  if (typeof v === 'boolean') return 'bool';
  return typeof v;
}

function readId(v: unknown): Exclude<JsonRpcId, null> {
  if (typeof v === 'string') return v;
  if (typeof v === 'number') {
    if (!Number.isFinite(v)) throw new RequestShapeError(`json-rpc ID must be a finite number, got ${v}`);
    if (!Number.isInteger(v)) throw new RequestShapeError(`json-rpc ID must be a whole number, got ${v}`);
    if (Math.abs(v) >= 2 ** 63) throw new RequestShapeError(`json-rpc ID out of int64 range, got ${v}`);
    return v;
  }
  const kind = typeof v === 'boolean' ? 'bool' : Array.isArray(v) ? '[]interface {}' : 'map[string]interface {}';
  throw new RequestShapeError(`json-rpc ID (${JSON.stringify(v)}) is of unknown type (${kind})`);
}

function readRequest(v: unknown): CometRequest {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) {
    throw new RequestShapeError(`json: cannot unmarshal ${goKind(v)} into Go value of type types.RPCRequest`);
  }
  const o = v as Record<string, unknown>;
  for (const field of ['jsonrpc', 'method'] as const) {
    const f = o[field];
    if (f !== undefined && f !== null && typeof f !== 'string') {
      throw new RequestShapeError(`json: cannot unmarshal ${goKind(f)} into Go struct field .${field} of type string`);
    }
  }
  const hasParams = o.params !== undefined;
  if (o.id === undefined || o.id === null) return { id: undefined, method: String(o.method ?? ''), params: o.params, hasParams };
  return { id: readId(o.id), method: String(o.method ?? ''), params: o.params, hasParams };
}

/** Go's json error for text that is not JSON at all. */
function syntaxReason(text: string, err: unknown): string {
  const t = text.trim();
  if (t === '') return 'unexpected end of JSON input';
  const c = t[0]!;
  if (!/[-0-9"{[tfn]/.test(c)) return `invalid character '${c}' looking for beginning of value`;
  return err instanceof Error ? err.message : String(err);
}

export function parseCometRequests(text: string, maxDepth = DEFAULT_MAX_JSON_DEPTH): ParsedRequests {
  if (jsonDepthExceeds(text, maxDepth)) return { kind: 'too-deep', reason: depthReason(maxDepth) };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    return { kind: 'parse-error', reason: syntaxReason(text, err) };
  }
  try {
    if (Array.isArray(value)) return { kind: 'requests', requests: value.map(readRequest), isArray: true };
    return { kind: 'requests', requests: [readRequest(value)], isArray: false };
  } catch (err) {
    if (err instanceof RequestShapeError) {
      // Go retries the body as a single request; an array then fails as one.
      return { kind: 'parse-error', reason: Array.isArray(value) ? 'json: cannot unmarshal array into Go value of type types.RPCRequest' : err.message };
    }
    throw err;
  }
}

/** WebSocket frames carry one request each: an array is a parse error there. */
export function parseCometWsRequest(
  text: string,
  maxDepth = DEFAULT_MAX_JSON_DEPTH,
): { kind: 'request'; request: CometRequest } | { kind: 'parse-error' | 'too-deep'; reason: string } {
  const parsed = parseCometRequests(text, maxDepth);
  if (parsed.kind !== 'requests') return parsed;
  if (parsed.isArray) return { kind: 'parse-error', reason: 'json: cannot unmarshal array into Go value of type types.RPCRequest' };
  return { kind: 'request', request: parsed.requests[0]! };
}
