/**
 * The uWebSockets.js backend.
 *
 * uWS facts this file is built around:
 *  - an HttpRequest is only readable synchronously inside the route callback, so the whole head
 *    is copied out first;
 *  - after returning from the callback, a response must have an onAborted handler, and must not
 *    be touched once aborted; writes from later ticks go inside res.cork();
 *  - onData hands out ArrayBuffers that are neutered after the callback, so chunks are copied;
 *  - uWS has no per-connection hook for HTTP: connections() and the connection limit count
 *    in-flight requests plus open WebSockets;
 *  - uWS rejects request heads above ~128 KiB or 48 headers by closing the socket, whatever
 *    maxHeaderBytes says, and a head over ~64 KiB (more than one read) is often reset just after
 *    its answer is written, so such a client may not read its 414 (the answer keeps the
 *    connection, which loses fewer of them than `connection: close`);
 *    below that, maxUrlBytes (414) and maxHeaderBytes (431) are enforced
 *    here. It also drops a request declaring Content-Length ≥ 1e9 without an answer, and leaves
 *    some malformed requests unanswered until its own ~10 s idle timeout (node answers 400);
 *  - endWithoutBody (HEAD) never marks the response done in the native code: without an
 *    onAborted handler uWS aborts the process, and the connection serves no further request, so
 *    every response is given an onAborted handler first and a HEAD answer closes the connection;
 *  - end(body, true) shuts the socket at once: a client still sending its body gets a reset
 *    before it reads the answer. Error answers sent before the body is read ("linger") carry
 *    `connection: close` instead and let uWS read and discard the rest, so the client reads them;
 *  - uWS has no remote port (WsConnection.remoteAddress carries the connection id instead) and
 *    a fixed HTTP keep-alive timeout, so ServerOptions.idleTimeoutMs does not apply here.
 */
import type { HttpResponse as UwsResponse, TemplatedApp, us_listen_socket } from '@trufflesuite/uws-js-unofficial';
import type { Uws } from './backend.js';
import { Drain, SHUTDOWN_CLOSE_CODE, SHUTDOWN_CLOSE_REASON, guard, serverUrls, type ServerContext } from './context.js';
import { ListenError } from './errors.js';
import { probeListen } from './probe-listen.js';
import { createHttpRequest, isManagedHeader, statusLine } from './pipeline.js';
import { formatHostPort, uwsAddressText } from './remote-address.js';
import type { HttpResponse, RunningServer } from './types.js';
import { UwsWsConnection, type UwsUserData } from './uws-connection.js';
import { WsKeepAlive } from './ws-keepalive.js';

/** Per-request state shared by the onData, onAborted and reply paths; in `pending` while its body is read. */
interface Pending {
  res: UwsResponse;
  /** True once replied to or aborted: the response must not be used again. */
  finished: boolean;
  method: string;
  startedAt: number;
}

/**
 * How a response ends the connection: `keep` (keep-alive), `linger` (`connection: close`, the
 * client closes, unread body bytes are discarded meanwhile), `close` (shut the socket now).
 */
type Ending = 'keep' | 'linger' | 'close';

const noop = (): void => {};

