/**
 * Indexing off the block path, as CometBFT's IndexerService: the executor hands each block's
 * results over and moves on; writes run one block at a time in order, each a macrotask after its
 * block, so the block's callers (a tx's sender, a mine request) are answered first (unless someone
 * already waits for the queue: then at once). Readers get
 * `readers`: the same indexers whose reads first wait for every block queued so far, so a result
 * is never missing once its block is committed. The last indexed height is recorded, so a node
 * killed before its indexer caught up re-indexes at start.
 *
 * A failed write stops indexing there (later blocks are not indexed over a gap): `onFailure` hears
 * it once, every read from then on throws the IndexingFailedError instead of answering from the
 * stale indexes, and `throwIfFailed` lets the block executor stop the chain.
 */
import type { AbciEvent } from '../abci/types.js';
import type { TxResult } from '../events/types.js';
import type { BlockIndexer } from './block-indexer.js';
import { IndexingFailedError } from './errors.js';
import type { TxIndexer } from './tx-indexer.js';

export interface IndexedHeightStore {
  loadIndexedHeight(): Promise<number>;
  saveIndexedHeight(height: number): Promise<void>;
}

export class IndexerService {
  private tail: Promise<void> = Promise.resolve();
  private failure: IndexingFailedError | undefined;
  /** Hears the first failed write (the node logs it); set once by the chain's wiring. */
  onFailure: ((err: IndexingFailedError) => void) | undefined;
  /** Set while someone waits for the queue (flush, a reader): queued blocks go without a turn. */
  private hurry = 0;
  /** Ends the current job's wait for its turn now (set while a job waits). */
  private skipWait: (() => void) | undefined;

  /** The indexers as readers must use them: every read waits for the queued blocks first. */
  readonly readers: { tx: TxIndexer | undefined; block: BlockIndexer | undefined };

  constructor(
    private readonly txIndexer: TxIndexer | undefined,
    private readonly blockIndexer: BlockIndexer | undefined,
    private readonly marker: IndexedHeightStore,
  ) {
    const caughtUp = async () => {
      await this.drain();
      this.throwIfFailed();
    };
    this.readers = {
      tx: txIndexer && {
        index: (results) => txIndexer.index(results),
        get: async (hash) => (await caughtUp(), txIndexer.get(hash)),
        search: async (query, opts) => (await caughtUp(), txIndexer.search(query, opts)),
      },
      block: blockIndexer && {
        index: (height, events) => blockIndexer.index(height, events),
        has: async (height) => (await caughtUp(), blockIndexer.has(height)),
        search: async (query) => (await caughtUp(), blockIndexer.search(query)),
      },
    };
  }

  get enabled(): boolean {
    return this.txIndexer !== undefined || this.blockIndexer !== undefined;
  }

  /** Queues one block's indexing; never blocks the caller. */
  enqueue(height: number, txResults: TxResult[], blockEvents: AbciEvent[]): void {
    if (!this.enabled) return;
    this.tail = this.tail.then(async () => {
      await this.turn();
      if (this.failure) return;
      try {
        await Promise.all([txResults.length > 0 ? this.txIndexer?.index(txResults) : undefined, this.blockIndexer?.index(height, blockEvents)]);
        await this.marker.saveIndexedHeight(height);
      } catch (err) {
        this.failure = new IndexingFailedError({ height, cause: err });
        this.onFailure?.(this.failure);
      }
    });
  }

  /** Resolves when everything queued so far is written; rethrows an indexing failure. */
  async flush(): Promise<void> {
    await this.drain();
    if (this.failure) throw this.failure;
  }

  /** Throws the indexing failure, if a write failed. */
  throwIfFailed(): void {
    if (this.failure) throw this.failure;
  }

  /**
   * A macrotask, so that a block's callers are answered before its indexing; at once when someone
   * is waiting for the queue (a snapshot, a reader): they need it written, and a turn of the event
   * loop there can also hand the thread to a pending GC task that waits for its helper threads
   * (≈ 20 ms at the end of a start, where `recordStart` flushes the first block's indexing).
   */
  private turn(): Promise<void> {
    if (this.hurry > 0) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const go = () => {
        this.skipWait = undefined;
        resolve();
      };
      const immediate = setImmediate(go);
      this.skipWait = () => {
        clearImmediate(immediate);
        go();
      };
    });
  }

  /** Waits for everything queued so far, without the turns. */
  private async drain(): Promise<void> {
    this.hurry++;
    this.skipWait?.();
    try {
      await this.tail;
    } finally {
      this.hurry--;
    }
  }

  async loadIndexedHeight(): Promise<number> {
    return this.marker.loadIndexedHeight();
  }
}
