/**
 * The network's one Prometheus registry and `/metrics` endpoint: every chain reports there (each
 * CometBFT-style chain through its chain core, the SVM chain its slot, txs and fees), each series
 * with its `chain_id`. It is on when a chain's config turns `[instrumentation] prometheus` on (the
 * CLI's flag lands on the EVM chain); that chain's `[instrumentation]` gives the listen address and
 * the namespace. Off, nothing is loaded.
 */
import type { Logger } from 'pino';
import { resolveConfig } from '../config/resolve.js';
import type { InstrumentationConfig } from '../config/types.js';
import type { MetricsRegistry } from '../node/metrics.js';
import { startPrometheusServer } from '../node/prometheus-server.js';
import type { RunningServer } from '../rpc/transport/index.js';
import type { ChainSpec } from './network.js';

export interface NetworkMetrics {
  readonly registry: MetricsRegistry;
  /** Opens `/metrics` at the network's `prometheus_listen_addr`. */
  serve(logger: Logger): Promise<RunningServer>;
}

/** The `[instrumentation]` of the first chain whose config turns Prometheus on, or undefined. */
export function networkInstrumentation(chains: readonly ChainSpec[]): InstrumentationConfig | undefined {
  for (const spec of chains) {
    // The SVM chain has no node config (its home holds its ledger only).
    if (spec.kind === 'svm') continue;
    const cfg = resolveConfig('home' in spec ? spec.home : undefined, spec.config).instrumentation;
    if (cfg.prometheus) return cfg;
  }
  return undefined;
}

export async function openNetworkMetrics(chains: readonly ChainSpec[]): Promise<NetworkMetrics | undefined> {
  const cfg = networkInstrumentation(chains);
  if (!cfg) return undefined;
  const registry = (await import('../node/metrics.js')).createMetricsRegistry(cfg.namespace);
  return { registry, serve: (logger) => startPrometheusServer(registry.registry, cfg, logger) };
}
