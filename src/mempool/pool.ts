/**
 * The storage half of the mempool: txs indexed by hash, by EVM hash and by sender/nonce, with the
 * running byte count. It decides nothing (no app calls, no limits, no replacement policy); the
 * Mempool class does, as reth keeps validation apart from its pending/parked pools.
 */
import { SenderQueue } from './sender-queue.js';
import { isEvmSender, type MempoolContent, type MempoolTx } from './types.js';

export function hexKey(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('hex');
}

export class TxPool {
  private readonly byHash = new Map<string, MempoolTx>();
  /** EVM hash hex → sha256 hash hex. */
  private readonly byEthHash = new Map<string, string>();
  /** Insertion-ordered, so senders come out first-come first-served. */
  private readonly senders = new Map<string, SenderQueue>();
  private bytes = 0;

  get count(): number {
    return this.byHash.size;
  }

  get totalBytes(): number {
    return this.bytes;
  }

  /** Finds a tx by its sha256 hash or its EVM hash. */
  find(hash: Uint8Array): MempoolTx | undefined {
    const key = hexKey(hash);
    const direct = this.byHash.get(key);
    if (direct) return direct;
    const viaEth = this.byEthHash.get(key);
    return viaEth === undefined ? undefined : this.byHash.get(viaEth);
  }

  hasKey(key: string): boolean {
    return this.byHash.has(key);
  }

  queue(sender: string): SenderQueue | undefined {
    return this.senders.get(sender);
  }

  /** The sender's queue, created with `stateNonce` if it does not exist yet. */
  queueFor(sender: string, stateNonce: bigint): SenderQueue {
    let q = this.senders.get(sender);
    if (!q) {
      q = new SenderQueue(sender, stateNonce);
      this.senders.set(sender, q);
    }
    return q;
  }

  queues(): IterableIterator<SenderQueue> {
    return this.senders.values();
  }

  /** Adds `tx`; a tx with the same sender and nonce is replaced and returned. */
  add(tx: MempoolTx, stateNonce: bigint): MempoolTx | undefined {
    const replaced = this.queueFor(tx.sender, stateNonce).put(tx);
    if (replaced) this.unindex(replaced);
    this.byHash.set(hexKey(tx.hash), tx);
    if (tx.ethHash) this.byEthHash.set(hexKey(tx.ethHash), hexKey(tx.hash));
    this.bytes += tx.tx.length;
    return replaced;
  }

  /** Removes a tx by its sha256 hash hex; returns it, or undefined if absent. */
  removeByKey(key: string): MempoolTx | undefined {
    const tx = this.byHash.get(key);
    if (!tx) return undefined;
    const q = this.senders.get(tx.sender);
    q?.remove(tx.nonce);
    this.unindex(tx);
    if (q && q.size === 0) this.senders.delete(tx.sender);
    return tx;
  }

  /** Drops the txs that `dropped` lists (already cut from their queue) from the indexes. */
  forget(dropped: readonly MempoolTx[]): void {
    for (const tx of dropped) this.unindex(tx);
  }

  /** Deletes the sender's queue if it became empty. */
  pruneSender(sender: string): void {
    const q = this.senders.get(sender);
    if (q && q.size === 0) this.senders.delete(sender);
  }

  /** All txs in admission order (the order rechecks run in, as CometBFT's list). */
  bySeq(): MempoolTx[] {
    return [...this.byHash.values()].sort((a, b) => a.seq - b.seq);
  }

  hasPending(): boolean {
    for (const q of this.senders.values()) if (q.pendingCount() > 0) return true;
    return false;
  }

  /** Queued txs: per sender (first-come order) in nonce order. */
  queued(): MempoolTx[] {
    const out: MempoolTx[] = [];
    for (const q of this.senders.values()) out.push(...q.queued());
    return out;
  }

  /** The txpool_* view; only EVM senders (a non-EVM tx has no nonce to show). */
  content(): MempoolContent {
    const pending = new Map<string, MempoolTx[]>();
    const queued = new Map<string, MempoolTx[]>();
    for (const q of this.senders.values()) {
      if (!isEvmSender(q.sender)) continue;
      const p = q.pending();
      const r = q.queued();
      if (p.length > 0) pending.set(q.sender, p);
      if (r.length > 0) queued.set(q.sender, r);
    }
    return { pending, queued };
  }

  clear(): void {
    this.byHash.clear();
    this.byEthHash.clear();
    this.senders.clear();
    this.bytes = 0;
  }

  private unindex(tx: MempoolTx): void {
    const key = hexKey(tx.hash);
    if (this.byHash.get(key) !== tx) return;
    this.byHash.delete(key);
    if (tx.ethHash) this.byEthHash.delete(hexKey(tx.ethHash));
    this.bytes -= tx.tx.length;
  }
}
