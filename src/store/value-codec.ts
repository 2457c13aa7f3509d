/**
 * The encoding of stored values (blocks, commits, results, states, index entries).
 *
 * They were v8-serialised, and node:v8's Serializer costs ≈ 5 µs for every plain object it
 * meets (a block, its header and commit, each event and attribute): some 15 values per height,
 * ≈ 300–450 µs of each one-tx block. Stored values are plain data, so they take a compact tagged
 * form written in one pass: undefined, null, booleans, numbers, bigints, strings, Uint8Arrays and
 * Buffers (each kept as its own type), dense arrays and plain objects.
 *
 * The in-memory stores keep every record as these bytes for the chain's life, so the form is
 * small (format 2): lengths, counts and integers are varints, an object's key list is written
 * once a value and referred to by number after that (a block's signatures, a result's events and
 * attributes share a few lists), and a string of lowercase hex digits (hashes, addresses, blooms
 * in events) is kept as its bytes. A FinalizeBlock response or tx result takes ~30% fewer bytes
 * than in format 1, which wrote every key and uint32 lengths; stores written in format 1 still read.
 *
 * Anything else (a Map, a Date, a class instance, a sparse array…) makes the whole value go
 * through v8.serialize as before, so nothing a value held is lost. Decoding tells the forms apart
 * by the first byte (v8's header is 0xFF), so data written before this format still reads.
 */
import { deserialize, serialize } from 'node:v8';
import { recordBytes } from '../codec/byte-slab.js';
import { readValue } from './value-reader.js';
import { FORMAT_1, FORMAT_2, Tag, V8_HEADER } from './value-tags.js';

/** Thrown inside the encoder when a value needs v8's serialiser. */
class NeedsV8 extends Error {}
const needsV8 = new NeedsV8();

// One scratch buffer, grown when a value needs it (never shrunk: glibc would take a large block freed as
// its new mmap threshold, scripts/core-loader.mjs); each result is copied out at its exact size.
let buf = Buffer.allocUnsafe(64 * 1024);
let pos = 0;

function ensure(n: number): void {
  if (pos + n <= buf.length) return;
  let size = buf.length * 2;
  while (size < pos + n) size *= 2;
  const bigger = Buffer.allocUnsafe(size);
  buf.copy(bigger, 0, 0, pos);
  buf = bigger;
}

/** An unsigned varint (7 bits a byte, low first). */
function uv(n: number): void {
  ensure(8);
  while (n >= 0x80) {
    buf[pos++] = (n & 0x7f) | 0x80; // the low 7 bits (ToInt32 keeps them for any length here)
    n = Math.floor(n / 128);
  }
  buf[pos++] = n;
}

function text(s: string): void {
  const len = s.length;
  // Short ASCII strings (keys, event types) by hand: a native write costs more than the copy.
  if (len < 0x80) {
    ensure(1 + len);
    let i = 0;
    const at = pos + 1;
    for (; i < len; i++) {
      const c = s.charCodeAt(i);
      if (c > 0x7f) break;
      buf[at + i] = c;
    }
    if (i === len) {
      buf[pos] = len;
      pos = at + len;
      return;
    }
  }
  const n = Buffer.byteLength(s, 'utf8');
  uv(n);
  ensure(n);
  buf.write(s, pos, n, 'utf8');
  pos += n;
}

/** Where the digits of `s` start (after a `0x`) if it is lowercase hex with an even count of digits; -1 if not. */
function hexDigits(s: string): number {
  const start = s.charCodeAt(0) === 0x30 && s.charCodeAt(1) === 0x78 ? 2 : 0;
  if ((s.length - start) % 2 !== 0) return -1;
  for (let i = start; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c > 0x66 || c < 0x30 || (c > 0x39 && c < 0x61)) return -1;
  }
  return start;
}

/** Below this many characters a hex string is written as text (the check costs more than it saves). */
const MIN_HEX = 8;

function str(s: string): void {
  const start = s.length >= MIN_HEX ? hexDigits(s) : -1;
  if (start < 0) {
    ensure(1);
    buf[pos++] = Tag.String;
    text(s);
    return;
  }
  const n = (s.length - start) / 2;
  ensure(1);
  buf[pos++] = start === 2 ? Tag.Hex0x : Tag.Hex;
  uv(n);
  ensure(n);
  buf.write(start === 2 ? s.slice(2) : s, pos, n, 'hex');
  pos += n;
}

function bytes(tag: Tag, b: Uint8Array): void {
  ensure(1);
  buf[pos++] = tag;
  uv(b.length);
  ensure(b.length);
  buf.set(b, pos);
  pos += b.length;
}

