import { RLP } from '@ethereumjs/rlp';
import { describe, expect, it } from 'vitest';
import type { RlpItem } from './rlp-encode.js';
import { RlpDecodeError, rlpDecodeView, rlpListItemView } from './rlp-view.js';

/** Deterministic pseudo-random integers below n. */
function rng(seed: number): (n: number) => number {
  let s = seed >>> 0;
  return (n) => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s % n;
  };
}

/** Random items: empty and single bytes, short and long strings, nested and long lists. */
function randomItem(r: (n: number) => number, depth: number): RlpItem {
  if (depth > 0 && r(3) === 0) return Array.from({ length: r(depth > 2 ? 4 : 30) }, () => randomItem(r, depth - 1));
  const len = [0, 1, 1, 2, 20, 55, 56, 57, 200, 1100][r(10)]!;
  return Uint8Array.from({ length: len }, () => r(256));
}

const plain = (item: unknown): unknown => (Array.isArray(item) ? item.map(plain) : Buffer.from(item as Uint8Array).toString('hex'));

describe('rlpDecodeView', () => {
  it('decodes what RLP.decode decodes, as views into the input', () => {
    const r = rng(42);
    for (let i = 0; i < 500; i++) {
      const encoded = RLP.encode(randomItem(r, 4) as never);
      const got = rlpDecodeView(encoded);
      expect(plain(got)).toEqual(plain(RLP.decode(encoded)));
      if (got instanceof Uint8Array && got.length > 0) expect(got.buffer).toBe(encoded.buffer);
    }
    expect(plain(rlpDecodeView(new Uint8Array(0)))).toEqual(plain(RLP.decode(new Uint8Array(0))));
  });

  it('refuses what RLP.decode refuses: non-canonical lengths, prefixed single bytes, truncation, leftovers', () => {
    const bad = [
      [0x81, 0x05], // a single byte below 0x80 with a prefix
      [0xb8, 0x05, 1, 2, 3, 4, 5], // long form for a short string
      [0xb9, 0x00, 0x40, ...new Array(64).fill(1)], // length with a leading zero
      [0xf8, 0x02, 0x01, 0x02], // long form for a short list
      [0x83, 1, 2], // string past the end
      [0xc3, 0x01, 0x82, 0x01], // list item past the list's end
      [0xc2, 0x01, 0x02, 0x03], // bytes after the item
      [0xb8], // length missing
    ];
    for (const b of bad) {
      const input = Uint8Array.from(b);
      expect(() => RLP.decode(input), Buffer.from(input).toString('hex')).toThrow();
      expect(() => rlpDecodeView(input), Buffer.from(input).toString('hex')).toThrow(RlpDecodeError);
    }
  });

  it('rlpListItemView reads one item of a list as rlpDecodeView decodes it, and refuses what is not there', () => {
    const r = rng(7);
    for (let i = 0; i < 200; i++) {
      const list = Array.from({ length: 1 + r(12) }, () => randomItem(r, 3));
      const encoded = RLP.encode(list as never);
      const whole = rlpDecodeView(encoded) as RlpItem[];
      for (let k = 0; k < list.length; k++) expect(plain(rlpListItemView(encoded, k))).toEqual(plain(whole[k]));
      expect(() => rlpListItemView(encoded, list.length)).toThrow(RlpDecodeError);
    }
    expect(() => rlpListItemView(new Uint8Array(0), 0)).toThrow(RlpDecodeError);
    expect(() => rlpListItemView(Uint8Array.of(0x82, 1, 2), 0)).toThrow(RlpDecodeError);
    expect(() => rlpListItemView(Uint8Array.of(0xc3, 0x01, 0x82, 0x01), 1)).toThrow(RlpDecodeError);
  });
});
