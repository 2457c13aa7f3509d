/**
 * The routing API's environment (RoutingEnv) over a network's EVM nodes (adapters from
 * evm-routing-chain.ts) and other chains' adapters, its server started, and the live explorer's
 * upstreams.
 */
import { toHexUpper } from '../crypto/encoding.js';
import type { MempoolTx } from '../mempool/types.js';
import type { ApiKeyStore } from '../rpc/routing/api-keys.js';
import type { RoutingChain, RoutingEnv } from '../rpc/routing/env.js';
import { DEFAULT_MAX_BODY, parseRoutingAddress, startRoutingServer, type RoutingApi } from '../rpc/routing/server.js';
import { monotonicMs } from '../rpc/routing/token-bucket.js';
import { formatRfc3339Nano } from '../types/time.js';
import { evmRoutingChainOf } from './evm-routing-chain.js';
import type { ChainletNode } from './node.js';

/** What a network adds to the routing environment of its chains (its IBC paths…). */
export type RoutingEnvExtras = Partial<Omit<RoutingEnv, 'chains' | 'config' | 'logger' | 'apiKeys' | 'now' | 'explorer' | 'ibcTransfers'>>;

/** Starts the routing API on `node`'s `[routing] address`, over `chains` (default: the node alone). */
export async function startRoutingApi(
  node: ChainletNode,
  chains: readonly ChainletNode[] = [node],
  others: readonly RoutingChain[] = [],
  explorer?: RoutingEnv['explorer'],
  ibcTransfers?: RoutingEnv['ibcTransfers'],
  extras: RoutingEnvExtras = {},
): Promise<RoutingApi> {
  const { host, port } = parseRoutingAddress(node.config.routing.address);
  const maxBodyBytes = Math.max(DEFAULT_MAX_BODY, Math.ceil((node.config.mempool.maxTxBytes * 4) / 3) + 64 * 1024);
  const env = networkRoutingEnv(node, chains, others);
  return startRoutingServer({ ...env, ...(explorer ? { explorer } : {}), ...(ibcTransfers ? { ibcTransfers } : {}), ...extras }, { host, port, maxBodyBytes });
}

/** What the live explorer reads: `node`'s CometBFT RPC (and WebSocket), Ethereum JSON-RPC and mempool. */
export function explorerUpstreams(node: Pick<ChainletNode, 'urls' | 'config' | 'internals'>): NonNullable<RoutingEnv['explorer']> {
  const u = node.urls;
  const mempool = node.internals.mempool;
  const list = (m: Map<string, MempoolTx[]>) => [...m.values()].flat().map((t) => ({ sender: t.sender, nonce: t.nonce.toString(), hash: toHexUpper(t.hash) }));
  return {
    cometRpc: u.rpc,
    cometWs: u.rpcWs,
    ethRpc: u.jsonRpc,
    devnet: node.config.evm.devnet,
    mempool: () => {
      const c = mempool.content();
      return { pending: list(c.pending), queued: list(c.queued) };
    },
  };
}

/**
 * The node's API-key store (`<home>/config/api_keys.json`, else in memory): the one its routing API
 * checks, for adding keys in process (`createApiKey(getApiKeyStore(node), 'ci')`).
 */
export function getApiKeyStore(node: Pick<ChainletNode, 'internals'>): ApiKeyStore {
  return node.internals.apiKeys;
}

/** The routing environment of one EVM node: its adapter, config, API keys. */
export function createRoutingEnv(node: ChainletNode): RoutingEnv {
  return networkRoutingEnv(node, [node]);
}

/** One routing environment over several EVM chains (and other chains' adapters); `host` gives the config and API keys. */
export function networkRoutingEnv(host: ChainletNode, nodes: readonly ChainletNode[], others: readonly RoutingChain[] = []): RoutingEnv {
  return {
    chains: [...nodes.map(evmRoutingChain), ...others],
    ...(host.internals.metrics ? { observe: host.internals.metrics.observeRouting } : {}),
    config: host.config.routing,
    logger: host.logger.child({ module: 'routing' }),
    apiKeys: host.internals.apiKeys,
    now: monotonicMs,
  };
}

/** The routing adapter of an EVM chain (its Cosmos and EVM faces). */
export function evmRoutingChain(node: ChainletNode): RoutingChain {
  const { app, mempool, txIndexer, blockStore } = node.internals;
  // The ERC20 reads share eth_call's call service (its limits, its EVMs, its reset on a devnet edit).
  const calls = node.internals.eth.env.calls;
  return evmRoutingChainOf({
    chainId: node.chainId,
    evmChainId: node.evmChainId,
    appState: node.genesis.appState,
    app,
    erc20Tokens: node.config.routing.erc20Tokens,
    calls,
    checkTx: (tx) => mempool.checkTx(tx),
    pooledTx(hash) {
      const t = mempool.get(hash);
      return t && { tx: t.tx, cometHash: t.hash, ethHash: t.ethHash, sender: t.sender, nonce: t.nonce };
    },
    indexedTx: txIndexer ? (hash) => txIndexer.get(hash) : undefined,
    async block(height) {
      const meta = await blockStore.loadBlockMeta(height);
      if (!meta) return undefined;
      return { height, hash: meta.blockId.hash, time: formatRfc3339Nano(meta.header.time), numTxs: meta.numTxs, proposer: meta.header.proposerAddress };
    },
  });
}
