/**
 * Room in the pool: whether a tx fits (`size`, `maxTxsBytes`), and the evictions geth's limits make
 * (queued txs over `accountQueue` or `globalQueue`, or queued txs giving way to an executable one).
 */
import type { Logger } from 'pino';
import type { TxCache } from './cache.js';
import { ACCOUNT_LIMIT_EXCEEDED_LOG, CODE_ACCOUNT_LIMIT_EXCEEDED, CODE_TXPOOL_FULL, MempoolFullError, TXPOOL_FULL_LOG } from './errors.js';
import { hexKey, type TxPool } from './pool.js';
import { accountVictims, globalVictim, queuedCount, queuedTotals } from './queue-limits.js';
import type { SenderQueue } from './sender-queue.js';
import type { MempoolConfig, MempoolTx } from './types.js';

/** A tx the mempool refuses in a CheckTx answer of its own (codespace `mempool`). */
export interface Refusal {
  code: number;
  log: string;
}

export class PoolRoom {
  constructor(
    private readonly pool: TxPool,
    private readonly cache: TxCache,
    private readonly config: Required<MempoolConfig>,
    private readonly log: Logger,
  ) {}

  /**
   * Whether `entry` fits under `size` and `maxTxsBytes` (a replacement swaps one tx for another, so
   * only its byte difference counts). A full pool takes an executable tx if evicting queued txs,
   * furthest-future first, frees enough room; it never evicts pending txs, and a queued tx evicts
   * nothing.
   */
  makeRoom(entry: MempoolTx, existing: MempoolTx | undefined, executable: boolean): boolean {
    const { size, maxTxsBytes } = this.config;
    const added = existing ? 0 : 1;
    const addedBytes = entry.tx.length - (existing?.tx.length ?? 0);
    const fits = (count: number, bytes: number) => count + added <= size && bytes + addedBytes <= maxTxsBytes;
    if (fits(this.pool.count, this.pool.totalBytes)) return true;
    if (!executable) return false;
    const queued = queuedTotals(this.pool.queues());
    if (!fits(this.pool.count - queued.count, this.pool.totalBytes - queued.bytes)) return false;
    while (!fits(this.pool.count, this.pool.totalBytes)) this.evict(globalVictim(this.pool.queues())!, 'room for an executable tx');
    return true;
  }

  /**
   * `accountQueue`: evicts the sender's furthest txs over the cap; the refusal if `added` (the tx
   * that just joined the queue) was one of them.
   */
  trimAccount(queue: SenderQueue, added?: MempoolTx): Refusal | undefined {
    let refused: Refusal | undefined;
    for (const t of accountVictims(queue, this.config.accountQueue)) {
      this.evict(t, 'over the account queue limit');
      if (t === added) refused = { code: CODE_ACCOUNT_LIMIT_EXCEEDED, log: ACCOUNT_LIMIT_EXCEEDED_LOG };
    }
    return refused;
  }

  /**
   * `globalQueue`: while all queued txs are over the cap, evicts the furthest tx of the sender that
   * holds the most; the refusal if `added` was one of them.
   */
  trimGlobal(added?: MempoolTx): Refusal | undefined {
    let refused: Refusal | undefined;
    for (let over = queuedCount(this.pool.queues()) - this.config.globalQueue; over > 0; over--) {
      const t = globalVictim(this.pool.queues())!;
      this.evict(t, 'over the global queue limit');
      if (t === added) refused = { code: CODE_TXPOOL_FULL, log: TXPOOL_FULL_LOG };
    }
    return refused;
  }

  /** Removes a pooled tx for lack of room; it was valid, so it leaves the cache and may come back. */
  private evict(t: MempoolTx, reason: string): void {
    const key = hexKey(t.hash);
    this.pool.removeByKey(key);
    this.cache.remove(key);
    this.log.debug({ tx: key, sender: t.sender, nonce: String(t.nonce) }, `evicted queued tx: ${reason}`);
  }

  isFull(txSize: number): boolean {
    return this.pool.count >= this.config.size || txSize + this.pool.totalBytes > this.config.maxTxsBytes;
  }

  fullError(): MempoolFullError {
    return new MempoolFullError({
      numTxs: this.pool.count,
      maxTxs: this.config.size,
      txsBytes: this.pool.totalBytes,
      maxTxsBytes: this.config.maxTxsBytes,
    });
  }
}
