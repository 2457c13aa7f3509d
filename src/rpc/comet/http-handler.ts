/**
 * HTTP side of the node RPC, as CometBFT's mux lays it out:
 *
 *   /<method>[?arg=v]   URI call (any HTTP method; args from the query, then a form body)
 *                       → 200 | 500 (-32602 bad args, -32603 handler error) | 404 (WS-only method);
 *                       a value nested deeper than max_json_depth → 200, -32600
 *   /  with empty body  → HTML list of endpoints
 *   /  with a body      → JSON-RPC: single, batch (≤ max_request_batch_size), notifications;
 *                         200, or 500 for a parse error; a one-response batch is a bare object;
 *                         nested deeper than max_json_depth → 200, -32600
 *   /websocket          → 400 unless it is a WebSocket upgrade (handled by the transport)
 *   anything else       → plain 404
 *
 * Every response carries `X-Server-Time`; successful cacheable calls `Cache-Control`.
 */
import type { Logger } from 'pino';
import { depthReason, jsonDepthExceeds } from '../jsonrpc/index.js';
import type { HttpRequest, HttpResponse } from '../transport/index.js';
import { argsFromJson, argsFromUri, callRoute, type CallOutcome } from './call.js';
import type { CallContext } from './context.js';
import { COMET_ERRORS, errorJson, successJson } from './envelope.js';
import type { CometEnv } from './env.js';
import { endpointListHtml } from './index-page.js';
import { parseCometRequests, type CometRequest } from './request.js';
import type { AnyRoute } from './routes.js';

export const WEBSOCKET_PATH = '/websocket';
export const CACHE_CONTROL = 'public, max-age=86400';
/** URI calls have no id; CometBFT answers them under -1. */
export const URI_ID = -1;

export interface HttpHandlerOptions {
  routes: ReadonlyMap<string, AnyRoute>;
  env: () => CometEnv;
  maxBatch: number;
  /** `[rpc] max_json_depth`. */
  maxJsonDepth: number;
  logger: Logger;
  /** Aborted when the server stops. */
  signal: AbortSignal;
}

const decoder = new TextDecoder();

function serverTime(): string {
  return String(Math.floor(Date.now() / 1000));
}

function jsonResponse(status: number, body: string, cache = false): HttpResponse {
  const headers: Record<string, string> = { 'content-type': 'application/json', 'x-server-time': serverTime() };
  if (cache) headers['cache-control'] = CACHE_CONTROL;
  return { status, headers, body };
}

function textResponse(status: number, body: string, type = 'text/plain; charset=utf-8'): HttpResponse {
  return { status, headers: { 'content-type': type, 'x-server-time': serverTime(), 'x-content-type-options': 'nosniff' }, body };
}

/** The JSON text of a response; a result that cannot be serialised becomes an internal error. */
function outcomeJson(id: CometRequest['id'] | number, out: CallOutcome): { text: string; ok: boolean } {
  if (!out.ok) return { text: errorJson(id, out.error), ok: false };
  try {
    return { text: successJson(id, out.result), ok: true };
  } catch (err) {
    return { text: errorJson(id, COMET_ERRORS.internal(`error marshaling response: ${(err as Error).message}`)), ok: false };
  }
}

let httpCallSeq = 0;

