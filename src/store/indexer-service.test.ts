import { MemoryLevel } from 'memory-level';
import { describe, expect, it } from 'vitest';
import type { AbciEvent } from '../abci/types.js';
import { Query } from '../events/query/query.js';
import type { TxResult } from '../events/types.js';
import { txHash } from '../types/txs.js';
import { createBlockIndexer } from './block-indexer.js';
import { IndexerService } from './indexer-service.js';
import { createTxIndexer } from './tx-indexer.js';

const events: AbciEvent[] = [{ type: 'transfer', attributes: [{ key: 'amount', value: '5stake', index: true }] }];
const result = (height: number): TxResult => ({
  height,
  index: 0,
  tx: new TextEncoder().encode(`tx at ${height}`),
  result: { code: 0, data: new Uint8Array(0), log: '', info: '', gasWanted: 1, gasUsed: 1, events, codespace: '' },
});

async function service() {
  const tx = await createTxIndexer(new MemoryLevel());
  const block = await createBlockIndexer(new MemoryLevel());
  let marker = 0;
  const s = new IndexerService(tx, block, { loadIndexedHeight: async () => marker, saveIndexedHeight: async (h) => void (marker = h) });
  return { s, tx, block, marker: () => marker };
}

describe('IndexerService', () => {
  it('writes a block after the current macrotask, so the block path and its callers go first', async () => {
    const { s, tx, marker } = await service();
    const r = result(1);
    s.enqueue(1, [r], events);
    for (let i = 0; i < 20; i++) await Promise.resolve(); // microtasks alone do not reach the writes
    expect(await tx.get(txHash(r.tx))).toBeUndefined();
    expect(marker()).toBe(0);
    await s.flush();
    expect((await tx.get(txHash(r.tx)))?.height).toBe(1);
    expect(marker()).toBe(1);
  });

  it('gives readers indexers whose reads wait for every block queued before them', async () => {
    const { s } = await service();
    const rs = [result(1), result(2)];
    s.enqueue(1, [rs[0]!], events);
    s.enqueue(2, [rs[1]!], events);
    // Asked at once, in the same tick as the enqueue: the answers already hold both blocks.
    const [got, found, heights, has] = await Promise.all([
      s.readers.tx!.get(txHash(rs[1]!.tx)),
      s.readers.tx!.search(Query.parse("transfer.amount = '5stake'")),
      s.readers.block!.search(Query.parse("transfer.amount = '5stake'")),
      s.readers.block!.has(2),
    ]);
    expect(got?.height).toBe(2);
    expect(found.map((r) => r.height)).toEqual([1, 2]);
    expect(heights).toEqual([1, 2]);
    expect(has).toBe(true);
  });

  it('writes at once, without a turn of the event loop, what is queued when someone flushes; later blocks wait their turn again', async () => {
    const { s, tx, marker } = await service();
    let turned = false;
    setImmediate(() => (turned = true));
    s.enqueue(1, [result(1)], events);
    s.enqueue(2, [result(2)], events);
    await s.flush();
    expect(turned).toBe(false);
    expect(marker()).toBe(2);
    s.enqueue(3, [result(3)], events);
    for (let i = 0; i < 20; i++) await Promise.resolve();
    expect(marker()).toBe(2);
    expect((await s.readers.tx!.get(txHash(result(3).tx)))?.height).toBe(3); // a reader hurries it
    expect(turned).toBe(false);
    expect((await tx.get(txHash(result(1).tx)))?.height).toBe(1);
  });
});

describe('IndexerService when an index write fails', () => {
  /** A tx indexer whose db refuses every batch once `fail` is set (abstract-level's batch path). */
  async function failingService() {
    const db = new MemoryLevel<string, Uint8Array>();
    let fail = false;
    const batch = db.batch.bind(db) as (...a: unknown[]) => unknown;
    (db as unknown as { batch: (...a: unknown[]) => unknown }).batch = (...a: unknown[]) =>
      fail && a.length > 0 ? Promise.reject(new Error('disk full')) : batch(...a);
    const tx = await createTxIndexer(db);
    const block = await createBlockIndexer(new MemoryLevel());
    let marker = 0;
    const failures: Error[] = [];
    const s = new IndexerService(tx, block, { loadIndexedHeight: async () => marker, saveIndexedHeight: async (h) => void (marker = h) });
    s.onFailure = (err) => failures.push(err);
    return { s, failAfter: () => (fail = true), failures, marker: () => marker };
  }

  it('reports the failure once, and every later read is an error naming it, never a stale answer', async () => {
    const { s, failAfter, failures, marker } = await failingService();
    s.enqueue(1, [result(1)], events);
    await s.flush();
    failAfter();
    s.enqueue(2, [result(2)], events);
    s.enqueue(3, [result(3)], events);
    await expect(s.flush()).rejects.toThrow(/indexing block 2 failed: disk full/);
    expect(failures.map((e) => e.message)).toEqual([expect.stringMatching(/^indexing block 2 failed: disk full/)]);
    expect(marker()).toBe(1);
    expect(() => s.throwIfFailed()).toThrow(/indexing block 2 failed/);
    await expect(s.readers.tx!.get(txHash(result(1).tx))).rejects.toThrow(/indexing block 2 failed: disk full/);
    await expect(s.readers.tx!.search(Query.parse("transfer.amount = '5stake'"))).rejects.toThrow(/indexing block 2 failed/);
    await expect(s.readers.block!.search(Query.parse("transfer.amount = '5stake'"))).rejects.toThrow(/indexing block 2 failed/);
    await expect(s.readers.block!.has(1)).rejects.toThrow(/indexing block 2 failed/);
  });
});
