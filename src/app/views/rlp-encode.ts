/**
 * RLP encoding of byte strings and nested lists into one buffer: a first pass measures every list,
 * a second writes. The same bytes as `RLP.encode` from @ethereumjs/rlp, which builds and copies
 * a buffer per item and per list level (a block record of 1000 txs has ~15 000 items).
 *
 * The buffer comes from the records slab (codec/byte-slab.ts): what this encodes (trie nodes, block
 * records) is stored and kept.
 */
import { recordBytes } from '../../codec/byte-slab.js';

export type RlpItem = Uint8Array | readonly RlpItem[];

export function rlpEncode(item: RlpItem): Uint8Array {
  const listSizes: number[] = [];
  const out = recordBytes.alloc(measure(item, listSizes));
  write(item, out, 0, listSizes, { next: 0 });
  return out;
}

/** The header of a list whose items' encodings take `payload` bytes. */
export function rlpListHeader(payload: number): Uint8Array {
  const out = new Uint8Array(headerLength(payload));
  writeHeader(out, 0, payload, 0xc0, 0xf7);
  return out;
}

/** Bytes before a byte string's content in its encoding (none for one byte below 0x80). */
export function rlpStringHeaderLength(item: Uint8Array): number {
  return item.length === 1 && item[0]! < 0x80 ? 0 : headerLength(item.length);
}

function headerLength(payload: number): number {
  return payload < 56 ? 1 : 1 + byteCount(payload);
}

function byteCount(n: number): number {
  let c = 0;
  for (let v = n; v > 0; v = Math.floor(v / 256)) c++;
  return c;
}

/** Encoded size of `item`; the payload size of every list, in pre-order, into `sizes`. */
function measure(item: RlpItem, sizes: number[]): number {
  if (item instanceof Uint8Array) {
    if (item.length === 1 && item[0]! < 0x80) return 1;
    return headerLength(item.length) + item.length;
  }
  const slot = sizes.length;
  sizes.push(0);
  let payload = 0;
  for (const child of item) payload += measure(child, sizes);
  sizes[slot] = payload;
  return headerLength(payload) + payload;
}

function writeHeader(out: Uint8Array, pos: number, payload: number, short: number, long: number): number {
  if (payload < 56) {
    out[pos] = short + payload;
    return pos + 1;
  }
  const n = byteCount(payload);
  out[pos] = long + n;
  for (let i = n; i >= 1; i--) {
    out[pos + i] = payload % 256;
    payload = Math.floor(payload / 256);
  }
  return pos + 1 + n;
}

function write(item: RlpItem, out: Uint8Array, pos: number, sizes: number[], cursor: { next: number }): number {
  if (item instanceof Uint8Array) {
    if (item.length === 1 && item[0]! < 0x80) {
      out[pos] = item[0]!;
      return pos + 1;
    }
    pos = writeHeader(out, pos, item.length, 0x80, 0xb7);
    out.set(item, pos);
    return pos + item.length;
  }
  pos = writeHeader(out, pos, sizes[cursor.next++]!, 0xc0, 0xf7);
  for (const child of item) pos = write(child, out, pos, sizes, cursor);
  return pos;
}
