import { RLP } from '@ethereumjs/rlp';
import { describe, expect, it } from 'vitest';
import { rlpEncode, type RlpItem } from './rlp-encode.js';

const bytes = (n: number, fill = 0xab) => new Uint8Array(n).fill(fill);

/** A deterministic pseudo-random nested item. */
function randomItem(seed: { s: number }, depth: number): RlpItem {
  const r = () => (seed.s = (seed.s * 1103515245 + 12345) % 2 ** 31);
  if (depth === 0 || r() % 3 === 0) {
    const sizes = [0, 1, 1, 2, 55, 56, 57, 255, 256, 70_000];
    const n = sizes[r() % sizes.length]!;
    return bytes(n, r() % 256);
  }
  const len = r() % 6;
  return Array.from({ length: len }, () => randomItem(seed, depth - 1));
}

describe('rlpEncode', () => {
  it('writes the same bytes as @ethereumjs/rlp at every length boundary', () => {
    const cases: RlpItem[] = [
      new Uint8Array(0),
      Uint8Array.of(0),
      Uint8Array.of(0x7f),
      Uint8Array.of(0x80),
      bytes(55),
      bytes(56),
      bytes(256),
      bytes(70_000),
      [],
      [[]],
      [new Uint8Array(0), Uint8Array.of(1), [bytes(54)]],
      Array.from({ length: 60 }, () => Uint8Array.of(1)),
      [Array.from({ length: 300 }, (_, i) => bytes(i % 70))],
    ];
    for (const c of cases) expect(rlpEncode(c)).toEqual(RLP.encode(c as never));
  });

  it('agrees with @ethereumjs/rlp on random nested items', () => {
    const seed = { s: 7 };
    for (let i = 0; i < 200; i++) {
      const item = randomItem(seed, 4);
      expect(rlpEncode(item)).toEqual(RLP.encode(item as never));
    }
  });
});
