/**
 * One sender's txs, sorted by nonce, with the sender's next nonce in committed state. The
 * pending/queued split (geth's txpool) is derived, never stored: pending is the run of contiguous
 * nonces starting at the state nonce; everything after the first gap is queued.
 */
import type { MempoolTx } from './types.js';

export class SenderQueue {
  private readonly txs: MempoolTx[] = [];

  constructor(
    readonly sender: string,
    /** The sender's next nonce in committed state. */
    public stateNonce: bigint,
  ) {}

  get size(): number {
    return this.txs.length;
  }

  /** All txs, in nonce order. */
  all(): readonly MempoolTx[] {
    return this.txs;
  }

  get(nonce: bigint): MempoolTx | undefined {
    const i = this.indexOf(nonce);
    const tx = this.txs[i];
    return tx !== undefined && tx.nonce === nonce ? tx : undefined;
  }

  /** Inserts `tx`, replacing any tx with the same nonce; returns the replaced one. */
  put(tx: MempoolTx): MempoolTx | undefined {
    const i = this.indexOf(tx.nonce);
    const existing = this.txs[i];
    if (existing !== undefined && existing.nonce === tx.nonce) {
      this.txs[i] = tx;
      return existing;
    }
    this.txs.splice(i, 0, tx);
    return undefined;
  }

  remove(nonce: bigint): MempoolTx | undefined {
    const i = this.indexOf(nonce);
    const tx = this.txs[i];
    if (tx === undefined || tx.nonce !== nonce) return undefined;
    this.txs.splice(i, 1);
    return tx;
  }

  /** Raises the state nonce (never lowers it) and returns the txs it made stale (nonce too low). */
  advanceStateNonce(next: bigint): MempoolTx[] {
    if (next > this.stateNonce) this.stateNonce = next;
    return this.dropBelowStateNonce();
  }

  /** Sets the state nonce as the app reports it, and returns the txs it made stale. */
  setStateNonce(next: bigint): MempoolTx[] {
    this.stateNonce = next;
    return this.dropBelowStateNonce();
  }

  pendingCount(): number {
    // Sorted, unique nonces: a queue that starts at the state nonce and ends len - 1 later has no
    // gap. That is the usual queue, and CheckTx asks this for every tx, so no walk for it.
    const len = this.txs.length;
    if (len === 0) return 0;
    if (this.txs[0]!.nonce === this.stateNonce && this.txs[len - 1]!.nonce === this.stateNonce + BigInt(len - 1)) return len;
    let n = 0;
    let expected = this.stateNonce;
    for (const tx of this.txs) {
      if (tx.nonce !== expected) break;
      n++;
      expected++;
    }
    return n;
  }

  /** The nonce that would extend the pending run: a tx with it (or below) is executable now. */
  nextNonce(): bigint {
    return this.stateNonce + BigInt(this.pendingCount());
  }

  queuedCount(): number {
    return this.txs.length - this.pendingCount();
  }

  /** The highest-nonce tx: the furthest-future one when the sender has queued txs. */
  last(): MempoolTx | undefined {
    return this.txs[this.txs.length - 1];
  }

  pending(): MempoolTx[] {
    return this.txs.slice(0, this.pendingCount());
  }

  queued(): MempoolTx[] {
    return this.txs.slice(this.pendingCount());
  }

  private dropBelowStateNonce(): MempoolTx[] {
    const cut = this.indexOf(this.stateNonce);
    return cut === 0 ? [] : this.txs.splice(0, cut);
  }

  /** Index of the first tx whose nonce is >= `nonce` (binary search). */
  private indexOf(nonce: bigint): number {
    let lo = 0;
    let hi = this.txs.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.txs[mid]!.nonce < nonce) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}
