/**
 * `startNode()` as the package exports it: a network of one EVM chain that serves everything of
 * its own (its CometBFT RPC, Ethereum JSON-RPC, routing API and metrics endpoint), through the one
 * composition root. The chain it answers is the EVM kind's (src/chains/evm), whose start is the
 * node builder of src/node/node.ts.
 */
import type { ChainletNode, StartNodeOptions } from '../node/node.js';
import { startNetwork } from './network.js';

export async function startNode(opts: StartNodeOptions = {}): Promise<ChainletNode> {
  // Nothing around the chain (no relayer, routing API or registry of the network's): its own stop is the network's.
  const network = await startNetwork({ chains: [{ ...opts, kind: 'evm' }], standalone: true });
  return network.evm!;
}
