/**
 * The request families of the default network and, for each, a seeded generator of hostile and
 * ordinary HTTP requests and the check that an answer is in the family's own form.
 */
import { COMET_ROUTES } from '../../src/rpc/comet/routes.js';
import { ETH_ROUTES } from '../../src/rpc/eth/routes.js';
import { ROUTES } from '../../src/rpc/routing/routes.js';
import { SOLANA_METHODS } from '../../src/rpc/solana/methods.js';
import type { Answer, HttpReq } from './http-client.js';
import { deepArray, randomJson, type Rng } from './rng.js';

export const PROTOTYPE_NAMES = ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf', 'isPrototypeOf', '__defineGetter__', 'prototype'];

const namesOf = (t: unknown): string[] => (t instanceof Map ? [...t.keys()].map(String) : Object.keys(t as object));
export const ETH_METHODS = ETH_ROUTES.map((r) => r.method as string);
export const COMET_METHODS = namesOf(COMET_ROUTES);
export const SOLANA_NAMES = namesOf(SOLANA_METHODS);

/** One generated request: plain HTTP, or raw bytes on a fresh socket (`raw`, `head` when it is a HEAD). */
export type Fuzzed =
  { kind: 'http'; req: HttpReq; note: string; notification?: boolean } | { kind: 'raw'; port: number; bytes: string | Buffer; head: boolean; note: string };

export interface FamilyLimits {
  /** Body limit of the family's server, bytes. */
  maxBody: number;
}

const ORIGINS = ['https://evil.example', 'null', 'http://127.0.0.1:1', 'http://localhost:3000'];

/** A JSON-RPC body: mostly a real method with random params, else each kind of malformed input. */
export function jsonRpcBody(
  r: Rng,
  methods: readonly string[],
  addresses: readonly string[],
  i: number,
): { body: string; note: string; notification?: boolean } {
  const params = () => (r.chance(0.15) ? randomJson(r, addresses) : `[${Array.from({ length: r.int(4) }, () => randomJson(r, addresses)).join(',')}]`);
  const one = (method: string, id: string = String(i)) => `{"jsonrpc":"2.0","id":${id},"method":${JSON.stringify(method)},"params":${params()}}`;
  const k = r.int(100);
  if (k < 55) return { body: one(r.pick(methods)), note: 'method' };
  if (k < 60) return { body: one(r.pick(PROTOTYPE_NAMES)), note: 'prototype name' };
  if (k < 64) return { body: one(r.string(30)), note: 'random name' };
  if (k < 69) {
    const full = one(r.pick(methods));
    return { body: r.chance(0.5) ? full.slice(0, r.int(full.length)) : r.string(50), note: 'malformed' };
  }
  if (k < 72) {
    const deep = deepArray(r.pick([200, 1000, 5000, 20000]));
    return {
      body: r.chance(0.5)
        ? `{"jsonrpc":"2.0","id":1,"method":${JSON.stringify(r.pick(methods))},"params":${deep}}`
        : `{"jsonrpc":"2.0","id":${deep},"method":"x"}`,
      note: 'deep',
    };
  }
  if (k < 77)
    return {
      body: one(r.pick(methods), r.pick(['1e400', '-0', '1.5', '{}', '[]', 'true', JSON.stringify('x'.repeat(2000)), '18446744073709551616', '"a"'])),
      note: 'odd id',
    };
  if (k < 85) {
    const n = r.int(12);
    const items = Array.from({ length: n }, (_, j) => (r.chance(0.1) ? r.pick(['null', '1', '"x"', '[]']) : one(r.pick(methods), String(j))));
    return { body: `[${items.join(',')}]`, note: 'batch' };
  }
  if (k < 90) {
    const variants = [
      `{"jsonrpc":"1.0","id":1,"method":"x"}`,
      `{"id":1,"method":${JSON.stringify(r.pick(methods))}}`,
      `{"jsonrpc":"2.0","id":1}`,
      `{"jsonrpc":"2.0","id":1,"method":42}`,
      `"just a string"`,
      `null`,
      `42`,
      ``,
    ];
    return { body: r.pick(variants), note: 'invalid request' };
  }
  if (k < 93) return { body: `{"jsonrpc":"2.0","method":${JSON.stringify(r.pick(methods))},"params":${params()}}`, note: 'notification', notification: true };
  return { body: one(r.pick(methods)), note: 'method' };
}