/**
 * Key lists, as a trie by key: a node met in the current value (its `epoch`) has its number
 * there. The trie is a cache of key sequences met (a few dozen for every kind of record), let go
 * when it grows past MAX_SHAPE_NODES (values whose keys are data: a map-like object).
 */
interface Shape {
  epoch: number;
  id: number;
  next: Map<string, Shape> | undefined;
}
const MAX_SHAPE_NODES = 4096;
const newShape = (): Shape => ({ epoch: 0, id: 0, next: undefined });
let shapes = newShape();
let shapeNodes = 0;
/** One a value; `defined` counts the key lists the current value has written. */
let epoch = 0;
let defined = 0;

function object(v: object): void {
  const keys = Object.keys(v);
  let node = shapes;
  for (const k of keys) {
    if (k === '__proto__') throw needsV8;
    let next = node.next?.get(k);
    if (next === undefined) {
      next = newShape();
      (node.next ??= new Map()).set(k, next);
      shapeNodes++;
    }
    node = next;
  }
  ensure(1);
  buf[pos++] = Tag.Object;
  if (node.epoch === epoch) {
    uv(node.id);
  } else {
    node.epoch = epoch;
    node.id = ++defined;
    uv(0);
    uv(keys.length);
    for (const k of keys) text(k);
  }
  for (const k of keys) write((v as Record<string, unknown>)[k]);
}

function write(v: unknown): void {
  switch (typeof v) {
    case 'undefined':
      ensure(1);
      buf[pos++] = Tag.Undefined;
      return;
    case 'boolean':
      ensure(1);
      buf[pos++] = v ? Tag.True : Tag.False;
      return;
    case 'number':
      ensure(9);
      if ((v | 0) === v && !Object.is(v, -0)) {
        buf[pos++] = Tag.Int32;
        uv(v >= 0 ? v * 2 : -v * 2 - 1); // zigzag: small magnitudes, one or two bytes
      } else {
        buf[pos++] = Tag.Float64;
        buf.writeDoubleLE(v, pos);
        pos += 8;
      }
      return;
    case 'bigint':
      ensure(1);
      buf[pos++] = Tag.BigInt;
      text(v.toString(16));
      return;
    case 'string':
      str(v);
      return;
    case 'object':
      if (v === null) {
        ensure(1);
        buf[pos++] = Tag.Null;
        return;
      }
      if (v instanceof Uint8Array) {
        if (v.constructor === Uint8Array) return bytes(Tag.Bytes, v);
        if (Buffer.isBuffer(v)) return bytes(Tag.Buffer, v);
        throw needsV8;
      }
      if (Array.isArray(v)) {
        ensure(1);
        buf[pos++] = Tag.Array;
        uv(v.length);
        for (let i = 0; i < v.length; i++) {
          if (!(i in v)) throw needsV8; // a hole: v8 keeps it
          write(v[i]);
        }
        if (Object.keys(v).length !== v.length) throw needsV8; // extra properties on the array
        return;
      }
      {
        const proto = Object.getPrototypeOf(v) as unknown;
        if (proto !== Object.prototype && proto !== null) throw needsV8;
        object(v);
        return;
      }
    default:
      throw needsV8; // symbol, function
  }
}

/** Writes `v` into the scratch buffer; false when it needs v8's serialiser. */
function writeValue(v: unknown): boolean {
  pos = 0;
  epoch++;
  defined = 0;
  if (shapeNodes > MAX_SHAPE_NODES) {
    shapes = newShape();
    shapeNodes = 0;
  }
  ensure(1);
  buf[pos++] = FORMAT_2;
  try {
    write(v);
    return true;
  } catch (e) {
    if (e === needsV8) return false;
    throw e;
  }
}

/** Copies the value written out of the scratch buffer into `out`. */
function copyOut(out: Uint8Array): Uint8Array {
  out.set(buf.subarray(0, pos));
  return out;
}

/** `v` in a buffer of its own: for a value stored under a key that is written again (a head, a state). */
export function encodeValue(v: unknown): Uint8Array {
  if (!writeValue(v)) return serialize(v);
  return copyOut(new Uint8Array(pos));
}

/**
 * The bytes of encodeValue in the records slab (codec/byte-slab.ts): for a value stored once and
 * kept (a block, its results, an index entry).
 */
export function encodeRecord(v: unknown): Uint8Array {
  if (!writeValue(v)) return serialize(v);
  return copyOut(recordBytes.alloc(pos));
}

export function decodeValue<T>(bytes: Uint8Array): T {
  if (bytes[0] === V8_HEADER) return deserialize(bytes) as T;
  if (bytes[0] !== FORMAT_1 && bytes[0] !== FORMAT_2) throw new Error(`stored value: unknown format ${String(bytes[0])}`);
  return readValue(bytes) as T;
}
