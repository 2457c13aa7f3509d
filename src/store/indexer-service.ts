/**
 * Indexing off the block path, as CometBFT's IndexerService: the executor hands each block's
 * results over and moves on; writes run one block at a time in order, each a macrotask after its
 * block, so the block's callers (a tx's sender, a mine request) are answered first. Readers get
 * `readers`: the same indexers whose reads first wait for every block queued so far, so a result
 * is never missing once its block is committed. The last indexed height is recorded, so a node
 * killed before its indexer caught up re-indexes at start.
 */
import type { AbciEvent } from '../abci/types.js';
import type { TxResult } from '../events/types.js';
import type { BlockIndexer } from './block-indexer.js';
import type { TxIndexer } from './tx-indexer.js';

export interface IndexedHeightStore {
  loadIndexedHeight(): Promise<number>;
  saveIndexedHeight(height: number): Promise<void>;
}

export class IndexerService {
  private tail: Promise<void> = Promise.resolve();
  private failure: Error | undefined;

  /** The indexers as readers must use them: every read waits for the queued blocks first. */
  readonly readers: { tx: TxIndexer | undefined; block: BlockIndexer | undefined };

  constructor(
    private readonly txIndexer: TxIndexer | undefined,
    private readonly blockIndexer: BlockIndexer | undefined,
    private readonly marker: IndexedHeightStore,
  ) {
    const caughtUp = () => this.tail;
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
      await new Promise<void>((resolve) => setImmediate(resolve));
      if (this.failure) return;
      try {
        await Promise.all([txResults.length > 0 ? this.txIndexer?.index(txResults) : undefined, this.blockIndexer?.index(height, blockEvents)]);
        await this.marker.saveIndexedHeight(height);
      } catch (err) {
        this.failure = err as Error;
      }
    });
  }

  /** Resolves when everything queued so far is written; rethrows an indexing failure. */
  async flush(): Promise<void> {
    await this.tail;
    if (this.failure) throw this.failure;
  }

  async loadIndexedHeight(): Promise<number> {
    return this.marker.loadIndexedHeight();
  }
}
