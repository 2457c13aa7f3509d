/**
 * The node:http + ws backend: the fallback when uWS cannot load, with the same behaviour.
 *
 * node:http enforces the request timeout (408), malformed requests (400) and a head past
 * maxHeaderBytes + maxUrlBytes (431) itself; its 'clientError' event lets the answer take the
 * family's form. The URL (414) and head (431) limits proper are checked in the request handler,
 * counted as on uWS, so both backends draw the same line. WebSocket
 * upgrades arrive on 'upgrade'; those on another path than the WebSocket one are answered by
 * onHttp, as uWS does, written straight to the socket.
 *
 * An error answered before the body is read (413, 414) keeps the connection: node then reads and
 * discards the rest of the body (within the request timeout), so a client still sending it reads
 * the answer instead of a reset.
 */
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import type { RawData, WebSocket, WebSocketServer } from 'ws';
import { Drain, SHUTDOWN_CLOSE_CODE, SHUTDOWN_CLOSE_REASON, guard, serverUrls, type ServerContext } from './context.js';
import { ListenError } from './errors.js';
import { NodeWsConnection } from './node-connection.js';
import { HEADER_NAME_OK, HEADER_VALUE_OK, createHttpRequest, isManagedHeader, statusLine } from './pipeline.js';
import { BodyBuffer } from './body-buffer.js';
import { formatHostPort, normalizeIp } from './remote-address.js';
import type { HttpResponse, RunningServer } from './types.js';
import { WsKeepAlive } from './ws-keepalive.js';

const EMPTY = new Uint8Array(0);

/** node's parser errors (llhttp codes) and the transport answer each gets. */
const CLIENT_ERRORS: Record<string, 'headersTooLarge' | 'requestTimeout' | undefined> = {
  HPE_HEADER_OVERFLOW: 'headersTooLarge',
  ERR_HTTP_REQUEST_TIMEOUT: 'requestTimeout',
};

/** How long a URL node's parser lets through to our 414 (a few times the default 64 KiB URL limit). */
const URL_ROOM_BYTES = 1 << 20;

