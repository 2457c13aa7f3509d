/**
 * The stores as every part of a devnet node sees them: the real stores, with the heights of the
 * empty-block ranges (range-registry.ts) answered from their compact records. The node wraps its
 * stores once at start (node.ts); readers cannot tell a range block from a stored one.
 *
 *   BlockStore     blocks, metas, commits, seen commit, hash → height; `reload()` after a revert
 *   StateStore     validators, consensus params and FinalizeBlock responses of a height
 *   BlockIndexer   block_search also matches range heights (their FinalizeBlock events)
 *   AppStore       (virtual source) EVM block records, roots and hashes of range heights
 */
import type { ResponseFinalizeBlock } from '../../abci/types.js';
import type { VirtualBlockSource } from '../../app/app-store.js';
import type { Query } from '../../events/query/query.js';
import { BLOCK_HEIGHT_KEY } from '../../events/types.js';
import { createBlockStore, type BlockStore } from '../../store/block-store.js';
import type { BlockIndexer } from '../../store/block-indexer.js';
import { indexedOnly, isEmptyRange, planSearch, reservedMatch, someEventMatches } from '../../store/event-search.js';
import { asLevelDb, encodeValue, writeBatch, type LevelDb } from '../../store/level.js';
import type { StateStore } from '../../store/state-store.js';
import type { Block, BlockID, BlockMeta, Commit } from '../../types/block.js';
import type { ConsensusParams } from '../../types/params.js';
import type { ValidatorSet } from '../../types/validator-set.js';
import type { RangeRegistry } from './range-registry.js';
import { rangeBlock, rangeBlockRecord, rangeCommit, rangeFinalizeResponse, rangeMeta, rangeValidators } from './range-synthesis.js';

/** block-store.ts keeps `{ base, height }` under this key (see its header). */
const BLOCK_STORE_STATE_KEY = 'bs.state';

/** A BlockStore over the real one that answers range heights; `reload()` re-reads base/height. */
export class RangeAwareBlockStore implements BlockStore {
  private constructor(
    private readonly db: LevelDb,
    private inner: BlockStore,
    private readonly ranges: RangeRegistry,
  ) {}

  static async open<V>(db: LevelDb<V>, ranges: RangeRegistry): Promise<RangeAwareBlockStore> {
    const level = asLevelDb(db);
    return new RangeAwareBlockStore(level, await createBlockStore(level), ranges);
  }

  /** Re-reads the real store's base and height (the db was rewritten underneath). */
  async reload(): Promise<void> {
    this.inner = await createBlockStore(this.db);
  }

  /** Moves the stored height to the end of a range just added (its blocks are not written). */
  async advanceTo(height: number): Promise<void> {
    const base = this.inner.base() === 0 ? (this.ranges.find(height)?.from ?? height) : this.inner.base();
    await writeBatch(this.db, [{ key: BLOCK_STORE_STATE_KEY, value: encodeValue({ base, height }) }]);
    await this.reload();
  }

  base(): number {
    return this.inner.base();
  }

  height(): number {
    return this.inner.height();
  }

  saveBlock(block: Block, blockId: BlockID, blockSize: number, seenCommit: Commit): Promise<void> {
    return this.inner.saveBlock(block, blockId, blockSize, seenCommit);
  }

  async loadBlock(height: number): Promise<Block | undefined> {
    const r = this.ranges.find(height);
    return r !== undefined ? rangeBlock(r, height) : this.inner.loadBlock(height);
  }

  async loadBlockByHash(hash: Uint8Array): Promise<Block | undefined> {
    const h = await this.heightByHash(hash);
    return h === undefined ? undefined : this.loadBlock(h);
  }

  async loadBlockMeta(height: number): Promise<BlockMeta | undefined> {
    const r = this.ranges.find(height);
    return r !== undefined ? rangeMeta(r, height) : this.inner.loadBlockMeta(height);
  }

  async loadBlockMetaByHash(hash: Uint8Array): Promise<BlockMeta | undefined> {
    const h = await this.heightByHash(hash);
    return h === undefined ? undefined : this.loadBlockMeta(h);
  }

  async loadBlockCommit(height: number): Promise<Commit | undefined> {
    const stored = await this.inner.loadBlockCommit(height);
    if (stored !== undefined) return stored;
    // Inside a range (or right before one), block height+1 carries it; the last one needs a later block.
    const next = this.ranges.find(height + 1);
    return next !== undefined && height + 1 <= this.inner.height() ? rangeCommit(next, height) : undefined;
  }

  async loadSeenCommit(height: number): Promise<Commit | undefined> {
    const r = this.ranges.endingAt(height);
    if (r !== undefined && this.inner.height() === height) return rangeCommit(r, height);
    return this.inner.loadSeenCommit(height);
  }

  async heightByHash(hash: Uint8Array): Promise<number | undefined> {
    return (await this.inner.heightByHash(hash)) ?? this.ranges.heightOfHash(hash);
  }
}

/** The state store with range heights answered from the registry (prototype-derived, so it is a StateStore). */
export function rangeAwareStateStore(inner: StateStore, ranges: RangeRegistry): StateStore {
  const overrides = {
    async loadValidators(height: number): Promise<ValidatorSet | undefined> {
      const stored = await inner.loadValidators(height);
      if (stored !== undefined) return stored;
      const r = ranges.find(height);
      return r === undefined ? undefined : rangeValidators(r, height);
    },
    async loadConsensusParams(height: number): Promise<ConsensusParams | undefined> {
      const stored = await inner.loadConsensusParams(height);
      if (stored !== undefined) return stored;
      return ranges.find(height)?.consensusParams;
    },
    async loadFinalizeBlockResponse(height: number): Promise<ResponseFinalizeBlock | undefined> {
      const r = ranges.find(height);
      return r !== undefined ? rangeFinalizeResponse(r, height) : inner.loadFinalizeBlockResponse(height);
    },
  };
  return Object.assign(Object.create(inner) as StateStore, overrides);
}

/** block_search over the real index plus the range heights whose events match. */
export function rangeAwareBlockIndexer(inner: BlockIndexer, ranges: RangeRegistry): BlockIndexer {
  return {
    index: (height, events) => inner.index(height, events),
    has: async (height) => ranges.find(height) !== undefined || inner.has(height),
    async search(query: Query): Promise<number[]> {
      const stored = await inner.search(query);
      if (ranges.isEmpty) return stored;
      const plan = planSearch(query.ast, [BLOCK_HEIGHT_KEY], BLOCK_HEIGHT_KEY);
      if (isEmptyRange(plan.heights)) return stored;
      const extra: number[] = [];
      for (const r of ranges.all()) {
        for (let h = Math.max(r.from, plan.heights.min); h <= Math.min(r.to, plan.heights.max); h++) {
          if (!reservedMatch(plan.reserved, { [BLOCK_HEIGHT_KEY]: String(h) })) continue;
          if (plan.events.length === 0 || someEventMatches(indexedOnly(rangeFinalizeResponse(r, h).events), plan.events)) extra.push(h);
        }
      }
      if (extra.length === 0) return stored;
      return [...new Set([...stored, ...extra])].sort((a, b) => a - b);
    },
  };
}

/** The app store's view of range heights. */
export function rangeVirtualBlocks(ranges: RangeRegistry): VirtualBlockSource {
  return {
    record: (height) => {
      const r = ranges.find(height);
      return r === undefined ? undefined : rangeBlockRecord(r, height);
    },
    heightOfHash: (hash) => ranges.heightOfHash(hash),
    rootAt: (height) => ranges.find(height)?.evm.stateRoot,
  };
}
