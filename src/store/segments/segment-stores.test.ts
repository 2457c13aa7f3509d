import { describe, expect, it } from 'vitest';
import { BTreeLevel } from '../btree-level.js';
import type { LevelDb } from '../level.js';
import { SegmentBlockStore } from './segment-stores.js';
import { testSegment } from './test-helpers.js';

const segment = (from: number, count: number) => testSegment(from, count);

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
