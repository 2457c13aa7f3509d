/** A network of the EVM chain and the hub with IBC between them (channel-0 each side), every server on port 0. */
import { mergeConfig } from '../../src/config/defaults.js';
import type { HubChain } from '../../src/chains/hub/start.js';
import { startNetwork, type ChainSpec, type Network, type StartNetworkOptions } from '../../src/network/network.js';
import { FAST_CONSENSUS, TEST_PORTS } from './node.js';

export async function startEvmHubNetwork(more: ChainSpec[] = [], ibc?: StartNetworkOptions['ibc']): Promise<{ network: Network; hub: HubChain }> {
  const network = await startNetwork({
    ...(ibc !== undefined ? { ibc } : {}),
    chains: [
      { kind: 'evm', config: mergeConfig(TEST_PORTS as never, FAST_CONSENSUS as never) as never },
      { kind: 'hub', config: { rpc: { laddr: 'tcp://127.0.0.1:0' } } },
      ...more,
    ],
  });
  return { network, hub: network.chains.find((c): c is HubChain => c.kind === 'hub')! };
}