/** HTTP-level hostility on `port` (any family): methods, origins, sizes, HEAD with a body length, huge headers, long URLs, garbage. */
export function httpLevel(r: Rng, port: number, path: string, limits: FamilyLimits): Fuzzed {
  const k = r.int(10);
  const raw = (bytes: string, note: string, head = false): Fuzzed => ({ kind: 'raw', port, bytes, head, note });
  if (k === 0)
    return raw(
      `HEAD ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: ${limits.maxBody + 1 + r.int(1000)}\r\n\r\n`,
      'HEAD with a large Content-Length',
      true,
    );
  if (k === 1) return raw(`HEAD ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`, 'HEAD with a 20 KB header', true);
  if (k === 2) return raw(`GET ${path}?${'a'.repeat(70_000 + r.int(50_000))} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`, 'long URL');
  if (k === 3)
    return raw(
      `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: ${'b'.repeat(20_000)}\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}`,
      'POST with a 20 KB header',
    );
  if (k === 4) {
    const garbage = [
      'GARBAGE\r\n\r\n',
      'GET / HTTP/9.9\r\n\r\n',
      '\x00\x01\x02\r\n\r\n',
      `POST ${path} HTTP/1.1\r\nHost: x\r\nContent-Length: -1\r\n\r\n`,
      `POST ${path} HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n`,
    ];
    return raw(r.pick(garbage), 'garbage');
  }
  if (k === 5 && r.chance(0.2))
    return {
      kind: 'http',
      req: { port, method: 'POST', path, headers: { 'content-type': 'application/json' }, body: Buffer.alloc(limits.maxBody + 1 + r.int(100), 0x20) },
      note: 'body over the limit',
    };
  const method = r.pick(['GET', 'PUT', 'DELETE', 'OPTIONS', 'PATCH', 'HEAD']);
  const headers: Record<string, string> = { origin: r.pick(ORIGINS) };
  if (method === 'OPTIONS') Object.assign(headers, { 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' });
  return {
    kind: 'http',
    req: { port, method, path: r.chance(0.7) ? path : `/${r.string(20).replace(/[^a-z0-9_./-]/gi, '')}`, headers },
    note: `${method} with an Origin`,
  };
}

// ---- the checks ----

type Envelope = { jsonrpc?: unknown; id?: unknown; result?: unknown; error?: { code?: unknown; message?: unknown } };

function envelopeProblem(v: unknown, allowMissingId = false): string | undefined {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return 'not an object';
  const e = v as Envelope;
  if (e.jsonrpc !== '2.0') return 'jsonrpc is not "2.0"';
  if (!('id' in e)) {
    // CometBFT omits a null id (`json:"id,omitempty"`), on parse errors for one.
    if (!allowMissingId) return 'no id';
  }
  const id = e.id;
  if (!(id === null || (id === undefined && allowMissingId) || typeof id === 'string' || (typeof id === 'number' && Number.isFinite(id))))
    return `id of type ${typeof id}`;
  const hasResult = 'result' in e;
  const hasError = 'error' in e && e.error !== undefined;
  if (hasResult === hasError) return 'result and error both present or both absent';
  if (hasError && (typeof e.error?.code !== 'number' || !Number.isInteger(e.error.code) || typeof e.error.message !== 'string'))
    return 'malformed error object';
  return undefined;
}

/** A problem with a JSON-RPC family's HTTP answer, or undefined when it is in the family's form. */
export function jsonRpcAnswerProblem(
  a: Answer,
  opts: { notification?: boolean; allowHtmlIndex?: boolean; textStatuses?: readonly number[]; allowMissingId?: boolean },
): string | undefined {
  if (a.status === -1) return `not HTTP: ${a.body.slice(0, 80)}`;
  const ct = String(a.headers['content-type'] ?? '');
  if (a.body === '') return a.status >= 500 ? `status ${a.status} with no body` : undefined;
  if (opts.allowHtmlIndex && ct.includes('text/html') && a.status === 200) return undefined;
  if (opts.textStatuses?.includes(a.status) && ct.includes('text/plain')) return undefined;
  let v: unknown;
  try {
    v = JSON.parse(a.body);
  } catch {
    return `status ${a.status}, body not JSON: ${a.body.slice(0, 80)}`;
  }
  if (Array.isArray(v)) {
    if (v.length === 0) return 'empty batch answer';
    for (const item of v) {
      const p = envelopeProblem(item, opts.allowMissingId);
      if (p) return `batch item: ${p}`;
    }
    return undefined;
  }
  return envelopeProblem(v, opts.allowMissingId);
}

/** The routing API's form: JSON; an error is `{code, message, details}`. */
export function routingAnswerProblem(a: Answer, path: string): string | undefined {
  if (a.status === -1) return `not HTTP: ${a.body.slice(0, 80)}`;
  if (a.body === '') return a.status >= 500 ? `status ${a.status} with no body` : undefined;
  const ct = String(a.headers['content-type'] ?? '');
  // The explorer's pages are HTML (a 404 page too) and its logo an image.
  if (ct.includes('text/html') && path.startsWith('/explorer')) return undefined;
  if (a.status < 400 && !ct.includes('json')) return path.startsWith('/explorer') || ct.includes('image') ? undefined : `content-type ${ct}`;
  let v: unknown;
  try {
    v = JSON.parse(a.body);
  } catch {
    return `status ${a.status}, body not JSON: ${a.body.slice(0, 80)}`;
  }
  if (a.status >= 400) {
    const e = v as { code?: unknown; message?: unknown; details?: unknown };
    if (typeof e.code !== 'number' || typeof e.message !== 'string' || !Array.isArray(e.details))
      return `status ${a.status}: error not {code, message, details}: ${a.body.slice(0, 120)}`;
  }
  if (a.status >= 500) return `status ${a.status}: ${a.body.slice(0, 120)}`;
  return undefined;
}

export const ROUTING_PATHS = ROUTES.map((r) => ({ method: r.method, path: r.path.replace(/:[a-z_]+$/i, '0x' + 'ab'.repeat(32)) }));
