/**
 * What a handler knows of the call besides its params (CometBFT's rpctypes.Context): who called
 * (the subscriber key), over which transport, under which JSON-RPC id, and — over WebSocket — the
 * session to stream subscription events on.
 */
import type { JsonRpcId } from '../jsonrpc/index.js';

export type Transport = 'uri' | 'jsonrpc' | 'ws';

/** One WebSocket connection's side of a subscription. */
export interface WsSession {
  /** Sends one text frame; false when it was dropped (closed, or backpressure over the limit). */
  send(text: string): boolean;
  /** Runs `fn` once the response to the call in progress has been written (events come after it). */
  afterResponse(fn: () => void): void;
  readonly closed: boolean;
}

export interface CallContext {
  /**
   * The event-bus subscriber key: `ip:port` of the WebSocket connection, as CometBFT keys
   * subscriptions; over HTTP, unique per request (each CometBFT HTTP call runs on its own
   * connection's remote address).
   */
  readonly remoteAddr: string;
  readonly transport: Transport;
  /** The request's JSON-RPC id (-1 for URI calls). */
  readonly id: JsonRpcId;
  /** Present only over WebSocket. */
  readonly ws: WsSession | undefined;
  /** Aborted when the caller is gone (WebSocket closed) or the server stops. */
  readonly signal: AbortSignal;
}
