/**
 * Fixture for the personal / admin / miner / devnet namespace tests: an in-memory devnet (or a
 * node on a `chainlet init` home) with the node's own eth JSON-RPC listeners (HTTP and WebSocket)
 * on OS-chosen ports, so every call goes through the real server, dispatcher and routes table.
 */
import type { DeepPartial, NodeConfig } from '../../src/config/types.js';
import type { ChainletNode } from '../../src/node/node.js';
import { startTestNode } from '../helpers/node.js';

export interface NamespaceNode {
  node: ChainletNode;
  /** The eth HTTP endpoint (http://127.0.0.1:port). */
  url: string;
  wsUrl: string;
  stop(): Promise<void>;
}

export async function startNamespaceNode(opts: { config?: DeepPartial<NodeConfig>; home?: string } = {}): Promise<NamespaceNode> {
  const node = await startTestNode({ config: opts.config, ...(opts.home ? { home: opts.home } : {}) });
  const { jsonRpc, jsonRpcWs } = node.urls;
  if (jsonRpc === undefined || jsonRpcWs === undefined) {
    await node.stop();
    throw new Error('the node started without its eth JSON-RPC listeners');
  }
  return { node, url: jsonRpc, wsUrl: jsonRpcWs, stop: () => node.stop() };
}
