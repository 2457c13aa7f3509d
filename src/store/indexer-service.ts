/**
 * Indexing off the block path, as CometBFT's IndexerService: the executor hands each block's
 * results over and moves on; writes run one block at a time in order. Readers that need the
 * index to be current (`tx`, `tx_search`, `block_search`) `await flush()` first. The last indexed
 * height is recorded, so a node killed before its indexer caught up re-indexes at start.
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

  constructor(
    private readonly txIndexer: TxIndexer | undefined,
    private readonly blockIndexer: BlockIndexer | undefined,
    private readonly marker: IndexedHeightStore,
  ) {}

  get enabled(): boolean {
    return this.txIndexer !== undefined || this.blockIndexer !== undefined;
  }

  /** Queues one block's indexing; never blocks the caller. */
  enqueue(height: number, txResults: TxResult[], blockEvents: AbciEvent[]): void {
    if (!this.enabled) return;
    this.tail = this.tail.then(async () => {
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
