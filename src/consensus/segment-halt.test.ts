import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { initHome } from '../genesis/home.js';
import { startNode, type ChainletNode } from '../node/node.js';
import { SegmentCommitError } from './errors.js';

const nodes: ChainletNode[] = [];
const homes: string[] = [];
afterEach(async () => {
  for (const n of nodes.splice(0)) await n.stop();
  for (const h of homes.splice(0)) rmSync(h, { recursive: true, force: true });
});

/** A node on `home` whose error logs land in `logs`. */
async function nodeOn(home: string, logs: Record<string, unknown>[]): Promise<ChainletNode> {
  const logger = pino({ level: 'error' }, { write: (line: string) => void logs.push(JSON.parse(line) as Record<string, unknown>) });
  const n = await startNode({ home, logger, servers: false, config: { consensus: { mode: 'manual' } } });
  nodes.push(n);
  return n;
}

describe('a failed commit of an empty segment', () => {
  it('halts the engine with an error naming the segment, and a restart on the same db finishes the segment', async () => {
    const home = mkdtempSync(join(tmpdir(), 'chainlet-halt-'));
    homes.push(home);
    initHome(home, {});
    const logs: Record<string, unknown>[] = [];
    let n = await nodeOn(home, logs);
    await n.mine(1);
    expect(n.height).toBe(2);
    // The app's commit fails after the block store took the segment (a full disk, say).
    vi.spyOn(n.internals.app, 'commitEmptySegment').mockRejectedValueOnce(new Error('disk full'));

    const failed = n.internals.devnet.mine(20);
    await expect(failed).rejects.toBeInstanceOf(SegmentCommitError);
    await expect(failed).rejects.toThrow('the commit of empty blocks 3..22 failed after the block store took them (disk full)');
    expect(n.internals.blockStore.height()).toBe(22);
    expect(n.height).toBe(2);
    // The engine is halted with that error: the next block is refused with it (not a store error).
    await expect(n.mine(1)).rejects.toBeInstanceOf(SegmentCommitError);
    await expect(n.internals.devnet.mine(5)).rejects.toBeInstanceOf(SegmentCommitError);
    const halt = logs.find((l) => String(l.msg).includes('the commit of an empty segment failed'));
    expect(halt).toMatchObject({ from: 3, to: 22, err: { type: 'SegmentCommitError' } });
    expect(n.internals.blockStore.height()).toBe(22);

    await n.stop();
    nodes.splice(0);
    n = await nodeOn(home, logs);
    expect([n.height, n.internals.app.evm.latestHeight()]).toEqual([22, 22]);
    await n.mine(1);
    expect(n.height).toBe(23);
    const block23 = await n.internals.blockStore.loadBlock(23);
    const meta22 = await n.internals.blockStore.loadBlockMeta(22);
    expect(block23?.header.lastBlockId.hash).toEqual(meta22?.blockId.hash);
  });
});