export function startNodeServer(ctx: ServerContext): Promise<RunningServer> {
  const { opts, log, pipeline } = ctx;
  const requestTimeout = opts.requestTimeoutMs ?? 0;
  const server = createServer({
    // Room for a long URL (up to URL_ROOM_BYTES past the URL limit), so that it gets 414 below rather
    // than node's 431 (which cannot tell a long URL from long headers); the head limit itself is
    // checked in the request handler. Only a head over this room gets node's 431.
    maxHeaderSize: opts.maxHeaderBytes + Math.max(pipeline.maxUrlBytes, URL_ROOM_BYTES),
    joinDuplicateHeaders: true,
    noDelay: true,
    // How often node looks for requests past requestTimeout (default 30 s is too coarse).
    connectionsCheckingInterval: requestTimeout > 0 ? Math.max(50, Math.min(1000, requestTimeout / 4)) : 30_000,
  });
  if (requestTimeout > 0) {
    server.requestTimeout = requestTimeout;
    server.headersTimeout = Math.min(server.headersTimeout, requestTimeout);
  }
  if (opts.idleTimeoutMs !== undefined) server.keepAliveTimeout = opts.idleTimeoutMs;
  const maxConn = opts.maxOpenConnections;

  let stopping = false;
  let inflight = 0;
  let nextWsId = 0;
  const sockets = new Set<Socket>();
  const conns = new Set<NodeWsConnection>();
  const rawWs = new Set<WebSocket>();
  const drain = new Drain(() => inflight === 0 && rawWs.size === 0);
  // The connection limit counts requests being answered and open WebSockets, not idle keep-alive
  // sockets (as on uWS): a client's pool of idle sockets must not lock others out. Beyond it, the
  // socket closes without an answer.
  const overLimit = (): boolean => maxConn > 0 && inflight + rawWs.size >= maxConn;

  const checks = connectionChecks(server);
  server.on('connection', (socket: Socket) => {
    if (sockets.size === 0) checks.resume();
    sockets.add(socket);
    socket.once('close', () => {
      sockets.delete(socket);
      if (sockets.size === 0 && !stopping) checks.pause();
    });
  });

  // Replaces node's bare-text answers to requests it could not parse with the family's form.
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Duplex) => {
    // As node's own handler: answer only while no response has started on this socket.
    const started = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage?.headersSent === true;
    if (!socket.writable || started || err.code === 'ECONNRESET') {
      socket.destroy();
      return;
    }
    const kind = err.code ? CLIENT_ERRORS[err.code] : undefined;
    writeRaw(socket, kind ? pipeline[kind]() : pipeline.badRequest());
  });

  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const method = req.method ?? 'GET';
    if (stopping) {
      writeResponse(res, method, pipeline.shuttingDown(), true);
      return;
    }
    if (overLimit()) {
      req.socket.destroy();
      return;
    }
    const url = req.url ?? '/';
    if (url.length > pipeline.maxUrlBytes) {
      writeResponse(res, method, pipeline.uriTooLong(), false);
      return;
    }
    if (headBytes(method, url, req.rawHeaders) > opts.maxHeaderBytes) {
      writeResponse(res, method, pipeline.headersTooLarge(), false);
      return;
    }
    const { path, rawQuery } = splitUrl(req.url);
    const headers = flattenHeaders(req.headers);
    const declared = headers['content-length'];
    if (declared !== undefined && Number(declared) > opts.maxBodyBytes) {
      writeResponse(res, method, pipeline.bodyTooLarge(), false);
      return;
    }
    inflight++;
    let finished = false;
    const finish = (out: HttpResponse | undefined, close = false): void => {
      if (finished) return;
      finished = true;
      inflight--;
      if (out && !res.writableEnded && !res.destroyed) {
        try {
          writeResponse(res, method, out, close);
        } catch (err) {
          log.error({ err }, 'http response write failed');
          res.destroy();
        }
      }
      drain.notify();
    };
    // Client went away before we answered.
    res.once('close', () => finish(undefined));

    const body = new BodyBuffer(declared === undefined ? undefined : Number(declared));
    req.on('data', (chunk: Buffer) => {
      if (finished) return;
      if (body.size + chunk.length > opts.maxBodyBytes) {
        // Stop buffering; node reads and drops the later chunks (see the header).
        body.clear();
        finish(pipeline.bodyTooLarge());
        return;
      }
      body.push(chunk);
    });
    req.on('end', () => {
      if (finished) return;
      const out = pipeline.handle(createHttpRequest(method, path, rawQuery, headers, body.take(), normalizeIp(req.socket.remoteAddress ?? '')));
      if (out instanceof Promise) out.then((r) => finish(r));
      else finish(out);
    });
    req.on('error', () => finish(undefined));
  });

  const wsCfg = ctx.ws;
  const keepAlive = wsCfg ? new WsKeepAlive(wsCfg.pingIntervalMs, wsCfg.idleTimeoutMs) : undefined;
  // `ws` (and the node:zlib it loads) is loaded with the first WebSocket upgrade, not at start.
  let wss: WebSocketServer | undefined;
  let wssLoading: Promise<WebSocketServer> | undefined;
  const wsServer = (maxPayload: number): Promise<WebSocketServer> =>
    (wssLoading ??= import('ws').then(
      ({ WebSocketServer: Wss }) => (wss = new Wss({ noServer: true, maxPayload, perMessageDeflate: false, clientTracking: false })),
    ));

  const onWsClosed = (conn: NodeWsConnection): void => {
    conns.delete(conn);
    keepAlive?.delete(conn);
    const onClose = wsCfg?.handlers.onClose;
    if (onClose) guard(log, 'websocket onClose', () => onClose(conn));
  };

  const openWs = (socket: WebSocket, req: IncomingMessage, path: string): void => {
    if (!wsCfg || !keepAlive) return;
    const { handlers } = wsCfg;
    const remote = formatHostPort(normalizeIp(req.socket.remoteAddress ?? ''), req.socket.remotePort ?? 0);
    const conn = new NodeWsConnection(++nextWsId, remote, path, socket, wsCfg.maxBackpressureBytes, onWsClosed);
    rawWs.add(socket);
    conns.add(conn);
    keepAlive.add(conn);
    socket.on('message', (data: RawData, isBinary: boolean) => {
      conn.lastSeen = performance.now();
      if (conn.closed) return;
      const text = rawToText(data, isBinary);
      guard(log, 'websocket onMessage', () => handlers.onMessage(conn, text));
    });
    socket.on('pong', () => {
      conn.lastSeen = performance.now();
    });
    // 'error' comes with a close (e.g. frame over maxPayload → 1009); without a listener it would crash.
    socket.on('error', (err) => log.warn({ err, remote }, 'websocket error'));
    socket.on('close', () => {
      rawWs.delete(socket);
      conn.markClosed();
      drain.notify();
    });
    if (handlers.onOpen) guard(log, 'websocket onOpen', () => handlers.onOpen!(conn));
  };

  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on('error', () => socket.destroy());
    const { path, rawQuery } = splitUrl(req.url);
    if (stopping || overLimit()) {
      socket.destroy();
      return;
    }
    if (!wsCfg || (wsCfg.path !== undefined && path !== wsCfg.path)) {
      // Not our WebSocket path: a plain request for onHttp, as on uWS.
      const headers = flattenHeaders(req.headers);
      const ip = normalizeIp(req.socket.remoteAddress ?? '');
      inflight++;
      const done = (out: HttpResponse): void => {
        inflight--;
        writeRaw(socket, out);
        drain.notify();
      };
      const out = pipeline.handle(createHttpRequest(req.method ?? 'GET', path, rawQuery, headers, EMPTY, ip));
      if (out instanceof Promise) out.then(done);
      else done(out);
      return;
    }
    const origin = req.headers.origin;
    if (!wsCfg.originAllowed(origin || undefined)) {
      log.warn({ origin }, 'websocket origin rejected');
      writeRaw(socket, { status: 403, headers: { 'content-type': 'text/plain' }, body: 'origin not allowed' });
      return;
    }
    const upgrade = (w: WebSocketServer): void => {
      if (stopping || socket.destroyed) socket.destroy();
      else w.handleUpgrade(req, socket, head, (ws) => openWs(ws, req, path));
    };
    if (wss) upgrade(wss);
    else
      wsServer(wsCfg.maxPayloadBytes).then(upgrade, (err: unknown) => {
        log.error({ err }, 'websocket server failed to load');
        socket.destroy();
      });
  });

  return new Promise((resolve, reject) => {
    const onListenError = (err: Error): void => reject(new ListenError(opts.host, opts.port, err));
    server.once('error', onListenError);
    server.listen({ host: opts.host, port: opts.port, exclusive: true }, () => {
      server.off('error', onListenError);
      server.on('error', (err) => log.error({ err }, 'http server error'));
      // node started its interval on 'listening' (before this callback): no connection yet.
      if (sockets.size === 0) checks.pause();
      const addr = server.address();
      const port = typeof addr === 'object' && addr ? addr.port : opts.port;
      let stopped: Promise<void> | undefined;
      const stop = async (): Promise<void> => {
        stopping = true;
        const closed = new Promise<void>((r) => server.close(() => r()));
        keepAlive?.stop();
        for (const c of [...conns]) c.close(SHUTDOWN_CLOSE_CODE, SHUTDOWN_CLOSE_REASON);
        server.closeIdleConnections();
        const result = await drain.wait(ctx.shutdownTimeoutMs);
        if (result === 'timeout') log.warn({ inflight, websockets: rawWs.size }, 'http server stop: in-flight work cut off');
        for (const ws of rawWs) ws.terminate();
        server.closeAllConnections();
        for (const s of sockets) s.destroy();
        wss?.close();
        await closed;
      };
      resolve({
        ...serverUrls(ctx, port),
        backend: 'node',
        connections: () => sockets.size,
        stop: () => (stopped ??= stop()),
      });
    });
  });
}

