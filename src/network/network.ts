/**
 * A network: the chains of this process, each with its own genesis, consensus, stores and
 * CometBFT RPC, started and stopped together, and one routing API over every chain that has a
 * routing adapter. `startNode()` stays the one-chain entry; this is the composition root for several
 * (the relayer comes next).
 */
import { mergeConfig } from '../config/defaults.js';
import { resolveConfig } from '../config/resolve.js';
import type { DeepPartial, NodeConfig } from '../config/types.js';
import { startNode, type ChainletNode, type StartNodeOptions } from '../node/node.js';
import { explorerUpstreams, startRoutingApi } from '../node/rpc-wiring.js';
import type { RoutingApi } from '../rpc/routing/server.js';
import { startKvStoreChain, type KvStoreChain, type KvStoreChainSpec } from './kvstore-chain.js';
import type { SvmChain, SvmChainSpec } from './svm-chain.js';
import { startHubChain, type HubChain, type HubChainSpec } from './hub-chain.js';
import { hubRoutingChain } from './hub-routing.js';

export interface EvmChainSpec extends StartNodeOptions {
  kind: 'evm';
}

export type ChainSpec = EvmChainSpec | KvStoreChainSpec | HubChainSpec | SvmChainSpec;

export type NetworkChain = ({ readonly kind: 'evm' } & ChainletNode) | KvStoreChain | HubChain | SvmChain;

export interface Network {
  readonly chains: readonly NetworkChain[];
  /** The chain with this (Cosmos-style) chain id. */
  chain(chainId: string): NetworkChain | undefined;
  /** The EVM chain, when the network has one. */
  readonly evm: ChainletNode | undefined;
  /** The routing API over the chains that have a routing adapter (at the first EVM chain's `[routing] address`). */
  readonly urls: { routing?: string };
  stop(): Promise<void>;
}

export async function startNetwork(opts: { chains: ChainSpec[] }): Promise<Network> {
  const ids = new Set<string>();
  const started: NetworkChain[] = [];
  let routing: RoutingApi | undefined;
  const stopAll = async () => {
    await routing?.stop();
    await Promise.all(started.map((c) => c.stop()));
  };
  // One routing API for the whole network: the EVM chains start without their own.
  const firstEvm = opts.chains.find((c): c is EvmChainSpec => c.kind === 'evm');
  const routingWanted = firstEvm !== undefined && firstEvm.servers !== false && resolveConfig(firstEvm.home, firstEvm.config).routing.enable;
  const noRouting: DeepPartial<NodeConfig> = { routing: { enable: false } };
  try {
    for (const spec of opts.chains) {
      const chain: NetworkChain =
        spec.kind === 'evm'
          ? Object.assign(await startNode({ ...spec, config: mergeConfig((spec.config ?? {}) as NodeConfig, noRouting as never) as DeepPartial<NodeConfig> }), { kind: 'evm' as const })
          : spec.kind === 'kvstore'
            ? await startKvStoreChain(spec)
            : spec.kind === 'hub'
              ? await startHubChain(spec)
            : // LiteSVM is loaded only by a network that has an SVM chain.
              await (await import('./svm-chain.js')).startSvmChain(spec);
      started.push(chain);
      if (ids.has(chain.chainId)) throw new Error(`two chains of the network have the chain id ${chain.chainId}`);
      ids.add(chain.chainId);
    }
    const evms = started.filter((c): c is { readonly kind: 'evm' } & ChainletNode => c.kind === 'evm');
    const svms = started.filter((c): c is SvmChain => c.kind === 'svm');
    const hubs = started.filter((c): c is HubChain => c.kind === 'hub');
    const others = [...hubs.map(hubRoutingChain), ...(svms.length > 0 ? svms.map((await import('./svm-routing.js')).svmRoutingChain) : [])];
    const otherCometChains = hubs.flatMap((hub) => (hub.urls.rpc ? [{ chainId: hub.chainId, rpc: hub.urls.rpc, ws: hub.urls.rpcWs }] : []));
    if (routingWanted && evms[0]) routing = await startRoutingApi(evms[0], evms, others, { ...explorerUpstreams(evms[0]), svmRpc: svms[0]?.urls.rpc, otherCometChains });
  } catch (err) {
    await stopAll();
    throw err;
  }
  return {
    urls: routing ? { routing: routing.url } : {},
    chains: started,
    chain: (chainId) => started.find((c) => c.chainId === chainId),
    evm: started.find((c): c is { readonly kind: 'evm' } & ChainletNode => c.kind === 'evm'),
    stop: stopAll,
  };
}
