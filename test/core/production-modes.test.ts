import { afterEach, describe, expect, it } from 'vitest';
import type { ChainletNode } from '../../src/node/node.js';
import { startTestNode } from '../helpers/node.js';
import { signTransfer } from '../helpers/txs.js';

const nodes: ChainletNode[] = [];
afterEach(async () => {
  await Promise.all(nodes.splice(0).map((n) => n.stop()));
});
async function start(consensus: Record<string, unknown>) {
  const n = await startTestNode({ servers: false, config: { consensus } });
  nodes.push(n);
  return n;
}
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('block production modes', () => {
  it('interval with create_empty_blocks: a block every timeout_commit, txs or not', async () => {
    const node = await start({ mode: 'interval', timeoutCommitMs: 40, createEmptyBlocks: true });
    await node.waitForHeight(3);
    const b2 = await node.internals.blockStore.loadBlock(2);
    expect(b2?.data.txs).toHaveLength(0);
  });

  it('interval without create_empty_blocks: waits for txs, then batches all that arrived', async () => {
    const node = await start({ mode: 'interval', timeoutCommitMs: 40, createEmptyBlocks: false });
    await sleep(200);
    // Only the block at initial_height, made at start whatever the mode.
    expect(node.height).toBe(1);
    for (let nonce = 0; nonce < 3; nonce++) await node.broadcastTx(await signTransfer({ nonce }));
    await node.waitForHeight(2);
    const b2 = await node.internals.blockStore.loadBlock(2);
    expect(b2?.data.txs.length).toBeGreaterThanOrEqual(1);
    await sleep(200);
    const total = (await Promise.all(Array.from({ length: node.height }, (_, i) => node.internals.blockStore.loadBlock(i + 1)))).reduce(
      (n, b) => n + (b?.data.txs.length ?? 0),
      0,
    );
    expect(total).toBe(3);
  });

  it('create_empty_blocks_interval makes empty blocks in automine', async () => {
    const node = await start({ mode: 'automine', createEmptyBlocks: true, createEmptyBlocksIntervalMs: 60 });
    await node.waitForHeight(2);
    expect(node.height).toBeGreaterThanOrEqual(2);
  });

  it('manual: nothing without mine(), even with txs waiting', async () => {
    const node = await start({ mode: 'manual' });
    await node.broadcastTx(await signTransfer({ nonce: 0 }));
    await sleep(150);
    expect(node.height).toBe(1);
    await node.mine(1);
    const b2 = await node.internals.blockStore.loadBlock(2);
    expect(b2?.data.txs).toHaveLength(1);
  });
});
