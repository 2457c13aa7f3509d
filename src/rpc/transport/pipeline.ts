/**
 * The backend-independent part of answering an HTTP request:
 *
 *   request ─▶ CORS preflight? ──yes──▶ 204 (no handler call)
 *                 │ no
 *                 ▼
 *            onHttp(req) ──throws/rejects, or a malformed response──▶ 500 {"error":"internal error"} + log line
 *                 │
 *                 ▼
 *            + CORS headers ─▶ backend writes it
 *
 * Also builds the transport's own error responses (400, 408, 413, 414, 431, 503) in the family's
 * form (`formatTransportError`), so both backends send the same.
 */
import { createRequire } from 'node:module';
import { createCorsPolicy } from './cors.js';
import { DEFAULT_MAX_URL_BYTES, plainTransportError } from './transport-errors.js';
import type { HttpRequest, HttpResponse, ServerOptions } from './types.js';

/** The subset of a pino logger the transport uses. */
export interface TransportLog {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

const noop = (): void => {};
export const silentLog: TransportLog = { info: noop, warn: noop, error: noop };

const JSON_TYPE = Object.freeze({ 'content-type': 'application/json' });
const INTERNAL_ERROR_BODY = '{"error":"internal error"}';

export interface HttpPipeline {
  /** Sync when the handler is sync, so the hot path allocates no promise. */
  handle(req: HttpRequest): HttpResponse | Promise<HttpResponse>;
  /** The request target (path and query) is longer than this: 414. */
  readonly maxUrlBytes: number;
  bodyTooLarge(): HttpResponse;
  uriTooLong(): HttpResponse;
  headersTooLarge(): HttpResponse;
  requestTimeout(): HttpResponse;
  badRequest(): HttpResponse;
  shuttingDown(): HttpResponse;
}

export function createPipeline(opts: ServerOptions, log: TransportLog): HttpPipeline {
  const cors = createCorsPolicy(opts.cors);
  const maxUrlBytes = opts.maxUrlBytes ?? DEFAULT_MAX_URL_BYTES;
  const formatted = opts.formatTransportError ?? plainTransportError;
  // A throwing or malformed formatter must not take the error path down with it.
  const transportError = (status: number, message: string): HttpResponse => {
    try {
      const res = formatted(status, message);
      if (!checkResponse(res)) return res;
    } catch (err) {
      log.error({ err, status }, 'formatTransportError failed');
    }
    return plainTransportError(status, message);
  };

  const fail = (err: unknown, req: HttpRequest): HttpResponse => {
    log.error({ err, method: req.method, path: req.path }, 'http handler failed');
    return { status: 500, headers: JSON_TYPE, body: INTERNAL_ERROR_BODY };
  };

  // A handler's constant headers merged with a constant CORS answer, built once (see `withCors`).
  const merged = new WeakMap<Record<string, string>, WeakMap<Record<string, string>, Record<string, string>>>();
  const finish = (res: HttpResponse, req: HttpRequest): HttpResponse => {
    const problem = checkResponse(res);
    if (problem) return fail(new TypeError(problem), req);
    if (!cors) return res;
    const extra = cors.actualHeaders(req.method, req.headers, req.path);
    const own = res.headers;
    // Frozen on both sides (a handler's constant, CORS's answers without an origin to echo): one merge for all.
    if (own && Object.isFrozen(own) && Object.isFrozen(extra)) {
      let byExtra = merged.get(own);
      if (!byExtra) merged.set(own, (byExtra = new WeakMap()));
      let headers = byExtra.get(extra);
      if (!headers) byExtra.set(extra, (headers = Object.freeze(withCors(own, extra))));
      return { status: res.status, headers, body: res.body };
    }
    return { status: res.status, headers: withCors(own, extra), body: res.body };
  };

  return {
    handle(req) {
      if (cors) {
        const pre = cors.preflight(req.method, req.headers, req.path);
        if (pre) return pre;
      }
      let out: HttpResponse | Promise<HttpResponse>;
      try {
        out = opts.onHttp(req);
      } catch (err) {
        return fail(err, req);
      }
      if (out instanceof Promise) {
        return out.then(
          (r) => finish(r, req),
          (err: unknown) => fail(err, req),
        );
      }
      return finish(out, req);
    },
    maxUrlBytes,
    bodyTooLarge: () => transportError(413, `request body too large (max ${opts.maxBodyBytes} bytes)`),
    uriTooLong: () => transportError(414, `request URI too long (max ${maxUrlBytes} bytes)`),
    headersTooLarge: () => transportError(431, `request header fields too large (max ${opts.maxHeaderBytes} bytes)`),
    requestTimeout: () => transportError(408, 'request timeout'),
    badRequest: () => transportError(400, 'bad request'),
    shuttingDown: () => transportError(503, 'server shutting down'),
  };
}

/** A response's headers with CORS's added (a second Vary joins the handler's). */
function withCors(own: Record<string, string> | undefined, extra: Record<string, string>): Record<string, string> {
  const headers: Record<string, string> = {};
  if (own) for (const k in own) headers[k] = own[k]!;
  for (const k in extra) {
    const v = extra[k]!;
    headers[k] = k === 'vary' && headers[k] ? `${headers[k]}, ${v}` : v;
  }
  return headers;
}

/** Header objects already found valid: frozen ones (handlers' constants) are checked once. */
const validHeaders = new WeakSet<Record<string, string>>();

export const HEADER_NAME_OK = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
export const HEADER_VALUE_OK = /^[\t\x20-\x7e\x80-\xff]*$/;

/**
 * What is wrong with a handler's response, if anything. uWS writes header bytes as given, so a
 * CR/LF in a value would split the response; node would throw mid-write. Both become a 500.
 */
function checkResponse(res: HttpResponse): string | undefined {
  if (res === null || typeof res !== 'object') return 'handler returned no HttpResponse';
  if (!Number.isInteger(res.status) || res.status < 100 || res.status > 999) return `invalid status ${String(res.status)}`;
  if (typeof res.body !== 'string' && !(res.body instanceof Uint8Array)) return 'body must be a string or a Uint8Array';
  const h = res.headers;
  if (h && !validHeaders.has(h)) {
    for (const k in h) {
      const v = h[k];
      if (typeof v !== 'string' || !HEADER_NAME_OK.test(k) || !HEADER_VALUE_OK.test(v)) return `invalid response header ${JSON.stringify(k)}`;
    }
    if (Object.isFrozen(h)) validHeaders.add(h);
  }
  return undefined;
}

/**
 * node:http's reason phrases (RFC 9110) of the statuses these servers send, so that the uWS backend
 * answers without loading node:http (≈ 7 ms at start); any other status is looked up in node:http
 * itself. A test checks the table against node:http's.
 */
export const COMMON_REASONS: Readonly<Record<number, string>> = {
  200: 'OK',
  204: 'No Content',
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  408: 'Request Timeout',
  413: 'Payload Too Large',
  414: 'URI Too Long',
  415: 'Unsupported Media Type',
  429: 'Too Many Requests',
  431: 'Request Header Fields Too Large',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
};

const statusLines = new Map<number, string>();

/** `200 OK`, as uWS wants it; cached because every response needs one. */
export function statusLine(status: number): string {
  let line = statusLines.get(status);
  if (line === undefined) {
    const reason = COMMON_REASONS[status] ?? (createRequire(import.meta.url)('node:http') as typeof import('node:http')).STATUS_CODES[status];
    line = `${status} ${reason ?? 'Unknown'}`;
    statusLines.set(status, line);
  }
  return line;
}

/** Headers the backends compute themselves; a handler's copy would be a duplicate or a lie. */
export function isManagedHeader(name: string): boolean {
  const n = name.toLowerCase();
  return n === 'content-length' || n === 'transfer-encoding';
}

/**
 * An HttpRequest whose `query` is parsed only if a handler reads it (JSON-RPC posts never do). A
 * class: an object literal with its own getter costs ~3 µs a request to build, a prototype getter nothing.
 */
class LazyQueryRequest implements HttpRequest {
  private parsed: URLSearchParams | undefined;
  constructor(
    readonly method: string,
    readonly path: string,
    readonly rawQuery: string,
    readonly headers: Record<string, string>,
    readonly body: Uint8Array,
    readonly remoteAddress: string,
  ) {}
  get query(): URLSearchParams {
    return (this.parsed ??= new URLSearchParams(this.rawQuery));
  }
}

export function createHttpRequest(
  method: string,
  path: string,
  rawQuery: string,
  headers: Record<string, string>,
  body: Uint8Array,
  remoteAddress: string,
): HttpRequest {
  return new LazyQueryRequest(method, path, rawQuery, headers, body, remoteAddress);
}
