/**
 * The transport's own error answers (413, 414, 431, 408, 400, 503): one default text per status
 * naming the limit, put in the family's form by its `formatTransportError`, else plain text.
 */
import type { HttpResponse, TransportErrorFormatter } from './types.js';

/** Default request-target limit: below the ~128 KiB head uWebSockets.js resets unanswered. */
export const DEFAULT_MAX_URL_BYTES = 65_536;

/** Close code of a WebSocket client that stopped reading (RFC 6455 1008, policy violation). */
export const SLOW_CLIENT_CLOSE_CODE = 1008;

export function slowClientReason(maxBytes: number): string {
  return `slow client: over ${maxBytes} bytes waiting to be sent`;
}

const TEXT_TYPE = { 'content-type': 'text/plain; charset=utf-8' };

export const plainTransportError: TransportErrorFormatter = (status, message) => ({ status, headers: TEXT_TYPE, body: `${message}\n` });

/**
 * A JSON-RPC 2.0 error object with id null, as the JSON-RPC families answer a request they could
 * not read: -32600 (invalid request) for the client's faults, -32603 for the server's.
 */
export function jsonRpcTransportError(status: number, message: string): HttpResponse {
  const code = status >= 500 ? -32603 : -32600;
  return { status, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: null, error: { code, message } }) };
}
