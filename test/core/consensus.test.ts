import { afterEach, describe, expect, it } from 'vitest';
import { BlockIDFlag } from '../../src/abci/types.js';
import type { ChainletNode } from '../../src/node/node.js';
import { startTestNode } from '../helpers/node.js';
import { signTransfer } from '../helpers/txs.js';

const nodes: ChainletNode[] = [];
async function start(opts: Parameters<typeof startTestNode>[0] = {}) {
  const n = await startTestNode({ servers: false, ...opts });
  nodes.push(n);
  return n;
}
afterEach(async () => {
  await Promise.all(nodes.splice(0).map((n) => n.stop()));
});

describe('consensus', () => {
  it('automine: a block as soon as a tx arrives, with the tx in it', async () => {
    const node = await start();
    // The block at initial_height is committed at start (CometBFT's proof block of the genesis app hash).
    expect(node.height).toBe(1);
    expect((await node.internals.blockStore.loadBlock(1))?.data.txs).toHaveLength(0);
    const sub = node.subscribe("tm.event = 'Tx'");
    const res = await node.broadcastTx(await signTransfer({ nonce: 0 }));
    expect(res.code).toBe(0);
    const msg = await sub.next();
    expect(msg?.data.type).toBe('Tx');
    expect(node.height).toBeGreaterThanOrEqual(2);
    const block = await node.internals.blockStore.loadBlock(2);
    expect(block?.data.txs).toHaveLength(1);
    // Automine makes no empty blocks.
    await new Promise((r) => setTimeout(r, 150));
    expect(node.height).toBe(2);
  });

  it('manual mine(n) produces n blocks chained by LastCommit', async () => {
    const node = await start({ config: { consensus: { mode: 'manual' } } });
    // Manual mode too starts with the block at initial_height.
    expect(node.height).toBe(1);
    const heights = await node.mine(3);
    expect(heights).toEqual([2, 3, 4]);
    const b3 = await node.internals.blockStore.loadBlock(4);
    const meta2 = await node.internals.blockStore.loadBlockMeta(3);
    expect(Buffer.from(b3!.header.lastBlockId.hash)).toEqual(Buffer.from(meta2!.blockId.hash));
    expect(b3!.lastCommit.height).toBe(3);
    expect(b3!.lastCommit.signatures[0]!.blockIdFlag).toBe(BlockIDFlag.Commit);
    const b1 = await node.internals.blockStore.loadBlock(1);
    expect(b1!.lastCommit.signatures).toHaveLength(0);
    expect(b1!.header.lastBlockId.hash).toHaveLength(0);
  });

  it('4 validators: rotate proposers; 3 online keep producing, 2 halt the chain, and it resumes', async () => {
    const node = await start({ devnet: { validators: 4 }, config: { consensus: { mode: 'manual' } } });
    await node.mine(3);
    const proposers = new Set<string>();
    for (let h = 1; h <= 4; h++) proposers.add(Buffer.from((await node.internals.blockStore.loadBlock(h))!.header.proposerAddress).toString('hex'));
    expect(proposers.size).toBe(4);

    const offline = node.subscribe("tm.event = 'ValidatorOffline'", 'watch1');
    node.setValidatorOnline(3, false);
    expect((await offline.next())?.data.type).toBe('ValidatorOffline');
    await node.mine(4); // includes a height whose proposer is offline: round change by timeout
    const h = node.height;
    expect(h).toBe(8);
    let sawAbsent = false;
    let sawRound = false;
    for (let i = 5; i <= h; i++) {
      const c = (await node.internals.blockStore.loadBlockCommit(i)) ?? (await node.internals.blockStore.loadSeenCommit(i));
      if (c?.signatures.some((s: { blockIdFlag: number }) => s.blockIdFlag === BlockIDFlag.Absent)) sawAbsent = true;
      if (c && c.round > 0) sawRound = true;
    }
    expect(sawAbsent).toBe(true);
    expect(sawRound).toBe(true);

    const halted = node.subscribe("tm.event = 'ChainHalted'", 'watch2');
    node.setValidatorOnline(2, false);
    const pending = node.mine(1);
    expect((await halted.next())?.data.type).toBe('ChainHalted');
    expect(node.height).toBe(8);
    node.setValidatorOnline(2, true);
    await pending;
    expect(node.height).toBe(9);
  });

  it('subscribe() twice with the same query gives two independent subscriptions', async () => {
    const node = await start({ config: { consensus: { mode: 'manual' } } });
    const a = node.subscribe("tm.event = 'NewBlock'");
    const b = node.subscribe("tm.event = 'NewBlock'");
    await node.mine(1);
    expect((await a.next())?.data.type).toBe('NewBlock');
    expect((await b.next())?.data.type).toBe('NewBlock');
  });

  it('two nodes in one process do not interfere', async () => {
    const a = await start({ config: { consensus: { mode: 'manual' } } });
    const b = await start({ config: { consensus: { mode: 'manual' } }, devnet: { chainId: 'other_77-1' } });
    await a.mine(2);
    expect(a.height).toBe(3);
    expect(b.height).toBe(1);
    expect(b.evmChainId).toBe(77);
    await b.mine(1);
    expect(a.height).toBe(3);
  });
});
