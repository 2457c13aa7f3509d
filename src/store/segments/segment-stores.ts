/**
 * The stores with empty segments (empty-segment.ts) in them: the real stores, with the heights of
 * the segments answered from their records. Readers cannot tell a segment block from a stored one.
 *
 *   BlockStore     blocks, metas, commits, seen commit, hash → height; `saveEmptySegment` writes a
 *                  segment and the new height in one batch; `reload()` after a revert
 *   StateStore     validators, consensus params and FinalizeBlock responses of a height
 *   BlockIndexer   block_search also matches segment heights (segment-search.ts)
 */
import type { ResponseFinalizeBlock } from '../../abci/types.js';
import type { Query } from '../../events/query/query.js';
import { BLOCK_HEIGHT_KEY } from '../../events/types.js';
import { createBlockStore, STATE_KEY, type BlockStore } from '../block-store.js';
import type { BlockIndexer } from '../block-indexer.js';
import { isEmptyRange, planSearch } from '../event-search.js';
import { asLevelDb, encodeValue, writeBatch, type LevelDb } from '../level.js';
import type { StateStore } from '../state-store.js';
import type { Block, BlockID, BlockMeta, Commit } from '../../types/block.js';
import type { ConsensusParams } from '../../types/params.js';
import type { ValidatorSet } from '../../types/validator-set.js';
import { segmentResult, validatorSetAt, type EmptySegment } from './empty-segment.js';
import { SegmentRegistry } from './segment-registry.js';
import { mergeAscending, searchSegments } from './segment-search.js';
import { segmentBlock, segmentCommit, segmentMeta } from './segment-synthesis.js';

/** A BlockStore that also holds empty segments (in its own sublevel, beside its blocks). */
export class SegmentBlockStore implements BlockStore {
  private constructor(
    private readonly db: LevelDb,
    private inner: BlockStore,
    readonly segments: SegmentRegistry,
  ) {}

  static async open<V>(db: LevelDb<V>): Promise<SegmentBlockStore> {
    const level = asLevelDb(db);
    const segments = await SegmentRegistry.open(level);
    return new SegmentBlockStore(level, await createBlockStore(level), segments);
  }

  /** Re-reads base, height and segments (the db was rewritten underneath: revert, state load). */
  async reload(): Promise<void> {
    await this.segments.reload();
    this.inner = await createBlockStore(this.db);
  }

  /** Saves a segment right after the stored height: its record and the new height, in one batch. */
  async saveEmptySegment(segment: EmptySegment): Promise<void> {
    const height = this.inner.height();
    if (height !== 0 && segment.from !== height + 1) throw new RangeError(`an empty segment from ${segment.from} does not follow the stored height ${height}`);
    const base = this.inner.base() === 0 ? segment.from : this.inner.base();
    await writeBatch(this.db, [SegmentRegistry.entry(segment), { key: STATE_KEY, value: encodeValue({ base, height: segment.to }) }]);
    this.segments.remember(segment);
    this.inner = await createBlockStore(this.db);
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
    const s = this.segments.find(height);
    return s !== undefined ? segmentBlock(s, height) : this.inner.loadBlock(height);
  }

  async loadBlockByHash(hash: Uint8Array): Promise<Block | undefined> {
    const h = await this.heightByHash(hash);
    return h === undefined ? undefined : this.loadBlock(h);
  }

  async loadBlockMeta(height: number): Promise<BlockMeta | undefined> {
    const s = this.segments.find(height);
    return s !== undefined ? segmentMeta(s, height) : this.inner.loadBlockMeta(height);
  }

  async loadBlockMetaByHash(hash: Uint8Array): Promise<BlockMeta | undefined> {
    const h = await this.heightByHash(hash);
    return h === undefined ? undefined : this.loadBlockMeta(h);
  }

  async loadBlockCommit(height: number): Promise<Commit | undefined> {
    const stored = await this.inner.loadBlockCommit(height);
    if (stored !== undefined) return stored;
    // Inside a segment (or right before one), block height+1 carries it; the last one needs a later block.
    const next = this.segments.find(height + 1);
    return next !== undefined && height + 1 <= this.inner.height() ? segmentCommit(next, height) : undefined;
  }

  async loadSeenCommit(height: number): Promise<Commit | undefined> {
    const s = this.segments.endingAt(height);
    if (s !== undefined && this.inner.height() === height) return segmentCommit(s, height);
    return this.inner.loadSeenCommit(height);
  }

  async heightByHash(hash: Uint8Array): Promise<number | undefined> {
    return (await this.inner.heightByHash(hash)) ?? this.segments.heightOfHash(hash);
  }
}

/** The state store with segment heights answered from their records (prototype-derived, so it is a StateStore). */
export function segmentStateStore(inner: StateStore, segments: SegmentRegistry): StateStore {
  const overrides = {
    async loadValidators(height: number): Promise<ValidatorSet | undefined> {
      const stored = await inner.loadValidators(height);
      if (stored !== undefined) return stored;
      const s = segments.find(height);
      return s === undefined ? undefined : validatorSetAt(s, height);
    },
    async loadConsensusParams(height: number): Promise<ConsensusParams | undefined> {
      const stored = await inner.loadConsensusParams(height);
      if (stored !== undefined) return stored;
      return segments.find(height)?.consensusParams;
    },
    async loadFinalizeBlockResponse(height: number): Promise<ResponseFinalizeBlock | undefined> {
      const s = segments.find(height);
      return s !== undefined ? segmentResult(s, height) : inner.loadFinalizeBlockResponse(height);
    },
  };
  return Object.assign(Object.create(inner) as StateStore, overrides);
}

/** block_search over the real index plus the segment heights whose events match. */
export function segmentBlockIndexer(inner: BlockIndexer, segments: SegmentRegistry): BlockIndexer {
  return {
    index: (height, events) => inner.index(height, events),
    has: async (height) => segments.find(height) !== undefined || inner.has(height),
    async search(query: Query): Promise<number[]> {
      const stored = await inner.search(query);
      if (segments.isEmpty) return stored;
      const plan = planSearch(query.ast, [BLOCK_HEIGHT_KEY], BLOCK_HEIGHT_KEY);
      if (isEmptyRange(plan.heights)) return stored;
      return mergeAscending(stored, searchSegments(segments.all(), plan));
    },
  };
}
