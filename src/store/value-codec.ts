/**
 * The encoding of stored values (blocks, commits, results, states, index entries).
 *
 * They were v8-serialised, and node:v8's Serializer costs ≈ 5 µs for every plain object it
 * meets (a block, its header and commit, each event and attribute): some 15 values per height,
 * ≈ 300–450 µs of each one-tx block. Stored values are plain data, so they now take a compact
 * tagged form written in one pass: undefined, null, booleans, numbers, bigints, strings,
 * Uint8Arrays and Buffers (each kept as its own type), dense arrays and plain objects.
 *
 * Anything else (a Map, a Date, a class instance, a sparse array…) makes the whole value go
 * through v8.serialize as before, so nothing a value held is lost. Decoding tells the two apart
 * by the first byte (v8's header is 0xFF), so data written before this format still reads.
 */
import { deserialize, serialize } from 'node:v8';
import { recordBytes } from '../codec/byte-slab.js';

const FORMAT = 0x01;
const V8_HEADER = 0xff;

const enum Tag {
  Undefined = 0,
  Null = 1,
  False = 2,
  True = 3,
  Float64 = 4,
  Int32 = 5,
  BigInt = 6,
  String = 7,
  Bytes = 8,
  Buffer = 9,
  Array = 10,
  Object = 11,
}

/** Thrown inside the encoder when a value needs v8's serialiser. */
class NeedsV8 extends Error {}
const needsV8 = new NeedsV8();

// One scratch buffer, grown when a value needs it; each result is copied out at its exact size.
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

/** A little-endian uint32 at `at`, by hand (Buffer#writeUInt32LE checks its arguments each call). */
function put32(n: number, at: number): void {
  buf[at] = n & 0xff;
  buf[at + 1] = (n >>> 8) & 0xff;
  buf[at + 2] = (n >>> 16) & 0xff;
  buf[at + 3] = n >>> 24;
}

function u32(n: number): void {
  ensure(4);
  put32(n, pos);
  pos += 4;
}

function text(s: string): void {
  const len = s.length;
  ensure(4 + len * 3);
  // Short ASCII strings (keys, event types) by hand: a native write costs more than the copy.
  if (len <= 128) {
    let i = 0;
    const at = pos + 4;
    for (; i < len; i++) {
      const c = s.charCodeAt(i);
      if (c > 0x7f) break;
      buf[at + i] = c;
    }
    if (i === len) {
      put32(len, pos);
      pos = at + len;
      return;
    }
  }
  const n = buf.write(s, pos + 4, 'utf8');
  put32(n, pos);
  pos += 4 + n;
}

function bytes(tag: Tag, b: Uint8Array): void {
  ensure(5 + b.length);
  buf[pos++] = tag;
  put32(b.length, pos);
  buf.set(b, pos + 4);
  pos += 4 + b.length;
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
      if ((v | 0) === v && !Object.is(v, -0)) {
        ensure(5);
        buf[pos++] = Tag.Int32;
        buf.writeInt32LE(v, pos);
        pos += 4;
      } else {
        ensure(9);
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
      ensure(1);
      buf[pos++] = Tag.String;
      text(v);
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
        u32(v.length);
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
        const keys = Object.keys(v);
        ensure(1);
        buf[pos++] = Tag.Object;
        u32(keys.length);
        for (const k of keys) {
          if (k === '__proto__') throw needsV8;
          text(k);
          write((v as Record<string, unknown>)[k]);
        }
        return;
      }
    default:
      throw needsV8; // symbol, function
  }
}

/** Writes `v` into the scratch buffer; false when it needs v8's serialiser. */
function writeValue(v: unknown): boolean {
  pos = 0;
  ensure(1);
  buf[pos++] = FORMAT;
  try {
    write(v);
    return true;
  } catch (e) {
    if (e === needsV8) return false;
    throw e;
  }
}

/** `v` in a buffer of its own: for a value stored under a key that is written again (a head, a state). */
export function encodeValue(v: unknown): Uint8Array {
  if (!writeValue(v)) return serialize(v);
  const out = new Uint8Array(pos);
  out.set(buf.subarray(0, pos));
  return out;
}

/**
 * The bytes of encodeValue in the records slab (codec/byte-slab.ts): for a value stored once and
 * kept (a block, its results, an index entry).
 */
export function encodeRecord(v: unknown): Uint8Array {
  if (!writeValue(v)) return serialize(v);
  const out = recordBytes.alloc(pos);
  out.set(buf.subarray(0, pos));
  return out;
}

class Reader {
  private at = 1;
  private readonly b: Buffer;

  constructor(bytes: Uint8Array) {
    this.b = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  private u32(): number {
    const b = this.b;
    const at = this.at;
    this.at += 4;
    return (b[at]! | (b[at + 1]! << 8) | (b[at + 2]! << 16)) + b[at + 3]! * 0x1000000;
  }

  private text(): string {
    const n = this.u32();
    const start = this.at;
    this.at += n;
    // Short ASCII strings (keys, hashes in hex) by hand: cheaper than a native decode each.
    if (n <= 80) {
      let s = '';
      for (let i = start; i < start + n; i++) {
        const c = this.b[i]!;
        if (c > 0x7f) return this.b.toString('utf8', start, start + n);
        s += String.fromCharCode(c);
      }
      return s;
    }
    return this.b.toString('utf8', start, start + n);
  }

  private raw(): Uint8Array {
    const n = this.u32();
    const out = new Uint8Array(n);
    out.set(this.b.subarray(this.at, this.at + n));
    this.at += n;
    return out;
  }

  value(): unknown {
    const tag = this.b[this.at++] as Tag;
    switch (tag) {
      case Tag.Undefined:
        return undefined;
      case Tag.Null:
        return null;
      case Tag.False:
        return false;
      case Tag.True:
        return true;
      case Tag.Int32: {
        const n = this.b.readInt32LE(this.at);
        this.at += 4;
        return n;
      }
      case Tag.Float64: {
        const n = this.b.readDoubleLE(this.at);
        this.at += 8;
        return n;
      }
      case Tag.BigInt: {
        const hex = this.text();
        return hex.startsWith('-') ? -BigInt(`0x${hex.slice(1)}`) : BigInt(`0x${hex}`);
      }
      case Tag.String:
        return this.text();
      case Tag.Bytes:
        return this.raw();
      case Tag.Buffer:
        return Buffer.from(this.raw());
      case Tag.Array: {
        const n = this.u32();
        const out = new Array<unknown>(n);
        for (let i = 0; i < n; i++) out[i] = this.value();
        return out;
      }
      case Tag.Object: {
        const n = this.u32();
        const out: Record<string, unknown> = {};
        for (let i = 0; i < n; i++) {
          const k = this.text();
          out[k] = this.value();
        }
        return out;
      }
      default:
        throw new Error(`stored value: unknown tag ${String(tag)} at byte ${this.at - 1}`);
    }
  }

  done(): boolean {
    return this.at === this.b.length;
  }
}

export function decodeValue<T>(bytes: Uint8Array): T {
  if (bytes[0] === V8_HEADER) return deserialize(bytes) as T;
  if (bytes[0] !== FORMAT) throw new Error(`stored value: unknown format ${String(bytes[0])}`);
  const r = new Reader(bytes);
  const v = r.value();
  if (!r.done()) throw new Error('stored value: trailing bytes');
  return v as T;
}
