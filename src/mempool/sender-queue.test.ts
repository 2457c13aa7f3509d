import { describe, expect, it } from 'vitest';
import { SenderQueue } from './sender-queue.js';
import type { MempoolTx } from './types.js';

let seq = 0;
function tx(nonce: bigint): MempoolTx {
  return {
    tx: new Uint8Array([Number(nonce)]),
    hash: new Uint8Array(32).fill(Number(nonce)),
    sender: '0xaa',
    nonce,
    priority: 1n,
    maxFeePerGas: 1n,
    gasWanted: 1,
    addedAt: 0,
    seq: seq++,
  };
}

const nonces = (txs: readonly MempoolTx[]): bigint[] => txs.map((t) => t.nonce);

describe('SenderQueue', () => {
  it('keeps nonce order and splits pending from queued at the first gap', () => {
    const q = new SenderQueue('0xaa', 3n);
    for (const n of [6n, 3n, 4n, 8n]) q.put(tx(n));
    expect(nonces(q.all())).toEqual([3n, 4n, 6n, 8n]);
    expect(nonces(q.pending())).toEqual([3n, 4n]);
    expect(nonces(q.queued())).toEqual([6n, 8n]);
    q.put(tx(5n));
    expect(nonces(q.pending())).toEqual([3n, 4n, 5n, 6n]);
    expect(nonces(q.queued())).toEqual([8n]);
  });

  it('has nothing pending while the state nonce is missing', () => {
    const q = new SenderQueue('0xaa', 0n);
    q.put(tx(1n));
    expect(q.pendingCount()).toBe(0);
    expect(nonces(q.queued())).toEqual([1n]);
  });

  it('replaces a same-nonce tx and returns the old one', () => {
    const q = new SenderQueue('0xaa', 0n);
    const a = tx(0n);
    const b = tx(0n);
    expect(q.put(a)).toBeUndefined();
    expect(q.put(b)).toBe(a);
    expect(q.get(0n)).toBe(b);
    expect(q.size).toBe(1);
  });

  it('drops stale txs when the state nonce moves', () => {
    const q = new SenderQueue('0xaa', 0n);
    for (const n of [0n, 1n, 2n, 4n]) q.put(tx(n));
    expect(nonces(q.advanceStateNonce(2n))).toEqual([0n, 1n]);
    expect(nonces(q.advanceStateNonce(1n))).toEqual([]); // never lowers
    expect(q.stateNonce).toBe(2n);
    expect(nonces(q.setStateNonce(3n))).toEqual([2n]);
    expect(nonces(q.queued())).toEqual([4n]);
    expect(q.remove(4n)?.nonce).toBe(4n);
    expect(q.remove(4n)).toBeUndefined();
    expect(q.size).toBe(0);
  });

  it('nextNonce, queuedCount and last: what the queued caps read', () => {
    const q = new SenderQueue('0xaa', 3n);
    expect(q.nextNonce()).toBe(3n);
    expect(q.last()).toBeUndefined();
    for (const n of [3n, 4n, 7n, 9n]) q.put(tx(n));
    expect(q.nextNonce()).toBe(5n);
    expect(q.queuedCount()).toBe(2);
    expect(q.last()?.nonce).toBe(9n);
  });
});
