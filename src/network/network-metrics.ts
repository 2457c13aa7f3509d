/**
 * The network's one Prometheus registry and `/metrics` endpoint: every chain reports there (each
 * CometBFT-style chain through its chain core, the SVM chain its slot, txs and fees), each series
 * with its `chain_id`. It is on when a chain's config turns `[instrumentation] prometheus` on (the
 * CLI's flag lands on the EVM chain); that chain's `[instrumentation]` gives the listen address and
 * the namespace. Off, nothing is loaded.
 */
import type { Logger } from 'pino';
import type { ChainKind } from '../chains/types.js';
import type { InstrumentationConfig } from '../config/types.js';
import type { MetricsRegistry } from '../node/metrics.js';
import { startPrometheusServer } from '../node/prometheus-server.js';
import type { RunningServer } from '../rpc/transport/index.js';

export interface NetworkMetrics {
  readonly registry: MetricsRegistry;
  /** Opens `/metrics` at the network's `prometheus_listen_addr`. */
  serve(logger: Logger): Promise<RunningServer>;
}

/** The `[instrumentation]` of the first chain whose config turns Prometheus on (its kind reads it), or undefined. */
export function networkInstrumentation(specs: readonly { kind: string }[], kinds: readonly ChainKind[]): InstrumentationConfig | undefined {
  for (const [i, spec] of specs.entries()) {
    const cfg = kinds[i]!.instrumentation?.(spec);
    if (cfg) return cfg;
  }
  return undefined;
}

export async function openNetworkMetrics(specs: readonly { kind: string }[], kinds: readonly ChainKind[]): Promise<NetworkMetrics | undefined> {
  const cfg = networkInstrumentation(specs, kinds);
  if (!cfg) return undefined;
  const registry = (await import('../node/metrics.js')).createMetricsRegistry(cfg.namespace);
  return { registry, serve: (logger) => startPrometheusServer(registry.registry, cfg, logger) };
}
