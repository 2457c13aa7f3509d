/**
 * Picking executable txs for a block, as geth's miner does: a heap holds the next pending tx of
 * each sender, keyed by priority (highest first, ties first-come). Popping a sender's head pushes
 * its next nonce, so each sender's txs stay in nonce order; once one of a sender's txs does not
 * fit the byte or gas budget, that sender's later txs are skipped (they would leave a gap) while
 * other senders continue.
 */
import { BinaryHeap } from './heap.js';
import type { SenderQueue } from './sender-queue.js';
import type { MempoolTx } from './types.js';

/** Bytes a tx adds to a block's `Data` proto (field tag, length varint, bytes), as CometBFT counts. */
export function protoTxSize(txLength: number): number {
  let varint = 1;
  for (let n = txLength; n >= 0x80; n = Math.floor(n / 0x80)) varint++;
  return 1 + varint + txLength;
}

interface Cursor {
  readonly txs: MempoolTx[];
  index: number;
}

function head(c: Cursor): MempoolTx {
  return c.txs[c.index]!;
}

function before(a: Cursor, b: Cursor): boolean {
  const x = head(a);
  const y = head(b);
  if (x.priority !== y.priority) return x.priority > y.priority;
  return x.seq < y.seq;
}

/**
 * Pending txs in block order, within `maxBytes` (proto-encoded size) and `maxGas` (sum of
 * gasWanted); -1 means no limit.
 */
export function reapPending(queues: Iterable<SenderQueue>, maxBytes = -1, maxGas = -1): MempoolTx[] {
  const heap = new BinaryHeap<Cursor>(before);
  for (const q of queues) {
    const txs = q.pending();
    if (txs.length > 0) heap.push({ txs, index: 0 });
  }
  const out: MempoolTx[] = [];
  let bytes = 0;
  let gas = 0;
  for (let c = heap.pop(); c !== undefined; c = heap.pop()) {
    const tx = head(c);
    const size = protoTxSize(tx.tx.length);
    if (maxBytes > -1 && bytes + size > maxBytes) continue; // drop this sender's rest
    if (maxGas > -1 && gas + tx.gasWanted > maxGas) continue;
    bytes += size;
    gas += tx.gasWanted;
    out.push(tx);
    c.index++;
    if (c.index < c.txs.length) heap.push(c);
  }
  return out;
}
