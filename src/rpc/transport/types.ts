/**
 * Public shapes of the HTTP/WebSocket transport. The transport knows no RPC family: it hands each
 * request to `onHttp` and each WebSocket text frame to `WsHandlers.onMessage`, and only adds CORS
 * headers of its own.
 */
import type { Logger } from 'pino';

export type BackendName = 'uws' | 'node';
export type BackendChoice = 'auto' | BackendName;

export interface HttpRequest {
  /** As sent by the client, e.g. `GET` (upper case for all real clients). */
  method: string;
  /** Path without the query string, not percent-decoded. */
  path: string;
  query: URLSearchParams;
  /** The part after `?`, or '' when there is none. */
  rawQuery: string;
  /** Lower-case names; repeated headers are joined with ', ' as node:http does. */
  headers: Record<string, string>;
  body: Uint8Array;
  /** The client's IP address (no port). */
  remoteAddress: string;
}

export interface HttpResponse {
  status: number;
  /** Content-Length is computed by the transport; a handler's own value is ignored. */
  headers?: Record<string, string>;
  body: string | Uint8Array;
}

export interface WsConnection {
  readonly id: number;
  /**
   * `ip:port` (`[ip]:port` for IPv6). uWebSockets.js v20.30 exposes no remote port, so on that
   * backend the port position holds the connection id instead, which keeps the value unique per
   * connection (what subscription keys need).
   */
  readonly remoteAddress: string;
  /** The request path the client upgraded on (useful with `path: '*'`). */
  readonly path: string;
  /** False if the connection is closed or its send buffer is over the backpressure limit. */
  send(text: string): boolean;
  close(code?: number, reason?: string): void;
  readonly closed: boolean;
}

export interface WsHandlers {
  onOpen?(c: WsConnection): void;
  onMessage(c: WsConnection, text: string): void;
  onClose?(c: WsConnection): void;
}

export interface CorsOptions {
  /** Empty = CORS off. `*` allows any origin; an entry may hold one `*` wildcard. */
  allowedOrigins: string[];
  allowedMethods: string[];
  allowedHeaders: string[];
  /**
   * Paths served to their own origin only: no origin is allowed there, so a foreign page's
   * preflight gets no `Access-Control-Allow-Origin` and its request is never readable.
   */
  sameOriginOnly?(path: string): boolean;
}

export interface WebSocketOptions {
  /** Exact path such as `/websocket`, or `*` for any path (the eth WS server). */
  path: string;
  handlers: WsHandlers;
  /** A larger message closes the connection (node: close code 1009; uWS drops the socket, 1006). */
  maxPayloadBytes: number;
  /** Server pings each connection this often. Default 27 000 (CometBFT). */
  pingIntervalMs?: number;
  /** Close a connection that sent nothing (not even a pong) for this long. Default pingIntervalMs + 3000; 0 = never. */
  idleTimeoutMs?: number;
  /** Browser Origins allowed to upgrade (geth rules: `*`, `host`, `scheme://host:port`). Empty/undefined = any. */
  allowedOrigins?: string[];
  /**
   * A connection with more than this many bytes waiting to be written is a slow client: the next
   * `send` closes it with 1008 and a reason instead of buffering further. Default 4 MiB.
   */
  maxBackpressureBytes?: number;
}

/**
 * A transport-level error answer (413, 414, 431, 408, 400, 503…) in the family's own form: a
 * JSON-RPC error object, the routing API's `{code, message, details}`, plain text. `message` is
 * the transport's text naming the limit; the family may word it as its upstream does.
 */
export type TransportErrorFormatter = (status: number, message: string) => HttpResponse;

export interface ServerOptions {
  host: string;
  /** 0 = the OS picks a free port. */
  port: number;
  /** Env CHAINLET_HTTP_BACKEND overrides. Default 'node' (node:http); 'uws' or 'auto' (uWS if it loads) on request. */
  backend?: BackendChoice;
  /** Larger bodies get 413 without being buffered past the limit. */
  maxBodyBytes: number;
  /**
   * Larger request heads get 431. uWebSockets.js itself resets a head over ~128 KiB before any
   * answer can be written, so on that backend the effective limit is the smaller of the two.
   */
  maxHeaderBytes: number;
  /** A longer request target (path and query) gets 414. Default 65 536 (DEFAULT_MAX_URL_BYTES). */
  maxUrlBytes?: number;
  /** 0 = unlimited; connections beyond it are closed at once. */
  maxOpenConnections: number;
  cors?: CorsOptions;
  onHttp(req: HttpRequest): Promise<HttpResponse> | HttpResponse;
  /** The family's form of the transport's own error answers; default plain text. */
  formatTransportError?: TransportErrorFormatter;
  websocket?: WebSocketOptions;
  /** Time allowed to receive a whole request (head and body); over → 408. 0/undefined = node default / none. */
  requestTimeoutMs?: number;
  /** Keep-alive idle timeout for HTTP connections (node backend; uWS has a fixed ~10 s). */
  idleTimeoutMs?: number;
  /** How long stop() waits for in-flight requests before closing them. Default 5000. */
  shutdownTimeoutMs?: number;
  logger?: Logger;
}

export interface RunningServer {
  readonly host: string;
  readonly port: number;
  /** `http://host:port` */
  readonly url: string;
  /** `ws://host:port` plus the WebSocket path when it is not `*`. */
  readonly wsUrl: string;
  readonly backend: BackendName;
  /**
   * node: open TCP connections (idle keep-alive ones included). uWS has no per-connection hook
   * for HTTP, so there it is in-flight HTTP requests plus open WebSockets.
   */
  connections(): number;
  /** Graceful: stop accepting, close WebSockets with 1001, let in-flight requests finish, free every handle. */
  stop(): Promise<void>;
}
