/**
 * JSON-RPC over `/websocket` (rpc/jsonrpc/server/ws_handler.go): one request per frame, handled
 * in arrival order per connection (a slow call, such as broadcast_tx_commit, holds the ones
 * behind it, as CometBFT's read loop does). Same routes as HTTP, plus the WS-only ones.
 *
 *   frame ─> too deep (-32600) ─> parse (-32700) ─> notification? skip ─> route? (-32601) ─> args (-32603) ─> handler
 *   close ─> abort the session's calls, unsubscribe everything of its remote address
 */
import type { Logger } from 'pino';
import { SubscriptionNotFoundError } from '../../events/errors.js';
import type { WsConnection, WsHandlers } from '../transport/index.js';
import { argsFromJson, callRoute } from './call.js';
import type { CallContext, WsSession } from './context.js';
import { COMET_ERRORS, errorJson, successJson } from './envelope.js';
import type { CometEnv } from './env.js';
import { parseCometWsRequest } from './request.js';
import type { AnyRoute } from './routes.js';

export interface WsHandlerOptions {
  routes: ReadonlyMap<string, AnyRoute>;
  env: () => CometEnv;
  /** `[rpc] max_json_depth`. */
  maxJsonDepth: number;
  logger: Logger;
}

interface Session extends WsSession {
  readonly conn: WsConnection;
  readonly abort: AbortController;
  /** The tail of this connection's call queue. */
  queue: Promise<void>;
  /** Hooks of the call being answered, run once its response is written. */
  after: (() => void)[];
}

export interface CometWsHandlers extends WsHandlers {
  /** Ends every session's calls (server stop). */
  closeAll(): void;
  sessions(): number;
}

export function createCometWsHandlers(o: WsHandlerOptions): CometWsHandlers {
  const sessions = new Map<number, Session>();

  const open = (conn: WsConnection): Session => {
    const s: Session = {
      conn,
      abort: new AbortController(),
      queue: Promise.resolve(),
      after: [],
      send: (text) => conn.send(text),
      afterResponse(fn) {
        s.after.push(fn);
      },
      get closed() {
        return conn.closed;
      },
    };
    sessions.set(conn.id, s);
    return s;
  };

  async function handle(s: Session, text: string): Promise<void> {
    const parsed = parseCometWsRequest(text, o.maxJsonDepth);
    if (parsed.kind !== 'request') {
      const error =
        parsed.kind === 'too-deep' ? COMET_ERRORS.invalidRequest(parsed.reason) : COMET_ERRORS.parse(`error unmarshaling request: ${parsed.reason}`);
      s.send(errorJson(undefined, error));
      return;
    }
    const req = parsed.request;
    if (req.id === undefined) return;
    const route = o.routes.get(req.method);
    if (!route) {
      s.send(errorJson(req.id, COMET_ERRORS.methodNotFound()));
      return;
    }
    const ctx: CallContext = { remoteAddr: s.conn.remoteAddress, transport: 'ws', id: req.id, ws: s, signal: s.abort.signal };
    s.after = [];
    const out = await callRoute({
      env: o.env(),
      ctx,
      route,
      decode: () => argsFromJson(route, req.params),
      paramSource: 'json',
      paramErrorsAreInternal: true,
      logger: o.logger,
    });
    let textOut: string;
    if (out.ok) {
      try {
        textOut = successJson(req.id, out.result);
      } catch (err) {
        textOut = errorJson(req.id, COMET_ERRORS.internal(`error marshaling response: ${(err as Error).message}`));
      }
    } else {
      textOut = errorJson(req.id, out.error);
    }
    s.send(textOut);
    const hooks = s.after;
    s.after = [];
    for (const fn of hooks) fn();
  }

  const cleanup = (s: Session): void => {
    s.abort.abort();
    sessions.delete(s.conn.id);
    try {
      o.env().eventBus.unsubscribeAll(s.conn.remoteAddress);
    } catch (err) {
      if (!(err instanceof SubscriptionNotFoundError)) o.logger.warn({ err }, 'unsubscribe on disconnect failed');
    }
  };

  return {
    onOpen(conn) {
      open(conn);
    },
    onMessage(conn, text) {
      const s = sessions.get(conn.id) ?? open(conn);
      s.queue = s.queue
        .then(() => (s.abort.signal.aborted ? undefined : handle(s, text)))
        .catch((err: unknown) => {
          o.logger.error({ err }, 'comet websocket call failed');
          s.send(errorJson(-1, COMET_ERRORS.internal(err instanceof Error ? err.message : String(err))));
        });
    },
    onClose(conn) {
      const s = sessions.get(conn.id);
      if (s) cleanup(s);
    },
    closeAll() {
      for (const s of [...sessions.values()]) cleanup(s);
    },
    sessions: () => sessions.size,
  };
}
