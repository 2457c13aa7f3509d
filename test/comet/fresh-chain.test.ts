/**
 * A node that has received no tx at all already has its first block (CometBFT commits the block at
 * initial_height right after genesis), so cosmjs works on it from the first call, in every mode.
 */
import { StargateClient } from '@cosmjs/stargate';
import { Comet38Client } from '@cosmjs/tendermint-rpc';
import { afterEach, describe, expect, it } from 'vitest';
import type { ProductionMode } from '../../src/config/types.js';
import type { ChainletNode } from '../../src/node/node.js';
import { startTestNode } from '../helpers/node.js';

const nodes: ChainletNode[] = [];
afterEach(async () => {
  await Promise.all(nodes.splice(0).map((n) => n.stop()));
});

describe.each<[ProductionMode, boolean]>([
  ['automine', false],
  ['manual', false],
  ['interval', false],
])('a fresh %s node (create_empty_blocks = %s)', (mode, createEmptyBlocks) => {
  it('answers cosmjs status, getHeight and block without any tx', async () => {
    const node = await startTestNode({ config: { consensus: { mode, createEmptyBlocks, timeoutCommitMs: 60_000 } } });
    nodes.push(node);
    const comet = await Comet38Client.connect(node.urls.rpc!);
    try {
      const status = await comet.status();
      expect(status.syncInfo.latestBlockHeight).toBe(1);
      expect(status.syncInfo.latestBlockHash).toHaveLength(32);
      expect(status.syncInfo.latestAppHash).toHaveLength(32);
      const block = await comet.block();
      expect(block.block.header.height).toBe(1);
      expect(block.block.txs).toHaveLength(0);
      expect(block.blockId.hash).toEqual(status.syncInfo.latestBlockHash);
    } finally {
      comet.disconnect();
    }
    const stargate = await StargateClient.connect(node.urls.rpc!);
    try {
      expect(await stargate.getHeight()).toBe(1);
      expect((await stargate.getBlock()).header.height).toBe(1);
      expect(await stargate.getChainId()).toBe(node.chainId);
    } finally {
      stargate.disconnect();
    }
  });
});
