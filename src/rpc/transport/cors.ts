/**
 * CORS as CometBFT serves it (github.com/rs/cors v1.11 semantics):
 *  - a preflight is `OPTIONS` with `Access-Control-Request-Method`; it is answered here with 204,
 *    carrying the allow headers only when origin, method and every requested header are allowed;
 *  - an actual response gets `Vary: Origin` and, when origin and method are allowed,
 *    `Access-Control-Allow-Origin` (`*` if `*` is configured, else the request's origin);
 *  - on a path of `sameOriginOnly`, no origin is allowed (both answers as for a foreign origin).
 */
import type { CorsOptions, HttpResponse } from './types.js';

export interface CorsPolicy {
  /** The answer to a preflight request, or undefined when the request is not a preflight. */
  preflight(method: string, headers: Record<string, string>, path?: string): HttpResponse | undefined;
  /** Headers to merge into the response of an actual request (read only: may be a shared frozen object). */
  actualHeaders(method: string, headers: Record<string, string>, path?: string): Readonly<Record<string, string>>;
}

type OriginRule = { kind: 'exact'; value: string } | { kind: 'wildcard'; prefix: string; suffix: string };

const PREFLIGHT_VARY = 'Origin, Access-Control-Request-Method, Access-Control-Request-Headers';
/** The answer for a request without an allowed origin (most: servers and scripts send none); frozen, so the pipeline merges it once. */
const VARY_ONLY: Readonly<Record<string, string>> = Object.freeze({ vary: 'Origin' });

/** A server's CORS options from its config lists; undefined (no CORS headers at all) when no origin is allowed. */
export function corsOptionsOf(
  allowedOrigins: readonly string[],
  allowedMethods: readonly string[],
  allowedHeaders: readonly string[],
  sameOriginOnly?: (path: string) => boolean,
): CorsOptions | undefined {
  if (allowedOrigins.length === 0) return undefined;
  return {
    allowedOrigins: [...allowedOrigins],
    allowedMethods: [...allowedMethods],
    allowedHeaders: [...allowedHeaders],
    ...(sameOriginOnly ? { sameOriginOnly } : {}),
  };
}

/** Returns undefined when CORS is off (no options or no allowed origins). */
export function createCorsPolicy(opts: CorsOptions | undefined): CorsPolicy | undefined {
  if (!opts || opts.allowedOrigins.length === 0) return undefined;

  const allOrigins = opts.allowedOrigins.includes('*');
  const rules: OriginRule[] = opts.allowedOrigins
    .filter((o) => o !== '*')
    .map((o) => {
      const lower = o.toLowerCase();
      const star = lower.indexOf('*');
      return star < 0 ? { kind: 'exact', value: lower } : { kind: 'wildcard', prefix: lower.slice(0, star), suffix: lower.slice(star + 1) };
    });
  const methods = new Set(opts.allowedMethods.map((m) => m.toUpperCase()));
  const allHeaders = opts.allowedHeaders.includes('*');
  // rs/cors always allows Origin among the request headers.
  const allowedHeaders = new Set(['origin', ...opts.allowedHeaders.map((h) => h.toLowerCase())]);

  const originAllowed = (origin: string): boolean => {
    if (allOrigins) return true;
    const o = origin.toLowerCase();
    for (const r of rules) {
      if (r.kind === 'exact' ? r.value === o : o.length >= r.prefix.length + r.suffix.length && o.startsWith(r.prefix) && o.endsWith(r.suffix)) {
        return true;
      }
    }
    return false;
  };
  // Preflights themselves are always allowed as a method.
  const methodAllowed = (m: string): boolean => m === 'OPTIONS' || methods.has(m.toUpperCase());
  const allowOriginValue = (origin: string): string => (allOrigins ? '*' : origin);
  const sameOriginOnly = opts.sameOriginOnly;
  const closed = (path: string | undefined): boolean => path !== undefined && sameOriginOnly !== undefined && sameOriginOnly(path);

  return {
    preflight(method, headers, path) {
      const requested = headers['access-control-request-method'];
      if (method !== 'OPTIONS' || !requested) return undefined;
      const out: Record<string, string> = { vary: PREFLIGHT_VARY };
      const res: HttpResponse = { status: 204, headers: out, body: '' };
      const origin = headers['origin'];
      if (!origin || closed(path) || !originAllowed(origin) || !methodAllowed(requested)) return res;
      const rawReqHeaders = headers['access-control-request-headers'] ?? '';
      const reqHeaders = rawReqHeaders
        .split(',')
        .map((h) => h.trim().toLowerCase())
        .filter((h) => h !== '');
      if (!allHeaders && !reqHeaders.every((h) => allowedHeaders.has(h))) return res;
      out['access-control-allow-origin'] = allowOriginValue(origin);
      out['access-control-allow-methods'] = requested.toUpperCase();
      if (reqHeaders.length > 0) out['access-control-allow-headers'] = rawReqHeaders;
      return res;
    },
    actualHeaders(method, headers, path): Readonly<Record<string, string>> {
      const origin = headers['origin'];
      if (!origin || closed(path) || !originAllowed(origin) || !methodAllowed(method)) return VARY_ONLY;
      return { vary: 'Origin', 'access-control-allow-origin': allowOriginValue(origin) };
    },
  };
}
