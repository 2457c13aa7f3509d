/** Options resolved once into what both backends need, so they cannot drift apart on defaults. */
import { createPipeline, silentLog, type HttpPipeline, type TransportLog } from './pipeline.js';
import { formatHostPort } from './remote-address.js';
import type { RunningServer, ServerOptions, WsHandlers } from './types.js';
import { DEFAULT_PING_INTERVAL_MS, PONG_GRACE_MS } from './ws-keepalive.js';
import { createOriginCheck, type OriginCheck } from './ws-origin.js';

export const DEFAULT_MAX_BACKPRESSURE_BYTES = 4 * 1024 * 1024;
export const DEFAULT_SHUTDOWN_TIMEOUT_MS = 5_000;
export const SHUTDOWN_CLOSE_CODE = 1001;
export const SHUTDOWN_CLOSE_REASON = 'server shutting down';

export interface ResolvedWebSocket {
  /** Exact path, or undefined for any path. */
  path: string | undefined;
  handlers: WsHandlers;
  maxPayloadBytes: number;
  pingIntervalMs: number;
  idleTimeoutMs: number;
  maxBackpressureBytes: number;
  originAllowed: OriginCheck;
}

export interface ServerContext {
  opts: ServerOptions;
  log: TransportLog;
  pipeline: HttpPipeline;
  ws: ResolvedWebSocket | undefined;
  shutdownTimeoutMs: number;
}

export function createContext(opts: ServerOptions): ServerContext {
  for (const key of ['maxBodyBytes', 'maxHeaderBytes', 'maxOpenConnections'] as const) {
    const v = opts[key];
    if (!Number.isFinite(v) || v < 0) throw new RangeError(`${key} must be a non-negative number, got ${v}`);
  }
  if (opts.maxUrlBytes !== undefined && !(opts.maxUrlBytes > 0)) throw new RangeError(`maxUrlBytes must be a positive number, got ${opts.maxUrlBytes}`);
  const bound = opts.websocket?.maxBackpressureBytes;
  if (bound !== undefined && !(bound > 0)) throw new RangeError(`websocket.maxBackpressureBytes must be a positive number, got ${bound}`);
  const log: TransportLog = opts.logger ?? silentLog;
  const w = opts.websocket;
  let ws: ResolvedWebSocket | undefined;
  if (w) {
    if (w.path !== '*' && !w.path.startsWith('/')) throw new RangeError(`websocket.path must start with '/' or be '*', got ${w.path}`);
    const pingIntervalMs = w.pingIntervalMs ?? DEFAULT_PING_INTERVAL_MS;
    ws = {
      path: w.path === '*' ? undefined : w.path,
      handlers: w.handlers,
      maxPayloadBytes: w.maxPayloadBytes,
      pingIntervalMs,
      idleTimeoutMs: w.idleTimeoutMs ?? pingIntervalMs + PONG_GRACE_MS,
      maxBackpressureBytes: w.maxBackpressureBytes ?? DEFAULT_MAX_BACKPRESSURE_BYTES,
      originAllowed: createOriginCheck(w.allowedOrigins),
    };
  }
  return {
    opts,
    log,
    pipeline: createPipeline(opts, log),
    ws,
    shutdownTimeoutMs: opts.shutdownTimeoutMs ?? DEFAULT_SHUTDOWN_TIMEOUT_MS,
  };
}

export function serverUrls(ctx: ServerContext, port: number): Pick<RunningServer, 'host' | 'port' | 'url' | 'wsUrl'> {
  const host = ctx.opts.host;
  const hostPort = formatHostPort(host, port);
  return {
    host,
    port,
    url: `http://${hostPort}`,
    wsUrl: `ws://${hostPort}${ctx.ws?.path ?? ''}`,
  };
}

/** Run a user callback without letting a throw (or a rejected promise) escape into the server. */
export function guard(log: TransportLog, what: string, fn: () => unknown): void {
  try {
    const r = fn();
    if (r instanceof Promise) r.catch((err: unknown) => log.error({ err }, `${what} failed`));
  } catch (err) {
    log.error({ err }, `${what} failed`);
  }
}

/** Close reasons are capped at 123 bytes by RFC 6455. */
export function clampReason(reason: string | undefined): string {
  if (!reason) return '';
  const buf = Buffer.from(reason);
  return buf.length <= 123
    ? reason
    : buf
        .subarray(0, 123)
        .toString('utf8')
        .replace(/\uFFFD+$/, '');
}

/**
 * Resolves when `isIdle()` holds, re-checked on each `notify()`, or after `timeoutMs` at the latest.
 * Used by stop() to let in-flight work finish without waiting forever for a stuck handler.
 */
export class Drain {
  private waiters: Array<() => void> = [];
  constructor(private readonly isIdle: () => boolean) {}

  notify(): void {
    if (this.waiters.length > 0 && this.isIdle()) {
      const w = this.waiters;
      this.waiters = [];
      for (const fn of w) fn();
    }
  }

  wait(timeoutMs: number): Promise<'idle' | 'timeout'> {
    if (this.isIdle()) return Promise.resolve('idle');
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((w) => w !== done);
        resolve('timeout');
      }, timeoutMs);
      const done = (): void => {
        clearTimeout(timer);
        resolve('idle');
      };
      this.waiters.push(done);
    });
  }
}
