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

/** The payload of the item `readHeader` last read: [itemStart, itemStop). */
let itemStart = 0;
let itemStop = 0;

/** Reads the header of the item at `at` (which must be below `end`), checked; returns its first byte. */
function readHeader(b: Uint8Array, end: number): number {
  const first = b[at]!;
  if (first <= 0x7f) {
    itemStart = at;
    itemStop = at + 1;
    return first;
  }
  let length: number;
  if (first <= 0xb7 || (first >= 0xc0 && first <= 0xf7)) {
    itemStart = at + 1;
    length = first - (first <= 0xb7 ? 0x80 : 0xc0);
  } else {
    const lengthOfLength = first - (first <= 0xbf ? 0xb7 : 0xf7);
    itemStart = at + 1 + lengthOfLength;
    if (itemStart > end) throw new RlpDecodeError('not enough bytes for a length');
    if (b[at + 1] === 0) throw new RlpDecodeError('a length with leading zeros');
    length = 0;
    for (let i = at + 1; i < itemStart; i++) length = length * 256 + b[i]!;
    if (length <= 55) throw new RlpDecodeError('a long form for a length below 56');
  }
  itemStop = itemStart + length;
  if (itemStop > end) throw new RlpDecodeError('an item runs past its end');
  return first;
}

function readItem(b: Uint8Array, end: number): RlpItem {
  const first = readHeader(b, end);
  const start = itemStart;
  const stop = itemStop;
  if (first <= 0x7f) return b.subarray(at, ++at);
  if (first < 0xc0) {
    if (stop - start === 1 && b[start]! < 0x80) throw new RlpDecodeError('a single byte below 0x80 must not be prefixed');
    at = stop;
    return b.subarray(start, stop);
  }
  at = start;
  const items: RlpItem[] = [];
  while (at < stop) items.push(readItem(b, stop));
  return items;
}

/**
 * Item `index` of the RLP list `input`, decoded as `rlpDecodeView` would; the items before it are
 * skipped by their headers, not decoded, and the ones after it not read at all.
 */
export function rlpListItemView(input: Uint8Array, index: number): RlpItem {
  if (input.length === 0 || input[0]! < 0xc0) throw new RlpDecodeError('not a list');
  at = 0;
  readHeader(input, input.length);
  const stop = itemStop;
  at = itemStart;
  for (let i = 0; i < index; i++) {
    if (at >= stop) throw new RlpDecodeError(`a list of ${i} items has no item ${index}`);
    readHeader(input, stop);
    at = itemStop;
  }
  if (at >= stop) throw new RlpDecodeError(`a list of ${index} items has no item ${index}`);
  return readItem(input, stop);
}
