/**
 * Bringing the node's database back to an earlier content (evm_revert) or to a dumped one
 * (anvil_loadState). Both walk the keys in order and write only the difference, in batches:
 *
 *   current ─┐ merge by key ──> only current: del · only target: put · both, values differ: put
 *   target  ─┘
 *
 * A revert takes its target from a level snapshot (O(1) to take: the in-memory B+ tree and
 * classic-level keep the old tree / LevelDB snapshot), so `evm_snapshot` costs nothing. On the
 * in-memory tree `evm_revert` swaps the snapshot's tree in (O(1) too); on disk it costs a walk of
 * the keys. Key ranges that only ever grow with content-addressed values (the state trie) can be
 * skipped: the extra nodes are unreachable from the restored roots.
 */
import type { AbstractSnapshot } from 'abstract-level';
import { directTarget } from '../store/btree-level.js';
import type { RootDb } from './parts.js';

const RAW = { keyEncoding: 'view', valueEncoding: 'view' } as const;
const BATCH = 4096;

type Entry = [Uint8Array, Uint8Array];

/** A source of entries in key order. */
export type EntrySource = AsyncIterable<Entry>;

export interface KeyRange {
  gte?: Uint8Array;
  lt?: Uint8Array;
}

/** Entries of the db (or of one of its snapshots) within `range`. */
export async function* dbEntries(db: RootDb, range: KeyRange = {}, snapshot?: AbstractSnapshot): AsyncGenerator<Entry> {
  const it = db.iterator<Uint8Array, Uint8Array>({ ...RAW, ...range, ...(snapshot ? { snapshot } : {}) });
  try {
    for (;;) {
      const chunk = await it.nextv(1024);
      if (chunk.length === 0) return;
      for (const e of chunk) yield e;
    }
  } finally {
    await it.close();
  }
}

/** Makes the keys of `range` in the db equal to `target` (same range, key order). Returns the ops written. */
export async function restoreRange(db: RootDb, target: EntrySource, range: KeyRange = {}, onTarget?: (consumed: number) => void): Promise<number> {
  const cur = dbEntries(db, range)[Symbol.asyncIterator]();
  const tgt = target[Symbol.asyncIterator]();
  let a = await cur.next();
  let b = await tgt.next();
  let ops: { type: 'put' | 'del'; key: Uint8Array; value?: Uint8Array }[] = [];
  let written = 0;
  let consumed = 0;
  const flush = async () => {
    if (ops.length === 0) return;
    await db.batch(ops as never, RAW as never);
    written += ops.length;
    ops = [];
  };
  while (!a.done || !b.done) {
    const c = a.done ? 1 : b.done ? -1 : Buffer.compare(a.value[0], b.value[0]);
    if (c < 0) {
      ops.push({ type: 'del', key: a.value[0] });
      a = await cur.next();
    } else if (c > 0) {
      ops.push({ type: 'put', key: b.value[0], value: b.value[1] });
      b = await tgt.next();
      consumed++;
    } else {
      if (a.value[1] !== b.value[1] && Buffer.compare(a.value[1], b.value[1]) !== 0) ops.push({ type: 'put', key: b.value[0], value: b.value[1] });
      a = await cur.next();
      b = await tgt.next();
      consumed++;
    }
    if (ops.length >= BATCH) {
      await flush();
      onTarget?.(consumed);
    }
  }
  await flush();
  return written;
}

/** The key ranges outside `skip` (a prefix), for walking everything but it. */
export function rangesAround(prefix: Uint8Array): KeyRange[] {
  const end = Uint8Array.from(prefix);
  end[end.length - 1]! += 1; // sublevel prefixes end in '!' (0x21): the next byte cannot overflow
  return [{ lt: prefix }, { gte: end }];
}

/**
 * Restores the whole db (except `skipPrefix`) to a snapshot's content; returns the writes made, or
 * 'whole' when the in-memory tree took the snapshot's in one step (then the skipped prefix is
 * restored too: the nodes it loses are unreachable from the restored roots). A walk of every key
 * made each `evm_revert` cost in proportion to the chain's length (≈ 7 ms at 50 blocks).
 */
export async function restoreSnapshot(db: RootDb, snapshot: AbstractSnapshot, skipPrefix?: Uint8Array): Promise<number | 'whole'> {
  const direct = directTarget(db);
  if (direct === (db as object) && direct.restoreSnapshot(snapshot)) return 'whole';
  const ranges = skipPrefix ? rangesAround(skipPrefix) : [{}];
  let n = 0;
  for (const r of ranges) n += await restoreRange(db, dbEntries(db, r, snapshot), r);
  return n;
}
