/**
 * startHttpServer: picks the backend (uWS, or node:http + ws when uWS does not load), starts it
 * and logs which one runs. Everything a backend shares lives in context.ts and pipeline.ts.
 */
import { resolveBackendChoice, selectBackend } from './backend.js';
import { createContext } from './context.js';
import type { RunningServer, ServerOptions } from './types.js';
import { startUwsServer } from './uws-server.js';

export async function startHttpServer(opts: ServerOptions): Promise<RunningServer> {
  const ctx = createContext(opts);
  const selected = selectBackend(resolveBackendChoice(opts.backend));
  if (selected.fallbackReason !== undefined) {
    ctx.log.warn({ reason: selected.fallbackReason }, 'uWebSockets.js unavailable, falling back to node:http');
  }
  // node:http + ws are loaded only when they serve (≈ 20 ms of a start otherwise).
  const server = selected.uws ? await startUwsServer(ctx, selected.uws) : await (await import('./node-server.js')).startNodeServer(ctx);
  ctx.log.info({ backend: server.backend, url: server.url }, 'http server listening');
  return server;
}
