/** The Prometheus endpoint (`[instrumentation] prometheus_listen_addr`, GET /metrics), as CometBFT serves it. */
import type { Logger } from 'pino';
import type { Registry } from 'prom-client';
import type { InstrumentationConfig } from '../config/types.js';
import { parseListenAddress } from '../config/listen-address.js';
import { startHttpServer, type RunningServer } from '../rpc/transport/index.js';

export async function startPrometheusServer(registry: Registry, cfg: InstrumentationConfig, logger: Logger): Promise<RunningServer> {
  const { host, port } = parseListenAddress(cfg.prometheusListenAddr, '[instrumentation] prometheus_listen_addr');
  const log = logger.child({ module: 'prometheus' });
  const server = await startHttpServer({
    host,
    port,
    maxBodyBytes: cfg.maxBodyBytes,
    maxHeaderBytes: cfg.maxHeaderBytes,
    maxUrlBytes: cfg.maxUrlBytes,
    maxOpenConnections: cfg.maxOpenConnections,
    requestTimeoutMs: 10_000,
    idleTimeoutMs: 60_000,
    logger: log,
    // Plain text, as CometBFT's promhttp endpoint; the transport's default form.
    async onHttp(req) {
      if (req.path !== '/metrics') return { status: 404, headers: { 'content-type': 'text/plain' }, body: '404 page not found\n' };
      if (req.method !== 'GET' && req.method !== 'HEAD') return { status: 405, headers: { 'content-type': 'text/plain' }, body: 'method not allowed\n' };
      return { status: 200, headers: { 'content-type': registry.contentType }, body: req.method === 'HEAD' ? '' : await registry.metrics() };
    },
  });
  log.info({ url: `${server.url}/metrics` }, 'prometheus metrics listening');
  return server;
}