/**
 * node:http looks for requests past their timeouts on an interval it starts at listen and keeps
 * running, every second here for each server (six in the default network) even with no client.
 * With no connection open there is nothing to look at: the interval is stopped when the last
 * connection closes and started again (node's own callback and period) with the next, so an idle
 * server runs no timer. node keeps the interval under its own symbol; should a Node version name
 * it otherwise, nothing is paused and node's interval runs as before.
 */
export function connectionChecks(server: Server): { pause(): void; resume(): void } {
  type Interval = ReturnType<typeof setInterval> & { _onTimeout?: unknown; _repeat?: unknown };
  const slots = server as unknown as Record<symbol, Interval | undefined>;
  let key: symbol | undefined;
  let paused: { fn: () => void; every: number } | undefined;
  return {
    pause() {
      key ??= Object.getOwnPropertySymbols(server).find((s) => s.description === 'http.server.connectionsCheckingInterval');
      const timer = key && slots[key];
      if (!timer || paused) return;
      const fn = timer._onTimeout;
      const every = timer._repeat;
      if (typeof fn !== 'function' || typeof every !== 'number') return;
      clearInterval(timer);
      paused = { fn: fn as () => void, every };
    },
    resume() {
      if (!paused || !key) return;
      const timer = setInterval(paused.fn, paused.every);
      timer.unref();
      slots[key] = timer; // server.close() clears it there
      paused = undefined;
    },
  };
}

