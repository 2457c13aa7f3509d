/**
 * Which queued (nonce-gapped) tx goes when there are too many, after geth's legacypool: at most
 * `accountQueue` queued txs per sender and `globalQueue` in all. The victim is always a
 * furthest-future tx (the highest nonce of a sender), never a pending one, so a gap flood costs its
 * own sender first and never blocks another account's executable tx.
 */
import type { SenderQueue } from './sender-queue.js';
import type { MempoolTx } from './types.js';

/** Queued txs of all senders. */
export function queuedCount(queues: Iterable<SenderQueue>): number {
  let count = 0;
  for (const q of queues) count += q.queuedCount();
  return count;
}

/** Queued txs of all senders, and their bytes. */
export function queuedTotals(queues: Iterable<SenderQueue>): { count: number; bytes: number } {
  let count = 0;
  let bytes = 0;
  for (const q of queues) {
    if (q.queuedCount() === 0) continue;
    for (const t of q.queued()) {
      count++;
      bytes += t.tx.length;
    }
  }
  return { count, bytes };
}

/**
 * The tx to evict for the global cap (or to make room for an executable tx): the furthest-future
 * tx of the sender holding the most queued txs; between equals, the newer tx goes.
 */
export function globalVictim(queues: Iterable<SenderQueue>): MempoolTx | undefined {
  let victim: MempoolTx | undefined;
  let most = 0;
  for (const q of queues) {
    const queued = q.queuedCount();
    if (queued === 0) continue;
    const last = q.last()!;
    if (queued > most || (queued === most && last.seq > victim!.seq)) {
      most = queued;
      victim = last;
    }
  }
  return victim;
}

/** The sender's txs over its cap, furthest first (they are all queued: beyond the pending run). */
export function accountVictims(q: SenderQueue, accountQueue: number): MempoolTx[] {
  const over = q.queuedCount() - accountQueue;
  return over > 0
    ? q
        .all()
        .slice(q.size - over)
        .reverse()
    : [];
}
