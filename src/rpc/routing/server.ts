/**
 * The routing API server (family A) on the shared transport. One request:
 *
 *   find route (ROUTES) → access gate (API key / global bucket) → parse JSON body → note a
 *   deprecated client_id → decode params → handler → Reply → HttpResponse
 *   any throw → errorResponse (one mapping: {code, message, details: []} + gRPC-gateway status);
 *   unexpected errors answer code 2 `internal server error` and are logged with their cause.
 *
 * `startRoutingApi(node)` builds the environment from a node; `startRoutingServer(env, opts)` runs
 * the same server over any RoutingEnv.
 */
import type { Logger } from 'pino';
import { parseListenAddress } from '../../config/listen-address.js';
import { DEFAULT_MAX_JSON_DEPTH, depthReason, jsonDepthExceeds } from '../jsonrpc/index.js';
import { corsOptionsOf, startHttpServer, type BackendChoice, type HttpRequest, type HttpResponse } from '../transport/index.js';
import { AccessGate, CLIENT_ID_DEPRECATION_HEADERS } from './access.js';
import type { ApiKeyStore } from './api-keys.js';
import type { Reply, RouteContext } from './context.js';
import type { RoutingEnv } from './env.js';
import { errorResponse, InvalidArgumentError, MethodNotAllowedError, RouteNotFoundError, RoutingConfigError } from './errors.js';
import { errorPage } from './explorer.js';
import { createPriceTable } from './prices.js';
import { findRoute, isSameOriginOnly } from './routes.js';
import { TokenBucket } from './token-bucket.js';
import { TxTracker } from './tx-tracker.js';

export interface RoutingServerOptions {
  host: string;
  /** 0 = the OS picks. */
  port: number;
  /** Default 2 MiB (a 1 MiB tx in base64 plus JSON). */
  maxBodyBytes?: number;
  backend?: BackendChoice;
}

export interface RoutingApi {
  readonly url: string;
  /** The keys this server accepts; add one with `createApiKey(api.apiKeys, name)`. */
  readonly apiKeys: ApiKeyStore;
  stop(): Promise<void>;
}

// Frozen: the transport validates them and merges CORS into them once, not per response.
const JSON_HEADERS = Object.freeze({ 'content-type': 'application/json' } as const);
const HTML_HEADERS = Object.freeze({ 'content-type': 'text/html; charset=utf-8' } as const);
export const DEFAULT_MAX_BODY = 2 * 1024 * 1024;
/** `[routing] max-header-bytes` when a RoutingConfig leaves it out. */
const DEFAULT_MAX_HEADER = 16 * 1024;
const CORS_METHODS = ['GET', 'POST', 'OPTIONS'];
const CORS_HEADERS = ['Content-Type', 'Authorization', 'Accept'];

/** gRPC-gateway codes of the transport's statuses: 3 invalid argument, 4 deadline, 14 unavailable. */
function routingTransportError(status: number, message: string): HttpResponse {
  const code = status === 408 ? 4 : status >= 500 ? 14 : 3;
  return { status, headers: JSON_HEADERS, body: JSON.stringify({ code, message, details: [] }) };
}

/** "127.0.0.1:8080", "tcp://0.0.0.0:8080" or "[::1]:8080" → host and port. */
export function parseRoutingAddress(addr: string): { host: string; port: number } {
  try {
    return parseListenAddress(addr, '[routing] address');
  } catch {
    throw new RoutingConfigError('address', `"${addr}" is not host:port`);
  }
}

function parseBody(req: HttpRequest, maxDepth: number): unknown {
  if (req.body.length === 0) return {};
  // Refused unparsed: the explorer proxies re-serialise the body, which recurses into it.
  if (jsonDepthExceeds(req.body, maxDepth)) throw new InvalidArgumentError(`request body is not accepted: ${depthReason(maxDepth)} ([routing] max-json-depth)`);
  try {
    return JSON.parse(Buffer.from(req.body.buffer, req.body.byteOffset, req.body.byteLength).toString('utf8'));
  } catch (err) {
    throw new InvalidArgumentError(`request body is not valid JSON: ${(err as Error).message}`);
  }
}

function sendsClientId(query: URLSearchParams, body: unknown): boolean {
  return query.has('client_id') || (typeof body === 'object' && body !== null && 'client_id' in body);
}

function toHttp(reply: Reply, extra: Record<string, string>, head: boolean): HttpResponse {
  switch (reply.kind) {
    case 'json':
      return { status: reply.status ?? 200, headers: { ...JSON_HEADERS, 'cache-control': 'no-store', ...extra }, body: head ? '' : JSON.stringify(reply.body) };
    case 'html':
      return { status: reply.status ?? 200, headers: { ...HTML_HEADERS, 'cache-control': 'no-store', ...extra }, body: head ? '' : reply.body };
    case 'asset':
      return { status: 200, headers: { 'content-type': reply.contentType, 'cache-control': 'public, max-age=86400', ...extra }, body: head ? '' : reply.body };
  }
}

