import { describe, expect, it } from 'vitest';
import { BTreeLevel } from '../btree-level.js';
import type { LevelDb } from '../level.js';
import type { EmptySegment } from './empty-segment.js';
import { SegmentBlockStore } from './segment-stores.js';

/** A segment of `count` blocks from `from` with one validator (only what the block store reads). */
function segment(from: number, count: number): EmptySegment {
  const hashes = new Uint8Array(count * 32);
  for (let i = 0; i < count; i++) hashes[i * 32] = from + i;
  return {
    from,
    to: from + count - 1,
    chainId: 'test-1',
    appVersion: 1,
    validators: [{ address: new Uint8Array(20).fill(1), pubKey: new Uint8Array(32), votingPower: 10, proposerPriority: 0 }],
    proposers: undefined,
    priorities: undefined,
    consensusParams: undefined as never,
    validatorsHash: new Uint8Array(32),
    appHash: new Uint8Array(32),
    firstLastResultsHash: new Uint8Array(32),
    prevBlockId: { hash: new Uint8Array(32), partSetHeader: { total: 0, hash: new Uint8Array(0) } },
    prevCommit: { height: from - 1, round: 0, blockId: { hash: new Uint8Array(32), partSetHeader: { total: 0, hash: new Uint8Array(0) } }, signatures: [] },
    firstTimeMs: 1_700_000_000_000,
    intervalMs: 1000,
    hashes,
    partHashes: new Uint8Array(count * 32),
    sizes: new Uint32Array(count).fill(200),
    signatures: new Uint8Array(count * 64),
    results: [{ events: [], txResults: [], validatorUpdates: [], appHash: new Uint8Array(32) }],
    app: undefined,
  };
}

const openDb = () => new BTreeLevel<string, Uint8Array>({ keyEncoding: 'utf8', valueEncoding: 'view' }) as unknown as LevelDb;

describe('empty segments in the block store', () => {
  it('records a segment and its height in one write, and reopens with both', async () => {
    const db = openDb();
    const store = await SegmentBlockStore.open(db);
    await store.saveEmptySegment(segment(1, 10));
    expect([store.base(), store.height()]).toEqual([1, 10]);
    expect(store.segments.find(7)?.from).toBe(1);
    expect(await store.heightByHash(segment(1, 10).hashes.slice(6 * 32, 7 * 32))).toBe(7);
    const reopened = await SegmentBlockStore.open(db);
    expect([reopened.base(), reopened.height()]).toEqual([1, 10]);
    expect(reopened.segments.find(10)?.to).toBe(10);
  });

  it('refuses a segment that does not follow the stored height, writing nothing', async () => {
    const store = await SegmentBlockStore.open(openDb());
    await store.saveEmptySegment(segment(1, 5));
    await expect(store.saveEmptySegment(segment(7, 3))).rejects.toThrow('an empty segment from 7 does not follow the stored height 5');
    await expect(store.saveEmptySegment(segment(5, 3))).rejects.toThrow(/does not follow/);
    expect(store.height()).toBe(5);
    expect(store.segments.all()).toHaveLength(1);
  });
});
