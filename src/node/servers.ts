/**
 * Starts the RPC servers a node's config enables and gathers their URLs. Each family builds its
 * own narrow environment from the node; this module only decides which ones run and stops them.
 */
import { startPrometheusServer } from './prometheus-server.js';
import { explorerUpstreams, startRoutingApi } from './rpc-routing.js';
import { startCometRpc } from './rpc-comet.js';
import { startEthRpc } from './rpc-eth.js';
import type { ChainletNode } from './node.js';

export interface ServerUrls {
  /** CometBFT node RPC, e.g. http://127.0.0.1:26657 */
  rpc?: string;
  /** CometBFT WebSocket endpoint, e.g. ws://127.0.0.1:26657/websocket */
  rpcWs?: string;
  /** Ethereum JSON-RPC over HTTP. */
  jsonRpc?: string;
  /** Ethereum JSON-RPC over WebSocket. */
  jsonRpcWs?: string;
  /** Routing API. */
  routing?: string;
  /** Prometheus metrics (`…/metrics`), with `[instrumentation] prometheus = true`. */
  metrics?: string;
}

export interface RunningServers {
  urls: ServerUrls;
  stop(): Promise<void>;
}

interface Stoppable {
  stop(): Promise<void>;
}

export async function startServers(node: ChainletNode): Promise<RunningServers> {
  const urls: ServerUrls = {};
  const running: Stoppable[] = [];
  const stop = async () => {
    await Promise.all(running.splice(0).map((s) => s.stop()));
  };
  try {
    // comet rpc
    if (node.config.rpc.laddr !== '') {
      const comet = await startCometRpc(node);
      running.push(comet);
      urls.rpc = comet.url;
      urls.rpcWs = comet.wsUrl;
    }
    if (node.config.jsonRpc.enable) {
      const eth = await startEthRpc(node);
      running.push(eth);
      urls.jsonRpc = eth.url;
      urls.jsonRpcWs = eth.wsUrl;
    }
    if (node.config.routing.enable) {
      const routing = await startRoutingApi(node, [node], [], explorerUpstreams({ urls, config: node.config, internals: node.internals }));
      running.push(routing);
      urls.routing = routing.url;
    }
    // A node in a network reports to the network's registry, which the network serves.
    const metrics = node.internals.metrics;
    if (metrics?.ownRegistry) {
      const prom = await startPrometheusServer(metrics.registry, node.config.instrumentation, node.logger);
      running.push(prom);
      urls.metrics = `${prom.url}/metrics`;
    }
  } catch (err) {
    await stop();
    throw err;
  }
  return { urls, stop };
}
