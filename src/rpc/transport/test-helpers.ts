/**
 * Helpers for tests that drive a real transport server: raw HTTP over a socket (for what fetch
 * will not send: bad heads, chunked bodies, half-sent requests) and WebSocket client promises.
 * Shared with the RPC family tests; not part of the runtime API.
 */
import { connect } from 'node:net';
import { WebSocket, type ClientOptions } from 'ws';
import { BACKEND_ENV, loadUws } from './backend.js';
import { startHttpServer } from './server.js';
import type { BackendName, RunningServer, ServerOptions } from './types.js';

/**
 * Backends to run server tests on: both where the uWS binary exists for this Node ABI (it does
 * for Node 20), else node only; CHAINLET_HTTP_BACKEND=uws|node narrows it to one, as it forces
 * every server to that backend anyway.
 */
export const BACKENDS: readonly BackendName[] = ((): BackendName[] => {
  const forced = process.env[BACKEND_ENV]?.trim().toLowerCase();
  if (forced === 'uws' || forced === 'node') return [forced];
  return 'uws' in loadUws() ? ['uws', 'node'] : ['node'];
})();

export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
  /** Everything received, unparsed ('' when the server closed without answering). */
  raw: string;
  /** The socket error, if it ended with one (e.g. ECONNRESET). */
  error?: string;
}

/**
 * Send raw bytes, resolve with the first response, parsed. Resolves early when a response with
 * Content-Length is complete, otherwise when the server closes or after `timeoutMs`.
 */
export function rawHttp(port: number, data: string | Buffer | Array<string | Buffer>, timeoutMs = 3000): Promise<RawResponse> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    let buf = Buffer.alloc(0);
    let error: string | undefined;
    let settled = false;
    const done = (): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      resolve(parseRaw(buf.toString('latin1'), error));
    };
    const timer = setTimeout(done, timeoutMs);
    const first = Array.isArray(data) ? data[0] : data;
    const head = typeof first === 'string' && first.startsWith('HEAD ');
    socket.on('connect', () => {
      for (const part of Array.isArray(data) ? data : [data]) socket.write(part);
    });
    socket.on('data', (d: Buffer) => {
      buf = Buffer.concat([buf, d]);
      if (responseComplete(buf.toString('latin1'), head)) done();
    });
    socket.on('error', (e: NodeJS.ErrnoException) => {
      error = e.code ?? e.message;
      done();
    });
    socket.on('close', done);
  });
}

/** A response to HEAD is complete at the end of its head, whatever its Content-Length says. */
function responseComplete(text: string, head: boolean): boolean {
  const end = text.indexOf('\r\n\r\n');
  if (end < 0) return false;
  if (head) return true;
  const m = /\r\ncontent-length:\s*(\d+)/i.exec(text.slice(0, end + 2));
  return m !== null && Buffer.byteLength(text.slice(end + 4), 'latin1') >= Number(m[1]);
}

function parseRaw(raw: string, error: string | undefined): RawResponse {
  const end = raw.indexOf('\r\n\r\n');
  const head = end < 0 ? raw : raw.slice(0, end);
  const [statusLine = '', ...lines] = head.split('\r\n');
  const status = Number(/^HTTP\/1\.\d (\d{3})/.exec(statusLine)?.[1] ?? 0);
  const headers: Record<string, string> = {};
  for (const l of lines) {
    const i = l.indexOf(':');
    if (i > 0) headers[l.slice(0, i).trim().toLowerCase()] = l.slice(i + 1).trim();
  }
  const res: RawResponse = { status, headers, body: end < 0 ? '' : raw.slice(end + 4), raw };
  if (error !== undefined) res.error = error;
  return res;
}

/** Open a WebSocket; rejects with the HTTP status if the upgrade is refused. */
export function openWs(url: string, opts?: ClientOptions): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, opts);
    ws.once('open', () => resolve(ws));
    ws.once('unexpected-response', (_req, res) => {
      reject(new Error(`unexpected-response ${res.statusCode}`));
      ws.terminate();
    });
    ws.once('error', reject);
  });
}

export function nextMessage(ws: WebSocket): Promise<string> {
  return new Promise((resolve) => ws.once('message', (d: Buffer) => resolve(d.toString('utf8'))));
}

export function closed(ws: WebSocket): Promise<{ code: number; reason: string }> {
  if (ws.readyState === WebSocket.CLOSED) return Promise.resolve({ code: 1006, reason: '' });
  return new Promise((resolve) => ws.once('close', (code: number, reason: Buffer) => resolve({ code, reason: reason.toString() })));
}

/** Defaults small enough for tests; everything can be overridden. */
export function testServer(backend: BackendName, overrides: Partial<ServerOptions>): Promise<RunningServer> {
  return startHttpServer({
    host: '127.0.0.1',
    port: 0,
    backend,
    maxBodyBytes: 1_000_000,
    maxHeaderBytes: 16_384,
    maxOpenConnections: 0,
    onHttp: () => ({ status: 200, body: 'ok' }),
    ...overrides,
  });
}

/** Poll `cond` until true (for effects with no event to wait on), failing after `timeoutMs`. */
export async function until(cond: () => boolean, timeoutMs = 3000): Promise<void> {
  const start = Date.now();
  while (!cond()) {
    if (Date.now() - start > timeoutMs) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 5));
  }
}
