import { describe, expect, it } from 'vitest';
import { BinaryHeap } from './heap.js';
import { protoTxSize } from './reap.js';

describe('protoTxSize', () => {
  it('counts tag, length varint and bytes as a proto repeated bytes field', () => {
    expect(protoTxSize(0)).toBe(2);
    expect(protoTxSize(127)).toBe(129);
    expect(protoTxSize(128)).toBe(131);
    expect(protoTxSize(16_384)).toBe(16_388);
  });
});

describe('BinaryHeap', () => {
  it('pops in the order of the comparator', () => {
    const h = new BinaryHeap<number>((a, b) => a > b);
    for (const n of [5, 1, 9, 3, 7, 7, 0]) h.push(n);
    const out: number[] = [];
    for (let n = h.pop(); n !== undefined; n = h.pop()) out.push(n);
    expect(out).toEqual([9, 7, 7, 5, 3, 1, 0]);
    expect(h.size).toBe(0);
  });
});
