/**
 * The Solana JSON-RPC of the SVM chain, as solana-test-validator serves it: HTTP on `address`
 * (default 127.0.0.1:8899) and WebSocket on `wsAddress` (8900) with the same methods plus the
 * subscriptions @solana/kit's sendAndConfirmTransactionFactory needs (signatureSubscribe,
 * slotSubscribe), accountSubscribe and logsSubscribe. JSON-RPC 2.0 with batches; errors in its own form.
 */
import type { Logger } from 'pino';
import { parseListenAddress } from '../../config/listen-address.js';
import { corsOptionsOf, jsonRpcTransportError, startHttpServer, type HttpRequest, type HttpResponse, type RunningServer, type WsConnection } from '../transport/index.js';
import { createSolanaDispatcher } from './dispatch.js';
import { SolanaRpcError, invalidParam } from './errors.js';
import { stringifyWithBigints } from './json.js';
import { subscribeLogs } from './logs-subscription.js';
import { pubkey } from './params.js';
import { SOLANA_METHODS, type SolanaEnv } from './methods.js';

export interface SolanaRpcOptions {
  address: string;
  wsAddress: string;
  maxBodyBytes?: number;
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

export async function startSolanaRpc(env: SolanaEnv, o: SolanaRpcOptions): Promise<RunningSolanaRpc> {
  const log = o.logger.child({ module: 'rpc-solana' });
  const maxBodyBytes = o.maxBodyBytes ?? 50 * 1024 * 1024;
  const dispatcher = createSolanaDispatcher(env, { logger: log, ...(o.maxJsonDepth !== undefined ? { maxJsonDepth: o.maxJsonDepth } : {}) });
  const onHttp = async (req: HttpRequest): Promise<HttpResponse> => {
    if (req.method === 'GET' && req.path === '/health') return { status: 200, headers: { 'content-type': 'text/plain' }, body: 'ok' };
    if (req.method !== 'POST') return jsonRpcTransportError(405, 'Used HTTP Method is not allowed. POST or OPTIONS is required');
    return { status: 200, headers: { 'content-type': 'application/json' }, body: (await dispatcher.handleBody(req.body)) ?? '' };
  };
  const common = {
    maxBodyBytes,
    maxHeaderBytes: 1_048_576,
    maxOpenConnections: 0,
    requestTimeoutMs: 30_000,
    idleTimeoutMs: 120_000,
    cors: corsOptionsOf(o.corsAllowedOrigins ?? [], ['POST', 'GET', 'OPTIONS'], ['Content-Type', 'solana-client']),
    onHttp,
    formatTransportError: jsonRpcTransportError,
    logger: log,
  };

  // ── subscriptions ──
  let nextSub = 0;
  const subs = new Map<WsConnection, Map<number, () => void>>();
  const notify = (c: WsConnection, method: string, subscription: number, result: unknown) => {
    if (!c.closed) c.send(stringifyWithBigints({ jsonrpc: '2.0', method, params: { result, subscription } }));
  };
  const subscriptionsOf = (c: WsConnection) => {
    let m = subs.get(c);
    if (!m) subs.set(c, (m = new Map()));
    return m;
  };
  const wsExtra = (c: WsConnection) => (method: string, params: unknown[]): unknown => {
    const mine = subscriptionsOf(c);
    const ledger = env.ledger;
    if (method === 'slotSubscribe') {
      const id = ++nextSub;
      mine.set(id, ledger.onSlot((slot) => notify(c, 'slotNotification', id, { parent: slot - 1n, root: slot > 32n ? slot - 32n : 0n, slot })));
      return id;
    }
    if (method === 'signatureSubscribe') {
      const sig = params[0];
      if (typeof sig !== 'string') throw invalidParam('Invalid signature');
      const id = ++nextSub;
      const done = (slot: bigint, err: unknown) => {
        notify(c, 'signatureNotification', id, { context: { slot }, value: { err } });
        mine.get(id)?.();
        mine.delete(id);
      };
      const known = ledger.transaction(sig);
      if (known) {
        mine.set(id, () => undefined);
        // After the subscription's own answer, which the dispatcher writes within this turn's microtasks.
        setImmediate(() => done(known.slot, known.err));
      } else {
        mine.set(id, ledger.onTransaction((r) => r.signature === sig && done(r.slot, r.err)));
      }
      return id;
    }
    if (method === 'accountSubscribe') {
      // Checked (length first, then base58) when subscribing, not at the first notification.
      const key = pubkey(params[0]);
      const cfg = (params[1] ?? {}) as { encoding?: string };
      const id = ++nextSub;
      mine.set(id, ledger.onTransaction((r) => {
        // Only accounts the tx changed (a failed tx that merely named one writable changes nothing).
        if (!r.changed.includes(key)) return;
        const info = (SOLANA_METHODS['getAccountInfo']!(env, [key, { encoding: cfg.encoding ?? 'base64' }]) as { value: unknown }).value;
        notify(c, 'accountNotification', id, { context: { slot: r.slot }, value: info });
      }));
      return id;
    }
    if (method === 'logsSubscribe') {
      const off = subscribeLogs(ledger, params, (result) => notify(c, 'logsNotification', id, result));
      const id = ++nextSub;
      mine.set(id, off);
      return id;
    }
    const unsub = /^(slot|signature|account|logs)Unsubscribe$/.exec(method);
    if (unsub) {
      const id = params[0];
      const off = typeof id === 'number' ? mine.get(id) : undefined;
      if (!off) throw new SolanaRpcError(-32602, 'Invalid subscription id.');
      off();
      mine.delete(id as number);
      return true;
    }
    return undefined;
  };

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
        handlers: {
          onMessage: (c, text) => {
            dispatcher.handleBody(text, wsExtra(c)).then(
              (out) => {
                if (out !== undefined && !c.closed) c.send(out);
              },
              (err: unknown) => log.error({ err }, 'solana websocket request failed'),
            );
          },
          onClose: (c) => {
            for (const off of subs.get(c)?.values() ?? []) off();
            subs.delete(c);
          },
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
      for (const m of subs.values()) for (const off of m.values()) off();
      subs.clear();
      await Promise.all([httpServer!.stop(), wsServer!.stop()]);
    },
  };
}
