/**
 * startCometRpc: the CometBFT v0.38 node RPC of one node on the shared transport, at
 * `[rpc] laddr` (port 0 = the OS picks): URI and JSON-RPC over HTTP, JSON-RPC over
 * `/websocket`, with the `[rpc]` limits, CORS and the unsafe switch.
 */
import { parseListenAddress } from '../../config/listen-address.js';
import { startHttpServer, type BackendChoice, type BackendName } from '../transport/index.js';
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

/** Serves the CometBFT RPC over `env` at its `[rpc] laddr`. */
export async function startCometServer(initialEnv: CometEnv, opts: CometRpcOptions = {}): Promise<CometRpcServer> {
  const cfg = initialEnv.config;
  const { host, port } = parseListenAddress(cfg.laddr, '[rpc] laddr');
  let env: CometEnv = initialEnv;
  const logger = env.logger;
  const routes = routesFor({ unsafe: cfg.unsafe });
  const stopping = new AbortController();
  const ws = createCometWsHandlers({ routes, env: () => env, logger });
  const onHttp = createCometHttpHandler({ routes, env: () => env, maxBatch: cfg.maxRequestBatchSize, logger, signal: stopping.signal });

  const server = await startHttpServer({
    host,
    port,
    backend: opts.backend,
    maxBodyBytes: cfg.maxBodyBytes,
    maxHeaderBytes: cfg.maxHeaderBytes,
    maxOpenConnections: cfg.maxOpenConnections,
    cors:
      cfg.corsAllowedOrigins.length > 0
        ? { allowedOrigins: cfg.corsAllowedOrigins, allowedMethods: cfg.corsAllowedMethods, allowedHeaders: cfg.corsAllowedHeaders }
        : undefined,
    onHttp,
    onBodyTooLarge: () => errorJson(undefined, COMET_ERRORS.invalidRequest('error reading request body: http: request body too large')),
    websocket: {
      path: WEBSOCKET_PATH,
      handlers: ws,
      maxPayloadBytes: cfg.maxBodyBytes,
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
