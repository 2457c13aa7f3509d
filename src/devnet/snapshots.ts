/**
 * evm_snapshot / evm_revert with Hardhat's semantics: a snapshot is the whole node at a moment
 * (chain height, state, blocks and indexes, mempool, block clock); reverting to one restores it,
 * deletes it and every later one, and makes its id the next one handed out; an unknown id gives
 * `false`. Taking a snapshot is O(1) (a level snapshot); reverting writes only what changed.
 */
import type { AbstractSnapshot } from 'abstract-level';
import type { BlockClock } from '../consensus/admin.js';
import { restoreSnapshot } from './db-restore.js';
import { reloadFromDb, type DevnetParts } from './parts.js';

interface NodeSnapshot {
  id: number;
  db: AbstractSnapshot;
  height: number;
  /** Mempool txs in admission-relevant order (pending by block order, then queued). */
  txs: Uint8Array[];
  clock: BlockClock;
}

export class SnapshotManager {
  private readonly snaps: NodeSnapshot[] = [];
  private nextId = 1;
  /** The chain as it started (genesis and its first block): what anvil_reset / hardhat_reset go back to. */
  private base: NodeSnapshot | undefined;

  constructor(private readonly parts: DevnetParts) {}

  /** Takes a snapshot (call inside `consensus.exclusive`); returns its id. */
  async take(): Promise<number> {
    const p = this.parts;
    await p.consensus.flushIndex(); // indexing runs behind the blocks: let it catch up so the snapshot holds it
    const snap: NodeSnapshot = {
      id: this.nextId++,
      db: p.db.snapshot(),
      height: p.consensus.height,
      txs: p.mempool.reapMaxTxs(-1),
      clock: p.consensus.clock(),
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
    await p.consensus.flushIndex();
    const written = await restoreSnapshot(p.db, snap.db, p.app.trieKeyPrefix());
    await reloadFromDb(p);
    p.consensus.setClock(snap.clock);
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

  /** Records the starting chain, once (call inside `consensus.exclusive`). */
  async takeBase(): Promise<void> {
    if (this.base) return;
    await this.parts.consensus.flushIndex();
    this.base = { id: 0, db: this.parts.db.snapshot(), height: this.parts.consensus.height, txs: [], clock: { offsetMs: 0, nextTime: undefined } };
  }

  /** Back to the starting chain with an empty mempool, no time offset and no snapshots; false without a base. */
  async reset(): Promise<boolean> {
    const base = this.base;
    if (!base) return false;
    const p = this.parts;
    await p.consensus.flushIndex();
    await restoreSnapshot(p.db, base.db, p.app.trieKeyPrefix());
    await reloadFromDb(p);
    p.consensus.setClock(base.clock);
    for (const s of this.snaps.splice(0)) await s.db.close();
    this.nextId = 1;
    p.logger.debug({ height: base.height }, 'reset to the starting chain');
    return true;
  }

  /** Forgets every snapshot (after anvil_loadState, or when the node stops; `all` also the base). */
  async clear(all = false): Promise<void> {
    for (const s of this.snaps.splice(0)) await s.db.close().catch(() => undefined);
    if (all && this.base) {
      await this.base.db.close().catch(() => undefined);
      this.base = undefined;
    }
  }

  /** Live snapshots: id and the height each was taken at. */
  list(): { id: number; height: number }[] {
    return this.snaps.map((s) => ({ id: s.id, height: s.height }));
  }

  get size(): number {
    return this.snaps.length;
  }
}
