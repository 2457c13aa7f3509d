/**
 * CometBFT's JSON-RPC response envelopes, written as strings. Error objects come from the shared
 * constructors of src/rpc/jsonrpc with CometBFT's messages.
 *
 * One quirk of `RPCResponse`: its `id` is `omitempty`, so a response without an id (parse error,
 * batch too large) carries no `id` member at all rather than `"id": null`.
 */
import { encodeEventData } from '../../codec/json/comet-json-events.js';
import type { EventMessage } from '../../events/types.js';
import { internalError, invalidParams, invalidRequest, methodNotFound, parseError, serverError, type JsonRpcError, type JsonRpcId } from '../jsonrpc/index.js';

/** CometBFT's texts for the standard codes (rpc/jsonrpc/types). */
export const COMET_ERRORS = {
  parse: (data: string): JsonRpcError => parseError(data, 'Parse error. Invalid JSON'),
  invalidRequest: (data: string): JsonRpcError => invalidRequest(data, 'Invalid Request'),
  methodNotFound: (): JsonRpcError => methodNotFound(undefined, 'Method not found'),
  invalidParams: (data: string): JsonRpcError => invalidParams(data, 'Invalid params'),
  internal: (data: string): JsonRpcError => internalError(data, 'Internal error'),
  server: (data: string): JsonRpcError => serverError(data, 'Server error'),
} as const;

function head(id: JsonRpcId | undefined): string {
  if (id === null || id === undefined) return '{"jsonrpc":"2.0"';
  return `{"jsonrpc":"2.0","id":${JSON.stringify(id)}`;
}

export function successJson(id: JsonRpcId | undefined, result: unknown): string {
  return `${head(id)},"result":${JSON.stringify(result) ?? 'null'}}`;
}

export function errorJson(id: JsonRpcId | undefined, error: JsonRpcError): string {
  const data = typeof error.data === 'string' && error.data !== '' ? `,"data":${JSON.stringify(error.data)}` : '';
  return `${head(id)},"error":{"code":${error.code},"message":${JSON.stringify(error.message)}${data}}}`;
}

export function serverErrorJson(id: JsonRpcId | undefined, data: string): string {
  return errorJson(id, COMET_ERRORS.server(data));
}

/**
 * `"data":…,"events":…` of an event: one serialization per published message however many
 * subscriptions receive it (the bus hands every subscriber the same object).
 */
const encodedEvents = new WeakMap<EventMessage, string>();

function eventBodyJson(msg: EventMessage): string {
  let body = encodedEvents.get(msg);
  if (body === undefined) {
    // `{"data":…,"events":…}` without its braces: the same bytes as the two members written apart.
    body = JSON.stringify({ data: encodeEventData(msg.data), events: msg.events }).slice(1, -1);
    encodedEvents.set(msg, body);
  }
  return body;
}

/**
 * The writer of one subscription's event responses: the envelope around the result (its id and
 * query) is written once at subscribe time, and each event's body spliced in.
 */
export function eventResponseWriter(id: JsonRpcId | undefined, query: string): (msg: EventMessage) => string {
  const prefix = `${head(id)},"result":{"query":${JSON.stringify(query)},`;
  return (msg) => `${prefix}${eventBodyJson(msg)}}}`;
}
