import { MemoryLevel } from 'memory-level';
import { describe, expect, it } from 'vitest';
import type { AbciEvent, EventAttribute } from '../abci/types.js';
import { Query } from '../events/query/query.js';
import { createBlockIndexer, type BlockIndexer } from './block-indexer.js';
import { ReservedEventKeyError } from './errors.js';

const attr = (key: string, value: string, index = true): EventAttribute => ({ key, value, index });
const ev = (type: string, ...attributes: EventAttribute[]): AbciEvent => ({ type, attributes });

/** Heights 1..6; even heights mint, every block has a fee_market event with a growing base fee. */
async function seeded(db = new MemoryLevel()): Promise<BlockIndexer> {
  const idx = await createBlockIndexer(db);
  for (let h = 1; h <= 6; h++) {
    const events = [ev('fee_market', attr('base_fee', String(h * 1_000_000_000)), attr('note', 'n', false))];
    if (h % 2 === 0) events.push(ev('mint', attr('amount', `${h}stake`), attr('minter', h === 4 ? 'treasury' : 'module')));
    await idx.index(h, events);
  }
  return idx;
}

const search = (idx: BlockIndexer, q: string) => idx.search(Query.parse(q));

describe('BlockIndexer', () => {
  it('knows which heights it has', async () => {
    const idx = await seeded();
    expect(await idx.has(3)).toBe(true);
    expect(await idx.has(7)).toBe(false);
  });

  it('answers block.height conditions alone', async () => {
    const idx = await seeded();
    expect(await search(idx, 'block.height = 5')).toEqual([5]);
    expect(await search(idx, 'block.height = 9')).toEqual([]);
    expect(await search(idx, 'block.height > 4')).toEqual([5, 6]);
    expect(await search(idx, 'block.height >= 2 AND block.height <= 3')).toEqual([2, 3]);
    expect(await search(idx, 'block.height < 2.5')).toEqual([1, 2]);
    expect(await search(idx, "tm.event = 'NewBlock'")).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it('searches FinalizeBlock events, with height bounds', async () => {
    const idx = await seeded();
    expect(await search(idx, 'mint.amount EXISTS')).toEqual([2, 4, 6]);
    expect(await search(idx, 'mint.amount > 3')).toEqual([4, 6]);
    expect(await search(idx, "mint.minter = 'treasury'")).toEqual([4]);
    expect(await search(idx, "mint.minter CONTAINS 'mod' AND block.height > 2")).toEqual([6]);
    expect(await search(idx, 'fee_market.base_fee >= 3000000000 AND block.height < 5')).toEqual([3, 4]);
    expect(await search(idx, "fee_market.note = 'n'")).toEqual([]);
  });

  it('needs all conditions to hold within one event', async () => {
    const idx = await seeded();
    // base_fee and amount live in different events of block 4: no single event has both.
    expect(await search(idx, 'fee_market.base_fee = 4000000000 AND mint.amount = 4')).toEqual([]);
    expect(await search(idx, "mint.amount = 4 AND mint.minter = 'treasury'")).toEqual([4]);
  });

  it('survives reopening and rejects the reserved key', async () => {
    const db = new MemoryLevel();
    await seeded(db);
    const reopened = await createBlockIndexer(db);
    expect(await search(reopened, 'mint.amount EXISTS')).toEqual([2, 4, 6]);
    await expect(reopened.index(7, [ev('block', attr('height', '7'))])).rejects.toBeInstanceOf(ReservedEventKeyError);
    expect(await reopened.has(7)).toBe(false);
  });
});