/** "METHOD url HTTP/1.1\r\n" plus "name: value\r\n" per header, as uws-server.ts counts it. */
function headBytes(method: string, url: string, raw: string[]): number {
  // Two spaces, "HTTP/1.1" and CRLF: 12 bytes besides the method and the target.
  let n = method.length + url.length + 12;
  for (const part of raw) n += part.length + 2;
  return n;
}

function splitUrl(url: string | undefined): { path: string; rawQuery: string } {
  const u = url ?? '/';
  const q = u.indexOf('?');
  return q < 0 ? { path: u, rawQuery: '' } : { path: u.slice(0, q), rawQuery: u.slice(q + 1) };
}

/** node keeps set-cookie as an array even with joinDuplicateHeaders. */
function flattenHeaders(h: IncomingHttpHeaders): Record<string, string> {
  const out: Record<string, string> = Object.create(null) as Record<string, string>;
  for (const k in h) {
    const v = h[k];
    if (v !== undefined) out[k] = Array.isArray(v) ? v.join(', ') : v;
  }
  return out;
}

function rawToText(data: RawData, isBinary: boolean): string {
  void isBinary; // binary frames are read as UTF-8 text too, as on uWS
  if (Buffer.isBuffer(data)) return data.toString('utf8');
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  return Buffer.from(data).toString('utf8');
}

function byteLength(body: string | Uint8Array): number {
  return typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength;
}

function writeResponse(res: ServerResponse, method: string, out: HttpResponse, close: boolean): void {
  res.statusCode = out.status;
  const h = out.headers;
  if (h) for (const k in h) if (!isManagedHeader(k)) res.setHeader(k, h[k]!);
  if (close) res.setHeader('connection', 'close');
  if (method === 'HEAD') {
    res.setHeader('content-length', byteLength(out.body));
    res.end();
  } else {
    res.end(out.body);
  }
}

/** A complete HTTP/1.1 response on a socket node:http no longer manages (after 'upgrade'). */
function writeRaw(socket: Duplex, out: HttpResponse): void {
  if (socket.destroyed) return;
  const body = typeof out.body === 'string' ? Buffer.from(out.body) : out.body;
  let head = `HTTP/1.1 ${statusLine(out.status)}\r\n`;
  const h = out.headers;
  if (h) {
    for (const k in h) {
      const v = h[k]!;
      if (isManagedHeader(k) || k.toLowerCase() === 'connection' || !HEADER_NAME_OK.test(k) || !HEADER_VALUE_OK.test(v)) continue;
      head += `${k}: ${v}\r\n`;
    }
  }
  head += `content-length: ${body.byteLength}\r\nconnection: close\r\n\r\n`;
  socket.end(Buffer.concat([Buffer.from(head, 'latin1'), body]), () => socket.destroy());
}
