/**
 * The Solana JSON-RPC of the SVM chain, as solana-test-validator serves it: HTTP on `address`
 * (default 127.0.0.1:8899) and WebSocket on `wsAddress` (8900) with the same methods plus the
 * subscriptions @solana/kit's sendAndConfirmTransactionFactory needs (signatureSubscribe,
 * slotSubscribe), accountSubscribe and logsSubscribe. JSON-RPC 2.0 with batches; errors in its own form.
 */
import type { Logger } from 'pino';
import { parseListenAddress } from '../../config/listen-address.js';
import { corsOptionsOf, jsonRpcTransportError, startHttpServer, type HttpRequest, type HttpResponse, type RunningServer } from '../transport/index.js';
import { createSolanaDispatcher } from './dispatch.js';
import type { SolanaEnv } from './methods.js';
import { createSolanaSubscriptions } from './subscriptions.js';

export interface SolanaRpcOptions {
  address: string;
  wsAddress: string;
  /** Default 50 MiB (`[svm] max-body-bytes`): larger bodies get 413, larger WebSocket messages close the connection. */
  maxBodyBytes?: number;
  /** Default 1 MiB (`[svm] max-header-bytes`): larger request heads get 431. */
  maxHeaderBytes?: number;
  /** Default 65 536 (`[svm] max-url-bytes`): a longer request target gets 414. */
  maxUrlBytes?: number;
  /** Default 4 MiB (`[svm] ws-write-buffer-bytes`): a WebSocket client with more unsent is closed (1008). */
  wsWriteBufferBytes?: number;
  /** Origins allowed cross-origin requests ("*" = any); default none. The devnet network passes "*". */
  corsAllowedOrigins?: readonly string[];
  /** Deepest nesting of arrays/objects in a request (default 128); 0 = no limit. */
  maxJsonDepth?: number;
  logger: Logger;
}

export interface RunningSolanaRpc {
  url: string;
  wsUrl: string;
  stop(): Promise<void>;
}

// Frozen: the transport validates them and merges CORS into them once, not per response.
const JSON_HEADERS = Object.freeze({ 'content-type': 'application/json' });
const TEXT_HEADERS = Object.freeze({ 'content-type': 'text/plain' });

export async function startSolanaRpc(env: SolanaEnv, o: SolanaRpcOptions): Promise<RunningSolanaRpc> {
  const log = o.logger.child({ module: 'rpc-solana' });
  const maxBodyBytes = o.maxBodyBytes ?? 50 * 1024 * 1024;
  const dispatcher = createSolanaDispatcher(env, { logger: log, ...(o.maxJsonDepth !== undefined ? { maxJsonDepth: o.maxJsonDepth } : {}) });
  const onHttp = async (req: HttpRequest): Promise<HttpResponse> => {
    if (req.method === 'GET' && req.path === '/health') return { status: 200, headers: TEXT_HEADERS, body: 'ok' };
    if (req.method !== 'POST') return jsonRpcTransportError(405, 'Used HTTP Method is not allowed. POST or OPTIONS is required');
    return { status: 200, headers: JSON_HEADERS, body: (await dispatcher.handleBody(req.body)) ?? '' };
  };
  const common = {
    maxBodyBytes,
    maxHeaderBytes: o.maxHeaderBytes ?? 1_048_576,
    ...(o.maxUrlBytes !== undefined ? { maxUrlBytes: o.maxUrlBytes } : {}),
    maxOpenConnections: 0,
    requestTimeoutMs: 30_000,
    idleTimeoutMs: 120_000,
    cors: corsOptionsOf(o.corsAllowedOrigins ?? [], ['POST', 'GET', 'OPTIONS'], ['Content-Type', 'solana-client']),
    onHttp,
    formatTransportError: jsonRpcTransportError,
    logger: log,
  };

  const subscriptions = createSolanaSubscriptions(env);

  const http = parseListenAddress(o.address, '--svm-rpc');
  const ws = parseListenAddress(o.wsAddress, '--svm-ws');
  let httpServer: RunningServer | undefined;
  let wsServer: RunningServer | undefined;
  try {
    httpServer = await startHttpServer({ ...common, host: http.host, port: http.port });
    wsServer = await startHttpServer({
      ...common,
      host: ws.host,
      port: ws.port,
      websocket: {
        path: '*',
        maxPayloadBytes: maxBodyBytes,
        ...(o.wsWriteBufferBytes !== undefined ? { maxBackpressureBytes: o.wsWriteBufferBytes } : {}),
        handlers: {
          onMessage: (c, text) => {
            dispatcher.handleBody(text, subscriptions.calls(c)).then(
              (out) => {
                if (out !== undefined && !c.closed) c.send(out);
              },
              (err: unknown) => log.error({ err }, 'solana websocket request failed'),
            );
          },
          onClose: (c) => subscriptions.close(c),
        },
      },
    });
  } catch (e) {
    await httpServer?.stop();
    throw e;
  }
  log.info({ http: httpServer.url, ws: wsServer.wsUrl }, 'solana json-rpc listening');
  return {
    url: httpServer.url,
    wsUrl: wsServer.wsUrl,
    async stop() {
      subscriptions.closeAll();
      await Promise.all([httpServer!.stop(), wsServer!.stop()]);
    },
  };
}
