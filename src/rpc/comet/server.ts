/**
 * startCometRpc: the CometBFT v0.38 node RPC of one node on the shared transport, at
 * `[rpc] laddr` (port 0 = the OS picks): URI and JSON-RPC over HTTP, JSON-RPC over
 * `/websocket`, with the `[rpc]` limits, CORS and the unsafe switch.
 */
import { parseListenAddress } from '../../config/listen-address.js';
import { corsOptionsOf, startHttpServer, type BackendChoice, type BackendName, type HttpResponse } from '../transport/index.js';
import { COMET_ERRORS, errorJson } from './envelope.js';
import type { CometEnv } from './env.js';
import { createCometHttpHandler, WEBSOCKET_PATH } from './http-handler.js';
import { routesFor } from './routes.js';
import { createCometWsHandlers } from './ws-handler.js';

/** CometBFT's WebSocket timings: a ping every 27 s, a connection silent for 30 s is dropped. */
const PING_INTERVAL_MS = 27_000;
const READ_WAIT_MS = 30_000;
const HTTP_READ_TIMEOUT_MS = 10_000;

export interface CometRpcOptions {
  /** HTTP backend (default auto: uWebSockets.js when it loads). */
  backend?: BackendChoice;
  /** WebSocket keep-alive, for tests; defaults are CometBFT's 27 s / 30 s. */
  pingIntervalMs?: number;
  idleTimeoutMs?: number;
}

export interface CometRpcServer {
  /** http://host:port */
  readonly url: string;
  /** ws://host:port/websocket */
  readonly wsUrl: string;
  readonly backend: BackendName;
  stop(): Promise<void>;
}

/**
 * The transport's own errors as CometBFT's JSON-RPC server words them: an `Invalid Request` error
 * object whose data says what failed (net/http's text for an oversized body).
 */
function cometTransportError(status: number, message: string): HttpResponse {
  const data = status === 413 ? 'error reading request body: http: request body too large' : message;
  const error = status >= 500 ? COMET_ERRORS.internal(data) : COMET_ERRORS.invalidRequest(data);
  return { status, headers: { 'content-type': 'application/json' }, body: errorJson(undefined, error) };
}

/** Serves the CometBFT RPC over `env` at its `[rpc] laddr`. */
export async function startCometServer(initialEnv: CometEnv, opts: CometRpcOptions = {}): Promise<CometRpcServer> {
  const cfg = initialEnv.config;
  const { host, port } = parseListenAddress(cfg.laddr, '[rpc] laddr');
  let env: CometEnv = initialEnv;
  const logger = env.logger;
  const routes = routesFor({ unsafe: cfg.unsafe });
  const stopping = new AbortController();
  const ws = createCometWsHandlers({ routes, env: () => env, maxJsonDepth: cfg.maxJsonDepth, logger });
  const onHttp = createCometHttpHandler({
    routes,
    env: () => env,
    maxBatch: cfg.maxRequestBatchSize,
    maxJsonDepth: cfg.maxJsonDepth,
    logger,
    signal: stopping.signal,
  });

  const server = await startHttpServer({
    host,
    port,
    backend: opts.backend,
    maxBodyBytes: cfg.maxBodyBytes,
    maxHeaderBytes: cfg.maxHeaderBytes,
    maxUrlBytes: cfg.maxUrlBytes,
    maxOpenConnections: cfg.maxOpenConnections,
    cors: corsOptionsOf(cfg.corsAllowedOrigins, cfg.corsAllowedMethods, cfg.corsAllowedHeaders),
    onHttp,
    formatTransportError: cometTransportError,
    websocket: {
      path: WEBSOCKET_PATH,
      handlers: ws,
      maxPayloadBytes: cfg.maxBodyBytes,
      maxBackpressureBytes: cfg.experimentalWebsocketWriteBufferBytes,
      pingIntervalMs: opts.pingIntervalMs ?? PING_INTERVAL_MS,
      idleTimeoutMs: opts.idleTimeoutMs ?? (opts.pingIntervalMs !== undefined ? opts.pingIntervalMs + 3_000 : READ_WAIT_MS),
    },
    // CometBFT's HTTP read timeout (receiving the request, not answering it).
    requestTimeoutMs: HTTP_READ_TIMEOUT_MS,
    logger,
  });
  const rpcAddress = `tcp://${host.includes(':') ? `[${host}]` : host}:${server.port}`;
  env = { ...env, nodeInfo: { ...env.nodeInfo, rpcAddress } };
  logger.info({ url: server.url, backend: server.backend, unsafe: cfg.unsafe }, 'CometBFT RPC listening');

  let stopped: Promise<void> | undefined;
  return {
    url: server.url,
    wsUrl: server.wsUrl,
    backend: server.backend,
    stop() {
      stopped ??= (async () => {
        stopping.abort();
        ws.closeAll();
        await server.stop();
      })();
      return stopped;
    },
  };
}
