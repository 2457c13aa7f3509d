/**
 * RLP decoding into views of the input, with the checks of @ethereumjs/rlp's `RLP.decode` (canonical
 * lengths, single bytes unprefixed, nothing left over). Trie nodes are decoded on every account
 * lookup and every block's trie update; upstream copies each item and makes a remainder view and an
 * object per item, about a third of a lookup's time. What this returns shares the input's memory:
 * callers copy what they hand on to code that may write into it.
 */
import type { RlpItem } from './rlp-encode.js';

export class RlpDecodeError extends Error {
  constructor(what: string) {
    super(`invalid RLP: ${what}`);
    this.name = 'RlpDecodeError';
  }
}

/** Read position: decoding is synchronous, so one cursor serves every call. */
let at = 0;

/** The one item `input` encodes (an empty input decodes to an empty string, as upstream). */
export function rlpDecodeView(input: Uint8Array): RlpItem {
  if (input.length === 0) return input;
  at = 0;
  const item = readItem(input, input.length);
  if (at !== input.length) throw new RlpDecodeError('remainder must be zero');
  return item;
}

function readItem(b: Uint8Array, end: number): RlpItem {
  const first = b[at]!;
  if (first <= 0x7f) return b.subarray(at, ++at);
  let start: number;
  let length: number;
  if (first <= 0xb7 || (first >= 0xc0 && first <= 0xf7)) {
    start = at + 1;
    length = first - (first <= 0xb7 ? 0x80 : 0xc0);
  } else {
    const lengthOfLength = first - (first <= 0xbf ? 0xb7 : 0xf7);
    start = at + 1 + lengthOfLength;
    if (start > end) throw new RlpDecodeError('not enough bytes for a length');
    if (b[at + 1] === 0) throw new RlpDecodeError('a length with leading zeros');
    length = 0;
    for (let i = at + 1; i < start; i++) length = length * 256 + b[i]!;
    if (length <= 55) throw new RlpDecodeError('a long form for a length below 56');
  }
  const stop = start + length;
  if (stop > end) throw new RlpDecodeError('an item runs past its end');
  if (first < 0xc0) {
    if (length === 1 && b[start]! < 0x80) throw new RlpDecodeError('a single byte below 0x80 must not be prefixed');
    at = stop;
    return b.subarray(start, stop);
  }
  at = start;
  const items: RlpItem[] = [];
  while (at < stop) items.push(readItem(b, stop));
  return items;
}
