/**
 * The Solana JSON-RPC of the SVM chain, as solana-test-validator serves it: HTTP on `address`
 * (default 127.0.0.1:8899) and WebSocket on `wsAddress` (8900) with the same methods plus the
 * subscriptions @solana/kit's sendAndConfirmTransactionFactory needs (signatureSubscribe,
 * slotSubscribe) and accountSubscribe. JSON-RPC 2.0 with batches; errors in its own form.
 */
import type { Logger } from 'pino';
import { parseListenAddress } from '../../config/listen-address.js';
import { startHttpServer, type HttpRequest, type HttpResponse, type RunningServer, type WsConnection } from '../transport/index.js';
import { methodNotFound, SolanaRpcError, invalidParam } from './errors.js';
import { stringifyWithBigints } from './json.js';
import { SOLANA_METHODS, type SolanaEnv } from './methods.js';

export interface SolanaRpcOptions {
  address: string;
  wsAddress: string;
  maxBodyBytes?: number;
  logger: Logger;
}

export interface RunningSolanaRpc {
  url: string;
  wsUrl: string;
  stop(): Promise<void>;
}

interface Req {
  jsonrpc?: unknown;
  id?: unknown;
  method?: unknown;
  params?: unknown;
}

type Reply = { jsonrpc: '2.0'; id: unknown; result?: unknown; error?: { code: number; message: string; data?: unknown } };

function errorReply(id: unknown, e: unknown, log: Logger): Reply {
  if (e instanceof SolanaRpcError) return { jsonrpc: '2.0', id, error: { code: e.code, message: e.message, ...(e.data !== undefined ? { data: e.data } : {}) } };
  log.error({ err: e }, 'solana rpc method failed');
  return { jsonrpc: '2.0', id, error: { code: -32603, message: `Internal error: ${(e as Error).message}` } };
}

function call(env: SolanaEnv, r: Req, log: Logger, extra?: (method: string, params: unknown[]) => unknown): Reply {
  const id = r.id ?? null;
  if (r.jsonrpc !== '2.0' || typeof r.method !== 'string') return { jsonrpc: '2.0', id, error: { code: -32600, message: 'Invalid request' } };
  const params = r.params === undefined ? [] : r.params;
  if (!Array.isArray(params)) return { jsonrpc: '2.0', id, error: { code: -32602, message: 'Invalid params: expected an array' } };
  try {
    const ext = extra?.(r.method, params);
    if (ext !== undefined) return { jsonrpc: '2.0', id, result: ext };
    const m = SOLANA_METHODS[r.method];
    if (!m) throw methodNotFound();
    return { jsonrpc: '2.0', id, result: m(env, params) };
  } catch (e) {
    return errorReply(id, e, log);
  }
}

export function handleSolanaBody(env: SolanaEnv, text: string, log: Logger, extra?: (method: string, params: unknown[]) => unknown): string {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return stringifyWithBigints({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } });
  }
  if (Array.isArray(body)) {
    if (body.length === 0) return stringifyWithBigints({ jsonrpc: '2.0', id: null, error: { code: -32600, message: 'Invalid request' } });
    return stringifyWithBigints(body.map((r) => call(env, r as Req, log, extra)));
  }
  return stringifyWithBigints(call(env, (body ?? {}) as Req, log, extra));
}

export async function startSolanaRpc(env: SolanaEnv, o: SolanaRpcOptions): Promise<RunningSolanaRpc> {
  const log = o.logger.child({ module: 'rpc-solana' });
  const maxBodyBytes = o.maxBodyBytes ?? 50 * 1024 * 1024;
  const onHttp = async (req: HttpRequest): Promise<HttpResponse> => {
    if (req.method === 'GET' && req.path === '/health') return { status: 200, headers: { 'content-type': 'text/plain' }, body: 'ok' };
    if (req.method !== 'POST') return { status: 405, headers: { 'content-type': 'text/plain' }, body: 'Used HTTP Method is not allowed. POST or OPTIONS is required\n' };
    return { status: 200, headers: { 'content-type': 'application/json' }, body: handleSolanaBody(env, new TextDecoder().decode(req.body), log) };
  };
  const common = {
    maxBodyBytes,
    maxHeaderBytes: 1_048_576,
    maxOpenConnections: 0,
    requestTimeoutMs: 30_000,
    idleTimeoutMs: 120_000,
    cors: { allowedOrigins: ['*'], allowedMethods: ['POST', 'GET', 'OPTIONS'], allowedHeaders: ['Content-Type', 'solana-client'] },
    onHttp,
    onBodyTooLarge: () => `request body too large (>${maxBodyBytes})\n`,
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
        queueMicrotask(() => done(known.slot, known.err));
      } else {
        mine.set(id, ledger.onTransaction((r) => r.signature === sig && done(r.slot, r.err)));
      }
      return id;
    }
    if (method === 'accountSubscribe') {
      const key = params[0];
      if (typeof key !== 'string') throw invalidParam('Invalid pubkey');
      const cfg = (params[1] ?? {}) as { encoding?: string };
      const id = ++nextSub;
      mine.set(id, ledger.onTransaction((r) => {
        if (!r.accountKeys.includes(key)) return;
        const info = (SOLANA_METHODS['getAccountInfo']!(env, [key, { encoding: cfg.encoding ?? 'base64' }]) as { value: unknown }).value;
        notify(c, 'accountNotification', id, { context: { slot: r.slot }, value: info });
      }));
      return id;
    }
    const unsub = /^(slot|signature|account)Unsubscribe$/.exec(method);
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
            const out = handleSolanaBody(env, text, log, wsExtra(c));
            if (!c.closed) c.send(out);
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
