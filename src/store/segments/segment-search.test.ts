import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { AbciEvent, ResponseFinalizeBlock } from '../../abci/types.js';
import { Query } from '../../events/query/query.js';
import { BLOCK_HEIGHT_KEY } from '../../events/types.js';
import type { BlockIndexer } from '../block-indexer.js';
import { BTreeLevel } from '../btree-level.js';
import { indexedOnly, isEmptyRange, planSearch, reservedMatch, someEventMatches } from '../event-search.js';
import type { LevelDb } from '../level.js';
import { segmentResult, type EmptySegment } from './empty-segment.js';
import { SegmentRegistry } from './segment-registry.js';
import { mergeAscending } from './segment-search.js';
import { SegmentBlockStore, segmentBlockIndexer } from './segment-stores.js';
import { testSegment } from './test-helpers.js';

const BIG = 100_000;

/** A block hash as a real one looks (SHA-256 of the height and a seed). */
function hashOf(seed: string, height: number): Uint8Array {
  return createHash('sha256').update(`${seed}/${height}`).digest();
}

function event(kind: string, indexed = true): AbciEvent {
  return { type: 'ev', attributes: [{ key: 'kind', value: kind, index: indexed }] };
}

function result(events: AbciEvent[]): ResponseFinalizeBlock {
  return { events, txResults: [], validatorUpdates: [], appHash: new Uint8Array(32) };
}

/** A segment of `count` blocks from `from` (only what the stores read for these lookups). */
const segment = (from: number, count: number, results: ResponseFinalizeBlock[], seed = 'a') =>
  testSegment(from, count, { results, hashOf: (h) => hashOf(seed, h) });

const openDb = () => new BTreeLevel<string, Uint8Array>({ keyEncoding: 'utf8', valueEncoding: 'view' }) as unknown as LevelDb;

/** A real index holding `heights` (every one matching whatever is asked). */
function storedIndex(heights: number[]): BlockIndexer {
  return { index: async () => undefined, has: async (h) => heights.includes(h), search: async () => heights.slice() };
}

/** What block_search answers, height by height (the definition the search must keep). */
function reference(segments: readonly EmptySegment[], stored: number[], q: string): number[] {
  const plan = planSearch(Query.parse(q).ast, [BLOCK_HEIGHT_KEY], BLOCK_HEIGHT_KEY);
  if (isEmptyRange(plan.heights)) return stored;
  const out = new Set(stored);
  for (const s of segments) {
    for (let h = Math.max(s.from, plan.heights.min); h <= Math.min(s.to, plan.heights.max); h++) {
      if (!reservedMatch(plan.reserved, { [BLOCK_HEIGHT_KEY]: String(h) })) continue;
      if (plan.events.length === 0 || someEventMatches(indexedOnly(segmentResult(s, h).events), plan.events)) out.add(h);
    }
  }
  return [...out].sort((a, b) => a - b);
}

describe('block_search over empty segments', () => {
  it(`answers as a height-by-height search does on a ${BIG}-block segment`, async () => {
    const store = await SegmentBlockStore.open(openDb());
    await store.saveEmptySegment(segment(1, 4, [result([event('early')])], 'e'));
    // Distinct responses for the first heights (the base fee settling), then one repeated to the end.
    const results = [result([event('first')]), result([event('second'), event('hidden', false)]), result([event('rest')])];
    await store.saveEmptySegment(segment(5, BIG, results));
    const stored = [BIG + 10, BIG + 11];
    const indexer = segmentBlockIndexer(storedIndex(stored), store.segments);
    const queries = [
      "ev.kind = 'rest'",
      "ev.kind = 'first'",
      "ev.kind = 'second'",
      "ev.kind = 'hidden'",
      "ev.kind = 'early'",
      'ev.kind EXISTS',
      'block.height EXISTS',
      "ev.kind = 'rest' AND block.height > 50000",
      'block.height >= 3 AND block.height <= 10',
      'block.height > 5.5 AND block.height < 7.5',
      'block.height = 6',
      `block.height = ${BIG + 4}`,
      `block.height > ${BIG + 4}`,
      "block.height CONTAINS '999' AND ev.kind = 'rest'",
      "block.height = '7'",
      'block.height < 0',
      "ev.kind = 'none'",
    ];
    for (const q of queries) {
      const got = await indexer.search(Query.parse(q));
      const want = reference(store.segments.all(), stored, q);
      expect(got.length, q).toBe(want.length);
      expect(got, q).toEqual(want);
    }
    expect((await indexer.search(Query.parse("ev.kind = 'rest'"))).length).toBe(BIG - 2 + stored.length);
    expect(await indexer.search(Query.parse("ev.kind = 'second'"))).toEqual([6, ...stored]);
  });

  it('merges two ascending lists without repeats', () => {
    expect(mergeAscending([1, 4, 9], [2, 4, 10, 11])).toEqual([1, 2, 4, 9, 10, 11]);
    expect(mergeAscending([], [3])).toEqual([3]);
    expect(mergeAscending([3], [])).toEqual([3]);
  });
});

describe('block hash → height over empty segments', () => {
  it(`finds every block of a ${BIG}-block segment, and nothing else`, async () => {
    const db = openDb();
    const store = await SegmentBlockStore.open(db);
    await store.saveEmptySegment(segment(1, 10, [result([])], 'small'));
    await store.saveEmptySegment(segment(11, BIG, [result([])]));
    for (const reg of [store.segments, await SegmentRegistry.open(db)]) {
      for (let h = 11; h <= BIG + 10; h += 997) expect(reg.heightOfHash(hashOf('a', h))).toBe(h);
      expect(reg.heightOfHash(hashOf('a', BIG + 10))).toBe(BIG + 10);
      expect(reg.heightOfHash(hashOf('small', 4))).toBe(4);
      expect(reg.heightOfHash(hashOf('a', BIG + 11))).toBeUndefined();
      // The end of one hash and the start of the next is no block's hash.
      const straddling = new Uint8Array(32);
      straddling.set(hashOf('a', 500).subarray(16), 0);
      straddling.set(hashOf('a', 501).subarray(0, 16), 16);
      expect(reg.heightOfHash(straddling)).toBeUndefined();
      expect(reg.heightOfHash(hashOf('a', 500).subarray(0, 20))).toBeUndefined();
    }
    expect(await store.heightByHash(hashOf('a', 77_777))).toBe(77_777);
  });

  it('finds a hash whose bytes also occur off a block boundary before it', async () => {
    const store = await SegmentBlockStore.open(openDb());
    const s = segment(1, 8, [result([])]);
    const wanted = s.hashes.slice(5 * 32, 6 * 32);
    // Blocks 2 and 3 hold the wanted hash across their boundary (16 bytes into block 2).
    s.hashes.set(wanted.subarray(0, 16), 1 * 32 + 16);
    s.hashes.set(wanted.subarray(16), 2 * 32);
    await store.saveEmptySegment(s);
    expect(store.segments.heightOfHash(wanted)).toBe(6);
  });
});