export function startUwsServer(ctx: ServerContext, uws: Uws): Promise<RunningServer> {
  const { opts, log, pipeline } = ctx;
  const app = uws.App();
  const maxConn = opts.maxOpenConnections;
  let stopping = false;
  let inflight = 0;
  let wsOpen = 0;
  let nextWsId = 0;
  const sockets = new Set<UwsWsConnection>();
  const pending = new Set<Pending>();
  const drain = new Drain(() => inflight === 0);

  const overLimit = (): boolean => maxConn > 0 && inflight + wsOpen >= maxConn;

  // Writes one response; the response must already have an onAborted handler (see above).
  const write = (res: UwsResponse, method: string, out: HttpResponse, ending: Ending): void => {
    const head = method === 'HEAD';
    const linger = ending === 'linger' || (head && ending === 'keep');
    res.cork(() => {
      res.writeStatus(statusLine(out.status));
      const h = out.headers;
      if (h) for (const k in h) if (!isManagedHeader(k) && (!linger || k.toLowerCase() !== 'connection')) res.writeHeader(k, h[k]!);
      if (linger) res.writeHeader('connection', 'close');
      if (head) res.endWithoutBody(byteLength(out.body), ending === 'close');
      else res.end(out.body, ending === 'close');
    });
  };

  /** An answer from inside the route callback, before any request state exists. */
  const reject = (res: UwsResponse, method: string, out: HttpResponse, ending: Ending): void => {
    res.onAborted(noop);
    write(res, method, out, ending);
  };

  const finish = (p: Pending, out: HttpResponse, ending: Ending = 'keep'): void => {
    if (p.finished) return;
    p.finished = true;
    pending.delete(p);
    inflight--;
    try {
      write(p.res, p.method, out, ending);
    } catch (err) {
      log.error({ err }, 'http response write failed');
      try {
        p.res.close();
      } catch {
        // already gone
      }
    }
    drain.notify();
  };

  const dispatch = (p: Pending, method: string, path: string, rawQuery: string, headers: Record<string, string>, body: Uint8Array, ip: string): void => {
    pending.delete(p); // fully received: the request timeout no longer applies
    const out = pipeline.handle(createHttpRequest(method, path, rawQuery, headers, body, ip));
    if (out instanceof Promise) out.then((r) => finish(p, r));
    else finish(p, out);
  };

  app.any('/*', (res, req) => {
    const method = req.getCaseSensitiveMethod();
    if (stopping) {
      reject(res, method, pipeline.shuttingDown(), 'close');
      return;
    }
    if (overLimit()) {
      res.close();
      return;
    }
    const path = req.getUrl();
    const rawQuery = req.getQuery() ?? '';
    // "path?query" of the request line.
    if (path.length + rawQuery.length + (rawQuery === '' ? 0 : 1) > pipeline.maxUrlBytes) {
      reject(res, method, pipeline.uriTooLong(), 'keep');
      return;
    }
    // No prototype: a client header named `constructor` must not meet Object.prototype's.
    const headers: Record<string, string> = Object.create(null) as Record<string, string>;
    // Request line "METHOD path?query HTTP/1.1\r\n" plus "name: value\r\n" per header.
    let headBytes = method.length + path.length + (rawQuery === '' ? 0 : rawQuery.length + 1) + 12;
    req.forEach((k, v) => {
      headBytes += k.length + v.length + 4;
      const prev = headers[k];
      headers[k] = prev === undefined ? v : `${prev}, ${v}`;
    });
    if (headBytes > opts.maxHeaderBytes) {
      reject(res, method, pipeline.headersTooLarge(), 'linger');
      return;
    }
    const declared = headers['content-length'];
    const expected = declared === undefined ? -1 : Number(declared);
    if (expected > opts.maxBodyBytes) {
      reject(res, method, pipeline.bodyTooLarge(), 'linger');
      return;
    }
    const ip = uwsAddressText(res.getRemoteAddressAsText());

    inflight++;
    const p: Pending = { res, finished: false, method, startedAt: performance.now() };
    pending.add(p);
    res.onAborted(() => {
      if (p.finished) return;
      p.finished = true;
      pending.delete(p);
      inflight--;
      drain.notify();
    });

    let chunks: Uint8Array[] | undefined;
    let received = 0;
    res.onData((ab, isLast) => {
      if (p.finished) return;
      const n = ab.byteLength;
      if (n > 0) {
        received += n;
        if (received > opts.maxBodyBytes) {
          chunks = undefined;
          finish(p, pipeline.bodyTooLarge(), 'linger');
          return;
        }
        // Copy now: uWS reclaims the buffer when this callback returns.
        (chunks ??= []).push(new Uint8Array(ab.slice(0)));
      }
      if (!isLast) return;
      const body = chunks === undefined ? EMPTY : chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, received);
      dispatch(p, method, path, rawQuery, headers, body, ip);
    });
  });

  const keepAlive = ctx.ws ? new WsKeepAlive(ctx.ws.pingIntervalMs, ctx.ws.idleTimeoutMs) : undefined;
  const wsCfg = ctx.ws;
  if (wsCfg && keepAlive) {
    const { handlers } = wsCfg;
    app.ws<UwsUserData>(wsCfg.path ?? '/*', {
      compression: uws.DISABLED,
      maxPayloadLength: wsCfg.maxPayloadBytes,
      // No uWS cap: the bound is checked before each send (UwsWsConnection), so the close frame of a
      // slow client still fits in the buffer instead of being dropped with the connection.
      maxBackpressure: 0,
      // Liveness is WsKeepAlive's job, identical on both backends.
      idleTimeout: 0,
      sendPingsAutomatically: false,
      upgrade: (res, req, context) => {
        if (stopping || overLimit()) {
          res.close();
          return;
        }
        if (!wsCfg.originAllowed(req.getHeader('origin') || undefined)) {
          log.warn({ origin: req.getHeader('origin') }, 'websocket origin rejected');
          res.writeStatus(statusLine(403)).end('origin not allowed', true);
          return;
        }
        res.upgrade<UwsUserData>(
          { path: req.getUrl() },
          req.getHeader('sec-websocket-key'),
          req.getHeader('sec-websocket-protocol'),
          req.getHeader('sec-websocket-extensions'),
          context,
        );
      },
      open: (ws) => {
        const data = ws.getUserData();
        const id = ++nextWsId;
        // uWS gives no remote port: the id stands in for it (see WsConnection.remoteAddress).
        const remote = formatHostPort(uwsAddressText(ws.getRemoteAddressAsText()), id);
        const conn = new UwsWsConnection(id, remote, data.path, ws, wsCfg.maxBackpressureBytes);
        data.conn = conn;
        wsOpen++;
        sockets.add(conn);
        keepAlive.add(conn);
        if (handlers.onOpen) guard(log, 'websocket onOpen', () => handlers.onOpen!(conn));
      },
      message: (ws, message) => {
        const conn = ws.getUserData().conn;
        if (!conn) return;
        conn.lastSeen = performance.now();
        const text = Buffer.from(message).toString('utf8');
        guard(log, 'websocket onMessage', () => handlers.onMessage(conn, text));
      },
      pong: (ws) => {
        const conn = ws.getUserData().conn;
        if (conn) conn.lastSeen = performance.now();
      },
      close: (ws) => {
        const conn = ws.getUserData().conn;
        if (!conn || conn.closed) return;
        conn.closed = true;
        wsOpen--;
        sockets.delete(conn);
        keepAlive.delete(conn);
        if (handlers.onClose) guard(log, 'websocket onClose', () => handlers.onClose!(conn));
      },
    });
  }

  // Requests whose body has not arrived within requestTimeoutMs get 408 (node:http does the same).
  let sweep: NodeJS.Timeout | undefined;
  const timeoutMs = opts.requestTimeoutMs ?? 0;
  if (timeoutMs > 0) {
    sweep = setInterval(
      () => {
        const now = performance.now();
        for (const p of pending) if (now - p.startedAt > timeoutMs) finish(p, pipeline.requestTimeout(), 'close');
      },
      Math.max(50, Math.min(1000, timeoutMs / 4)),
    );
    sweep.unref();
  }

  return new Promise((resolve, reject) => {
    // Exclusive: without it uSockets sets SO_REUSEPORT and a second server could share the port.
    listenExclusive(app, opts.host, opts.port, (listenSocket) => {
      if (!listenSocket) {
        if (sweep) clearInterval(sweep);
        closeApp(app);
        // uWS gives no reason; a node listener on the same address tells which one.
        void probeListen(opts.host, opts.port).then((cause) => reject(new ListenError(opts.host, opts.port, cause)));
        return;
      }
      const port = uws.us_socket_local_port(listenSocket);
      let stopped: Promise<void> | undefined;
      const stop = async (): Promise<void> => {
        stopping = true;
        // What uWS may still hold in its own buffers when the sockets go: close frames, and the
        // answers to requests in flight now.
        const mayHoldBytes = sockets.size > 0 || inflight > 0;
        uws.us_listen_socket_close(listenSocket);
        if (sweep) clearInterval(sweep);
        keepAlive?.stop();
        for (const c of [...sockets]) c.close(SHUTDOWN_CLOSE_CODE, SHUTDOWN_CLOSE_REASON);
        const result = await drain.wait(ctx.shutdownTimeoutMs);
        if (result === 'timeout') log.warn({ inflight }, 'http server stop: in-flight requests cut off');
        // A grace of 10 ms for those bytes to reach the wire; with nothing open, one turn of the
        // event loop (each stop of a node paid the 10 ms, most of its `stop()`).
        await new Promise((r) => (mayHoldBytes ? setTimeout(r, 10) : setImmediate(r)));
        closeApp(app);
      };
      resolve({
        ...serverUrls(ctx, port),
        backend: 'uws',
        connections: () => inflight + wsOpen,
        stop: () => (stopped ??= stop()),
      });
    });
  });
}

const EMPTY = new Uint8Array(0);

function byteLength(body: string | Uint8Array): number {
  return typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength;
}

/** listen(host, port, options, cb) exists in the binary but not in the typings. */
type ListenWithOptions = (host: string, port: number, options: number, cb: (ls: us_listen_socket | false) => void) => TemplatedApp;
const LIBUS_LISTEN_EXCLUSIVE_PORT = 1;

function listenExclusive(app: TemplatedApp, host: string, port: number, cb: (ls: us_listen_socket | false) => void): void {
  (app.listen as unknown as ListenWithOptions).call(app, host, port, LIBUS_LISTEN_EXCLUSIVE_PORT, cb);
}

/** App.close() (closes every socket of the app) exists in the binary but not in the typings. */
function closeApp(app: TemplatedApp): void {
  (app as TemplatedApp & { close(): void }).close();
}
