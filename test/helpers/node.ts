/**
 * The test fixture: an in-memory devnet with every server on an OS-chosen port (port 0) and
 * consensus timeouts short enough for tests. Each test file stops the nodes it starts.
 */
import { mergeConfig } from '../../src/config/defaults.js';
import type { DeepPartial, NodeConfig } from '../../src/config/types.js';
import { startNode, type ChainletNode, type StartNodeOptions } from '../../src/node/node.js';

export const TEST_PORTS: DeepPartial<NodeConfig> = {
  rpc: { laddr: 'tcp://127.0.0.1:0' },
  jsonRpc: { address: '127.0.0.1:0', wsAddress: '127.0.0.1:0' },
  routing: { address: '127.0.0.1:0' },
};

export const FAST_CONSENSUS: DeepPartial<NodeConfig> = {
  consensus: {
    timeoutProposeMs: 200,
    timeoutProposeDeltaMs: 50,
    timeoutPrevoteMs: 50,
    timeoutPrevoteDeltaMs: 20,
    timeoutPrecommitMs: 50,
    timeoutPrecommitDeltaMs: 20,
    timeoutCommitMs: 50,
  },
};

export async function startTestNode(opts: StartNodeOptions = {}): Promise<ChainletNode> {
  const config = mergeConfig(mergeConfig(TEST_PORTS as NodeConfig, FAST_CONSENSUS as never), opts.config as never) as DeepPartial<NodeConfig>;
  return startNode({ ...opts, config });
}
