/**
 * evm_snapshot / evm_revert with Hardhat's semantics: a snapshot is the whole node at a moment
 * (chain height, state, blocks and indexes, mempool, block clock); reverting to one restores it,
 * deletes it and every later one, and makes its id the next one handed out; an unknown id gives
 * `false`. Taking a snapshot is O(1) (a level snapshot); reverting writes only what changed.
 */
import type { AbstractSnapshot } from 'abstract-level';
import type { Timestamp } from '../../types/time.js';
import { restoreSnapshot } from './db-restore.js';
import { appOf, type DevnetParts } from './parts.js';
import { reloadFromDb } from './reload.js';

interface NodeSnapshot {
  id: number;
  db: AbstractSnapshot;
  height: number;
  /** Mempool txs in admission-relevant order (pending by block order, then queued). */
  txs: Uint8Array[];
  clock: { offsetMs: number; nextTime: Timestamp | undefined };
}

export class SnapshotManager {
  private readonly snaps: NodeSnapshot[] = [];
  private nextId = 1;

  constructor(private readonly parts: DevnetParts) {}

  /** Takes a snapshot (call inside `consensus.exclusive`); returns its id. */
  async take(): Promise<number> {
    const p = this.parts;
    await p.indexer.flush(); // indexing runs behind the blocks: let it catch up so the snapshot holds it
    const snap: NodeSnapshot = {
      id: this.nextId++,
      db: p.db.snapshot(),
      height: p.consensus.height,
      txs: p.mempool.reapMaxTxs(-1),
      clock: p.consensus.clock,
    };
    this.snaps.push(snap);
    return snap.id;
  }

  /** Reverts to snapshot `id` (call inside `consensus.exclusive`); false for an unknown id. */
  async revert(id: number): Promise<boolean> {
    const i = this.snaps.findIndex((s) => s.id === id);
    if (i < 0) return false;
    const snap = this.snaps[i]!;
    const p = this.parts;
    await p.indexer.flush();
    const written = await restoreSnapshot(p.db, snap.db, trieKeyPrefix(p));
    await reloadFromDb(p);
    p.consensus.clock = snap.clock;
    for (const tx of snap.txs) {
      try {
        await p.mempool.checkTx(tx);
      } catch (err) {
        p.logger.debug({ err }, 'evm_revert: a snapshot tx was not re-admitted');
      }
    }
    for (const s of this.snaps.splice(i)) await s.db.close();
    this.nextId = id;
    p.logger.debug({ id, height: snap.height, written }, 'reverted to snapshot');
    return true;
  }

  /** Forgets every snapshot (after anvil_loadState, or when the node stops). */
  async clear(): Promise<void> {
    for (const s of this.snaps.splice(0)) await s.db.close().catch(() => undefined);
  }

  get size(): number {
    return this.snaps.length;
  }
}

/** Trie nodes are content-addressed and only ever added: a revert leaves them (unreachable ones are harmless). */
export function trieKeyPrefix(parts: DevnetParts): Uint8Array {
  const prefix = (appOf(parts).store.trie as unknown as { prefix: string }).prefix;
  return new Uint8Array(Buffer.from(prefix, 'utf8'));
}
