/**
 * The Ethereum JSON-RPC servers of a node, as Cosmos EVM runs them: HTTP on `[json-rpc] address`
 * and WebSocket on its own listener, `ws-address`, both on the shared transport (uWebSockets.js,
 * node:http fallback) and one dispatcher. HTTP follows geth's rules: POST with
 * `Content-Type: application/json`, body at most `http-body-limit`; CORS for the origins of
 * `http-corsdomain` (geth's `--http.corsdomain`: any in the devnet, none on a home). Transport
 * errors (405, 413, 414, 415, 431…) are JSON-RPC error objects. The WS listener also answers
 * JSON-RPC POSTs.
 */
import { parseListenAddress } from '../../config/listen-address.js';
import type { Logger } from 'pino';
import {
  corsOptionsOf,
  jsonRpcTransportError,
  startHttpServer,
  type HttpRequest,
  type HttpResponse,
  type RunningServer,
  type WsConnection,
} from '../transport/index.js';
import type { WsSession } from './route.js';
import { listenerControl, ManagedListener } from './namespaces/listener-control.js';
import type { EthService } from './service.js';

export interface RunningEthRpc {
  /** http://host:port */
  url: string;
  /** ws://host:port */
  wsUrl: string;
  stop(): Promise<void>;
}

// Frozen: the transport validates it and merges CORS into it once, not per response.
const JSON_HEADERS = Object.freeze({ 'content-type': 'application/json' });
const CORS_METHODS = ['GET', 'POST', 'HEAD'];
const CORS_HEADERS = ['Origin', 'Accept', 'Content-Type', 'X-Requested-With'];

class Session implements WsSession {
  private listeners: (() => void)[] = [];
  constructor(private readonly conn: WsConnection) {}
  get id(): number {
    return this.conn.id;
  }
  send(text: string): boolean {
    return this.conn.send(text);
  }
  onClose(listener: () => void): void {
    this.listeners.push(listener);
  }
  closed(): void {
    const ls = this.listeners;
    this.listeners = [];
    for (const l of ls) l();
  }
}

/** Serves `service` on `[json-rpc] address` (HTTP) and `ws-address`; its owner (the node) closes the service. */
export async function startEthServer(service: EthService, logger: Logger): Promise<RunningEthRpc> {
  const cfg = service.env.config;
  const { dispatcher } = service;
  const log = logger.child({ module: 'eth-rpc' });

  const onHttp = async (req: HttpRequest): Promise<HttpResponse> => {
    if (req.method !== 'POST') return jsonRpcTransportError(405, 'method not allowed');
    const raw = req.headers['content-type'];
    // What clients send, compared as is; anything else (parameters, case, spaces) is parsed.
    const type = raw === 'application/json' ? raw : (raw ?? '').split(';')[0]!.trim().toLowerCase();
    if (type !== 'application/json') return jsonRpcTransportError(415, 'invalid content type, only application/json is supported');
    const body = await dispatcher.handleBody(req.body, { transport: 'http' });
    return { status: 200, headers: JSON_HEADERS, body: body ?? '' };
  };

  const sessions = new Map<WsConnection, Session>();
  const sessionOf = (c: WsConnection) => {
    let s = sessions.get(c);
    if (!s) sessions.set(c, (s = new Session(c)));
    return s;
  };
  const common = {
    maxBodyBytes: cfg.maxBodyBytes,
    maxHeaderBytes: cfg.maxHeaderBytes,
    maxUrlBytes: cfg.maxUrlBytes,
    maxOpenConnections: cfg.maxOpenConnections,
    requestTimeoutMs: cfg.httpTimeoutMs,
    idleTimeoutMs: cfg.httpIdleTimeoutMs,
    cors: corsOptionsOf(cfg.httpCorsDomain, CORS_METHODS, CORS_HEADERS),
    onHttp,
    formatTransportError: jsonRpcTransportError,
    logger: log,
  };

  // Managed listeners, so admin_stopHTTP / admin_startHTTP (and WS) can really stop and restart them.
  const httpAddr = parseListenAddress(cfg.address, '[json-rpc] address');
  const wsAddr = parseListenAddress(cfg.wsAddress, '[json-rpc] ws-address');
  const http = new ManagedListener('HTTP', httpAddr.host, httpAddr.port, (host, port) => startHttpServer({ ...common, host, port }));
  const ws = new ManagedListener('WebSocket', wsAddr.host, wsAddr.port, (host, port) =>
    startHttpServer({
      ...common,
      host,
      port,
      websocket: {
        path: '*',
        maxPayloadBytes: cfg.maxBodyBytes,
        maxBackpressureBytes: cfg.wsWriteBufferBytes,
        allowedOrigins: cfg.wsOrigins,
        handlers: {
          onOpen: (c) => void sessionOf(c),
          onMessage: (c, text) => {
            const session = sessionOf(c);
            dispatcher.handleBody(text, { session, transport: 'ws' }).then(
              (out) => {
                if (out !== undefined && !c.closed) c.send(out);
              },
              (err: unknown) => log.error({ err }, 'websocket request failed'),
            );
          },
          onClose: (c) => {
            sessions.get(c)?.closed();
            sessions.delete(c);
          },
        },
      },
    }),
  );
  let httpServer: RunningServer;
  let wsServer: RunningServer;
  try {
    httpServer = await http.open();
    wsServer = await ws.open();
  } catch (err) {
    await Promise.all([http.close(), ws.close()]);
    throw err;
  }
  if (service.env.namespaces) service.env.namespaces.listeners = listenerControl(http, ws);
  log.info({ http: httpServer.url, ws: wsServer.wsUrl }, 'ethereum json-rpc listening');
  let stopped = false;
  return {
    url: httpServer.url,
    wsUrl: wsServer.wsUrl,
    async stop() {
      if (stopped) return;
      stopped = true;
      await Promise.all([http.close(), ws.close()]);
      for (const s of sessions.values()) s.closed();
      sessions.clear();
    },
  };
}