export function createCometHttpHandler(o: HttpHandlerOptions): (req: HttpRequest) => Promise<HttpResponse> {
  const ctxFor = (req: HttpRequest, transport: 'uri' | 'jsonrpc', id: CallContext['id']): CallContext => ({
    // Each CometBFT HTTP call has its own connection address; a per-call key keeps concurrent
    // broadcast_tx_commit calls of one client apart, as distinct connections are in Go.
    remoteAddr: `${req.remoteAddress}:${++httpCallSeq}`,
    transport,
    id,
    ws: undefined,
    signal: o.signal,
  });

  async function uriCall(req: HttpRequest, route: AnyRoute): Promise<HttpResponse> {
    if (route.wsOnly) return jsonResponse(404, errorJson(URI_ID, COMET_ERRORS.methodNotFound()));
    const form = isForm(req) ? new URLSearchParams(decoder.decode(req.body)) : undefined;
    const get = (name: string) => req.query.get(name) || form?.get(name) || '';
    // URI values are read as JSON too: the same depth limit as a JSON-RPC body, in the same form.
    if (route.params.some((p) => jsonDepthExceeds(get(p.name), o.maxJsonDepth))) {
      return jsonResponse(200, errorJson(URI_ID, COMET_ERRORS.invalidRequest(depthReason(o.maxJsonDepth))));
    }
    const out = await callRoute({
      env: o.env(),
      ctx: ctxFor(req, 'uri', URI_ID),
      route,
      decode: () => argsFromUri(route, get),
      paramSource: 'http',
      paramErrorsAreInternal: false,
      logger: o.logger,
    });
    const { text, ok } = outcomeJson(URI_ID, out);
    return jsonResponse(ok ? 200 : 500, text, ok && out.ok && out.cacheable);
  }

  async function jsonRpcCall(req: HttpRequest): Promise<HttpResponse> {
    const parsed = parseCometRequests(decoder.decode(req.body), o.maxJsonDepth);
    if (parsed.kind === 'parse-error') {
      return jsonResponse(500, errorJson(undefined, COMET_ERRORS.parse(`error unmarshaling request: ${parsed.reason}`)));
    }
    // A limit, like max_request_batch_size: refused in the body, HTTP 200.
    if (parsed.kind === 'too-deep') return jsonResponse(200, errorJson(undefined, COMET_ERRORS.invalidRequest(parsed.reason)));
    const { requests } = parsed;
    if (o.maxBatch > 0 && requests.length > o.maxBatch) {
      const data = `batch request exceeds maximum (${o.maxBatch}) allowed number of requests`;
      return jsonResponse(200, errorJson(undefined, COMET_ERRORS.invalidRequest(data)));
    }
    const answered = requests.filter((r) => r.id !== undefined);
    const parts = await Promise.all(
      answered.map(async (r) => {
        const route = o.routes.get(r.method);
        if (!route || route.wsOnly) return { text: errorJson(r.id, COMET_ERRORS.methodNotFound()), ok: false, cacheable: false };
        const out = await callRoute({
          env: o.env(),
          ctx: ctxFor(req, 'jsonrpc', r.id!),
          route,
          decode: () => argsFromJson(route, r.params),
          paramSource: 'json',
          paramErrorsAreInternal: false,
          logger: o.logger,
        });
        return { ...outcomeJson(r.id, out), cacheable: out.ok && out.cacheable };
      }),
    );
    if (parts.length === 0) return { status: 200, headers: { 'x-server-time': serverTime() }, body: '' };
    const cache = parts.every((x) => x.ok && x.cacheable);
    // CometBFT writes a set of one response as a bare object, even for a batch.
    const body = parts.length === 1 ? parts[0]!.text : `[${parts.map((x) => x.text).join(',')}]`;
    return jsonResponse(200, body, cache);
  }

  return async (req) => {
    const path = req.path;
    if (path === '/') {
      if (req.body.length === 0) return textResponse(200, endpointListHtml(o.routes, req.headers.host ?? 'localhost'), 'text/html');
      return jsonRpcCall(req);
    }
    const route = o.routes.get(path.slice(1));
    if (route) return uriCall(req, route);
    if (path === WEBSOCKET_PATH) {
      return textResponse(400, "Bad Request\nwebsocket: the client is not using the websocket protocol: 'upgrade' token not found in 'Connection' header\n");
    }
    return textResponse(404, '404 page not found\n');
  };
}

function isForm(req: HttpRequest): boolean {
  return req.body.length > 0 && (req.headers['content-type'] ?? '').toLowerCase().startsWith('application/x-www-form-urlencoded');
}
