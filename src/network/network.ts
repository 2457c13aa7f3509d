/**
 * A network: the chains of this process, each with its own genesis, consensus, stores and
 * CometBFT RPC, started and stopped together. `startNode()` stays the one-chain entry; this is the
 * composition root for several (the relayer and a routing API over all chains come next).
 */
import { startNode, type ChainletNode, type StartNodeOptions } from '../node/node.js';
import { startKvStoreChain, type KvStoreChain, type KvStoreChainSpec } from './kvstore-chain.js';

export interface EvmChainSpec extends StartNodeOptions {
  kind: 'evm';
}

export type ChainSpec = EvmChainSpec | KvStoreChainSpec;

export type NetworkChain = ({ readonly kind: 'evm' } & ChainletNode) | KvStoreChain;

export interface Network {
  readonly chains: readonly NetworkChain[];
  /** The chain with this (Cosmos-style) chain id. */
  chain(chainId: string): NetworkChain | undefined;
  /** The EVM chain, when the network has one. */
  readonly evm: ChainletNode | undefined;
  stop(): Promise<void>;
}

export async function startNetwork(opts: { chains: ChainSpec[] }): Promise<Network> {
  const ids = new Set<string>();
  const started: NetworkChain[] = [];
  const stopAll = () => Promise.all(started.map((c) => c.stop())).then(() => undefined);
  try {
    for (const spec of opts.chains) {
      const chain: NetworkChain =
        spec.kind === 'evm' ? Object.assign(await startNode(spec), { kind: 'evm' as const }) : await startKvStoreChain(spec);
      started.push(chain);
      if (ids.has(chain.chainId)) throw new Error(`two chains of the network have the chain id ${chain.chainId}`);
      ids.add(chain.chainId);
    }
  } catch (err) {
    await stopAll();
    throw err;
  }
  return {
    chains: started,
    chain: (chainId) => started.find((c) => c.chainId === chainId),
    evm: started.find((c): c is { readonly kind: 'evm' } & ChainletNode => c.kind === 'evm'),
    stop: stopAll,
  };
}
