/**
 * The block store (CometBFT store/store.go): blocks, their metas and commits by height, with a
 * hash → height index. Each saveBlock is one atomic batch, so a crash never leaves half a block.
 *
 * Keys:
 *   bs.state                          → v8({base, height})
 *   bs.block  \0 <height>             → v8(Block)
 *   bs.meta   \0 <height>             → v8(BlockMeta)
 *   bs.commit \0 <height>             → v8(Commit)  canonical commit of h = block h+1's lastCommit
 *   bs.seen                           → v8({height, commit})  seen commit, latest block only
 *   bs.hash   \0 <hash hex>           → v8(height)
 */
import type { Block, BlockID, BlockMeta, Commit } from '../types/block.js';
import { NonContiguousBlockError, SeenCommitMismatchError } from './errors.js';
import { joinKey, padHeight } from './keys.js';
import { asLevelDb, encodeRecord, encodeValue, getValue, openDb, writeBatch, type LevelDb, type PutOp } from './level.js';

export interface BlockStore {
  /** Lowest stored height; 0 when empty. */
  base(): number;
  /** Highest stored height; 0 when empty. */
  height(): number;
  /** Saves a block, its meta, its lastCommit (as the canonical commit of height-1) and the seen commit. */
  saveBlock(block: Block, blockId: BlockID, blockSize: number, seenCommit: Commit): Promise<void>;
  loadBlock(height: number): Promise<Block | undefined>;
  loadBlockByHash(hash: Uint8Array): Promise<Block | undefined>;
  loadBlockMeta(height: number): Promise<BlockMeta | undefined>;
  loadBlockMetaByHash(hash: Uint8Array): Promise<BlockMeta | undefined>;
  /** The canonical commit for `height`, known once block height+1 is stored. */
  loadBlockCommit(height: number): Promise<Commit | undefined>;
  /** The commit seen for the latest block (undefined for any other height). */
  loadSeenCommit(height: number): Promise<Commit | undefined>;
  heightByHash(hash: Uint8Array): Promise<number | undefined>;
}

interface StoreState {
  base: number;
  height: number;
}

interface SeenCommit {
  height: number;
  commit: Commit;
}

/** Base and height of the store (also written by segment-stores.ts with an empty segment). */
export const STATE_KEY = 'bs.state';
const SEEN_KEY = 'bs.seen';
const blockKey = (h: number) => joinKey('bs.block', padHeight(h));
const metaKey = (h: number) => joinKey('bs.meta', padHeight(h));
const commitKey = (h: number) => joinKey('bs.commit', padHeight(h));
const hashKey = (hash: Uint8Array) => joinKey('bs.hash', Buffer.from(hash).toString('hex'));

class LevelBlockStore implements BlockStore {
  /** Saves run one at a time so the contiguity check always sees the committed height. */
  private saving: Promise<void> = Promise.resolve();

  constructor(
    private readonly db: LevelDb,
    private state: StoreState,
  ) {}

  base(): number {
    return this.state.base;
  }

  height(): number {
    return this.state.height;
  }

  saveBlock(block: Block, blockId: BlockID, blockSize: number, seenCommit: Commit): Promise<void> {
    const run = this.saving.then(() => this.save(block, blockId, blockSize, seenCommit));
    this.saving = run.catch(() => undefined);
    return run;
  }

  private async save(block: Block, blockId: BlockID, blockSize: number, seenCommit: Commit): Promise<void> {
    const h = block.header.height;
    if (this.state.height > 0 && h !== this.state.height + 1) {
      throw new NonContiguousBlockError({ wanted: this.state.height + 1, got: h });
    }
    if (seenCommit.height !== h) throw new SeenCommitMismatchError({ blockHeight: h, commitHeight: seenCommit.height });

    const meta: BlockMeta = { blockId, blockSize, header: block.header, numTxs: block.data.txs.length };
    const next: StoreState = { base: this.state.base === 0 ? h : this.state.base, height: h };
    // A height's records are written once and kept; the seen commit and the store state are written again next height.
    const puts: PutOp[] = [
      { key: blockKey(h), value: encodeRecord(block) },
      { key: metaKey(h), value: encodeRecord(meta) },
      { key: hashKey(blockId.hash), value: encodeRecord(h) },
      { key: SEEN_KEY, value: encodeValue({ height: h, commit: seenCommit } satisfies SeenCommit) },
      { key: STATE_KEY, value: encodeValue(next) },
    ];
    // The first block's lastCommit is empty (height 0): there is nothing canonical to keep.
    if (block.lastCommit.height > 0) puts.push({ key: commitKey(block.lastCommit.height), value: encodeRecord(block.lastCommit) });
    await writeBatch(this.db, puts);
    this.state = next;
  }

  loadBlock(height: number): Promise<Block | undefined> {
    return getValue<Block>(this.db, blockKey(height));
  }

  async loadBlockByHash(hash: Uint8Array): Promise<Block | undefined> {
    const h = await this.heightByHash(hash);
    return h === undefined ? undefined : this.loadBlock(h);
  }

  loadBlockMeta(height: number): Promise<BlockMeta | undefined> {
    return getValue<BlockMeta>(this.db, metaKey(height));
  }

  async loadBlockMetaByHash(hash: Uint8Array): Promise<BlockMeta | undefined> {
    const h = await this.heightByHash(hash);
    return h === undefined ? undefined : this.loadBlockMeta(h);
  }

  loadBlockCommit(height: number): Promise<Commit | undefined> {
    return getValue<Commit>(this.db, commitKey(height));
  }

  async loadSeenCommit(height: number): Promise<Commit | undefined> {
    const seen = await getValue<SeenCommit>(this.db, SEEN_KEY);
    return seen?.height === height ? seen.commit : undefined;
  }

  heightByHash(hash: Uint8Array): Promise<number | undefined> {
    if (hash.length === 0) return Promise.resolve(undefined);
    return getValue<number>(this.db, hashKey(hash));
  }
}

/** Opens the store on `db` (a database or sublevel), restoring base and height. */
export async function createBlockStore<V>(db: LevelDb<V>): Promise<BlockStore> {
  const level = asLevelDb(db);
  await openDb(level);
  const state = (await getValue<StoreState>(level, STATE_KEY)) ?? { base: 0, height: 0 };
  return new LevelBlockStore(level, state);
}