function createHandler(ctx: RouteContext, gate: AccessGate, log: Logger): (req: HttpRequest) => Promise<HttpResponse> {
  const handle = handlerOf(ctx, gate, log);
  const observe = ctx.env.observe;
  if (!observe) return handle;
  return async (req) => {
    const t0 = performance.now();
    const res = await handle(req);
    observe(findRoute(req.method, req.path).match?.route.path ?? 'unmatched', res.status, (performance.now() - t0) / 1000);
    return res;
  };
}

function handlerOf(ctx: RouteContext, gate: AccessGate, log: Logger): (req: HttpRequest) => Promise<HttpResponse> {
  return async (req) => {
    const { match, allowed } = findRoute(req.method, req.path);
    const extra: Record<string, string> = {};
    if (req.query.has('client_id')) Object.assign(extra, CLIENT_ID_DEPRECATION_HEADERS);
    try {
      gate.admit(req.headers, match ? match.route.limited : true);
      if (!match) throw allowed.length > 0 ? new MethodNotAllowedError(allowed) : new RouteNotFoundError(req.path);
      // A raw-body route (the explorer's JSON-RPC proxies) checks and parses its body itself, in its own error form.
      const body = match.route.method === 'POST' && !match.route.rawBody ? parseBody(req, ctx.env.config.maxJsonDepth ?? DEFAULT_MAX_JSON_DEPTH) : undefined;
      if (sendsClientId(req.query, body)) Object.assign(extra, CLIENT_ID_DEPRECATION_HEADERS);
      const params = match.route.decode({
        query: req.query,
        body,
        pathParams: match.pathParams,
        headers: req.headers,
        ...(match.route.rawBody ? { rawBody: req.body } : {}),
      });
      return toHttp(await match.route.handle(ctx, params), extra, req.method === 'HEAD');
    } catch (err) {
      const e = errorResponse(err);
      if (e.internal) log.error({ err, method: req.method, path: req.path }, 'routing: internal server error');
      if (match?.route.format === 'html') {
        const page = errorPage(ctx, e.status, e.body.message);
        return toHttp(page, { ...e.headers, ...extra }, req.method === 'HEAD');
      }
      return { status: e.status, headers: { ...JSON_HEADERS, ...e.headers, ...extra }, body: JSON.stringify(e.body) };
    }
  };
}

/** Runs the routing API over `env` on host:port. */
export async function startRoutingServer(env: RoutingEnv, opts: RoutingServerOptions): Promise<RoutingApi> {
  const cfg = env.config;
  const prices = createPriceTable(cfg.prices);
  const bucket = new TokenBucket(cfg.rateLimitPerSecond, cfg.rateLimitBurst, env.now);
  const gate = new AccessGate(env.apiKeys, bucket);
  const tracker = new TxTracker(env, { submittedMs: cfg.submittedTimeoutMs, stalledMs: cfg.stalledTimeoutMs });
  let base = cfg.publicUrl.replace(/\/+$/, '');
  const ctx: RouteContext = { env, tracker, prices, baseUrl: () => base };
  const stopChains = () => {
    for (const c of env.chains) c.stop?.();
  };
  let server: Awaited<ReturnType<typeof startHttpServer>>;
  try {
    for (const c of env.chains) await c.start?.();
    server = await startHttpServer({
      host: opts.host,
      port: opts.port,
      backend: opts.backend,
      maxBodyBytes: opts.maxBodyBytes ?? DEFAULT_MAX_BODY,
      maxHeaderBytes: cfg.maxHeaderBytes ?? DEFAULT_MAX_HEADER,
      ...(cfg.maxUrlBytes !== undefined ? { maxUrlBytes: cfg.maxUrlBytes } : {}),
      maxOpenConnections: 0,
      // `[routing] cors-allowed-origins`: any origin in the devnet (Skip Go widgets run in browsers), none on a home;
      // never on the explorer's proxies, which answer the explorer's own page only.
      cors: corsOptionsOf(cfg.corsAllowedOrigins ?? [], CORS_METHODS, CORS_HEADERS, isSameOriginOnly),
      onHttp: createHandler(ctx, gate, env.logger),
      formatTransportError: routingTransportError,
      logger: env.logger,
    });
  } catch (err) {
    stopChains();
    throw err;
  }
  if (base === '') base = server.url;
  env.logger.info({ url: server.url, keys: env.apiKeys.path ?? 'memory' }, 'routing API listening');
  return {
    url: server.url,
    apiKeys: env.apiKeys,
    stop: async () => {
      stopChains();
      await server.stop();
    },
  };
}
