/**
 * Fixture for the personal / admin / miner / devnet namespace tests: an in-memory devnet and the
 * eth JSON-RPC over real HTTP and WebSocket listeners on OS-chosen ports.
 *
 * Once the eth server serves these namespaces itself (NODE_NAMESPACE_ROUTES in ETH_ROUTES and
 * `env.namespaces` set by createEthEnv), the node's own listeners are used. Until then this
 * fixture runs the same dispatcher (eth routes + these namespaces) on listeners it starts itself,
 * built as the server will build them (ManagedListener, so admin_stop/startHTTP act on them).
 */
import type { DeepPartial, NodeConfig } from '../../src/config/types.js';
import type { ChainletNode } from '../../src/node/node.js';
import { EthDispatcher } from '../../src/rpc/eth/dispatcher.js';
import { createEthEnv } from '../../src/rpc/eth/env.js';
import { listenerControl, ManagedListener } from '../../src/rpc/eth/namespaces/listener-control.js';
import { NODE_NAMESPACE_ROUTES } from '../../src/rpc/eth/namespaces/node-namespaces.js';
import { senderEnvFor } from '../../src/rpc/eth/namespaces/senders.js';
import * as accounts from '../../src/rpc/eth/accounts.js';
import { route } from '../../src/rpc/eth/route.js';
import { createNamespaceServices } from '../../src/rpc/eth/namespaces/services.js';
import type { AnyEthRoute, WsSession } from '../../src/rpc/eth/route.js';
import type { TxArgs } from '../../src/rpc/eth/tx-args.js';
import { enabledNamespaces, ETH_ROUTES } from '../../src/rpc/eth/routes.js';
import { startHttpServer, type WsConnection } from '../../src/rpc/transport/index.js';
import { startTestNode } from '../helpers/node.js';

export interface NamespaceNode {
  node: ChainletNode;
  /** The eth HTTP endpoint (http://127.0.0.1:port). */
  url: string;
  wsUrl: string;
  stop(): Promise<void>;
}

const wired = (ETH_ROUTES as readonly { method: string }[]).some((r) => r.method === 'evm_mine');

export async function startNamespaceNode(opts: { config?: DeepPartial<NodeConfig>; home?: string } = {}): Promise<NamespaceNode> {
  const node = await startTestNode({ config: opts.config, ...(opts.home ? { home: opts.home } : {}), servers: wired });
  if (wired && node.urls.jsonRpc && node.urls.jsonRpcWs) {
    return { node, url: node.urls.jsonRpc, wsUrl: node.urls.jsonRpcWs, stop: () => node.stop() };
  }
  try {
    return await serveNamespaces(node);
  } catch (e) {
    await node.stop();
    throw e;
  }
}

async function serveNamespaces(node: ChainletNode): Promise<NamespaceNode> {
  const cfg = node.config.jsonRpc;
  const namespaces = createNamespaceServices(node);
  const env = { ...createEthEnv(node), namespaces };
  // eth_sendTransaction as it will be wired: a `from` that is no dev account may be an unlocked
  // keystore account or an impersonated address (senderEnvFor).
  const original = (ETH_ROUTES as readonly AnyEthRoute[]).find((r) => r.method === 'eth_sendTransaction')!;
  const sendTransaction = route('eth_sendTransaction', {
    params: original.params,
    doc: original.doc,
    handler: async (e, args) => {
      const [txArgs] = args as unknown as [TxArgs];
      const derived = await senderEnvFor(e, txArgs.from);
      return accounts.sendTransaction(derived ?? e, [txArgs]);
    },
  });
  const dispatcher = new EthDispatcher(env, enabledNamespaces(cfg.api, node.config.evm.devnet), [...ETH_ROUTES, ...NODE_NAMESPACE_ROUTES, sendTransaction as AnyEthRoute]);
  const sessions = new Map<WsConnection, WsSession & { close(): void }>();
  const sessionOf = (c: WsConnection) => {
    let s = sessions.get(c);
    if (!s) {
      const listeners: (() => void)[] = [];
      s = { id: c.id, send: (t) => c.send(t), onClose: (l) => listeners.push(l), close: () => listeners.splice(0).forEach((l) => l()) };
      sessions.set(c, s);
    }
    return s;
  };
  const base = { maxBodyBytes: cfg.maxBodyBytes, maxHeaderBytes: 1_048_576, maxOpenConnections: 0 };
  const http = new ManagedListener('HTTP', '127.0.0.1', 0, (host, port) =>
    startHttpServer({
      ...base,
      host,
      port,
      onHttp: async (req) => ({ status: 200, headers: { 'content-type': 'application/json' }, body: (await dispatcher.handleBody(req.body, {})) ?? '' }),
    }),
  );
  const ws = new ManagedListener('WebSocket', '127.0.0.1', 0, (host, port) =>
    startHttpServer({
      ...base,
      host,
      port,
      onHttp: () => ({ status: 404, body: '' }),
      websocket: {
        path: '*',
        maxPayloadBytes: cfg.maxBodyBytes,
        handlers: {
          onMessage: (c, text) => {
            void dispatcher.handleBody(text, { session: sessionOf(c) }).then((out) => {
              if (out !== undefined && !c.closed) c.send(out);
            });
          },
          onClose: (c) => {
            sessions.get(c)?.close();
            sessions.delete(c);
          },
        },
      },
    }),
  );
  // Until the eth server subscribes its caches itself: readers and block environments are memoised
  // by height, which a revert, a state load or an in-place state edit makes stale.
  const executor = env.calls.executor as unknown as { readers: Map<number, unknown>; blocks: Map<number, unknown> };
  const forget = node.internals.devnet.onChange(() => {
    executor.readers.clear();
    executor.blocks.clear();
  });
  const h = await http.open();
  const w = await ws.open();
  namespaces.listeners = listenerControl(http, ws);
  return {
    node,
    url: h.url,
    wsUrl: w.wsUrl,
    async stop() {
      forget();
      await Promise.all([http.close(), ws.close()]);
      for (const s of sessions.values()) s.close();
      env.filters.close();
      await node.stop();
    },
  };
}
