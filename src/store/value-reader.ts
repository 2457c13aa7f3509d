/**
 * Readers of the stored values' compact encoding (value-codec.ts): format 2, which the writer
 * writes, and format 1, which stores written before it hold.
 */
import { FORMAT_1, Tag } from './value-tags.js';

abstract class Reader {
  protected at = 1;
  protected readonly b: Buffer;

  constructor(bytes: Uint8Array) {
    this.b = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  /** A length or a count. */
  protected abstract len(): number;
  protected abstract int32(): number;
  protected abstract object(): Record<string, unknown>;
  /** A Hex or Hex0x string (format 2 only). */
  protected abstract hex(tag: Tag): string;

  protected unknownTag(tag: Tag): Error {
    return new Error(`stored value: unknown tag ${String(tag)} at byte ${this.at - 1}`);
  }

  protected text(): string {
    const n = this.len();
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

  protected raw(): Uint8Array {
    const n = this.len();
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
      case Tag.Int32:
        return this.int32();
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
        const n = this.len();
        const out = new Array<unknown>(n);
        for (let i = 0; i < n; i++) out[i] = this.value();
        return out;
      }
      case Tag.Object:
        return this.object();
      case Tag.Hex:
      case Tag.Hex0x:
        return this.hex(tag);
      default:
        throw this.unknownTag(tag);
    }
  }

  done(): boolean {
    return this.at === this.b.length;
  }
}

class ReaderV1 extends Reader {
  protected len(): number {
    const b = this.b;
    const at = this.at;
    this.at += 4;
    return (b[at]! | (b[at + 1]! << 8) | (b[at + 2]! << 16)) + b[at + 3]! * 0x1000000;
  }

  protected int32(): number {
    const n = this.b.readInt32LE(this.at);
    this.at += 4;
    return n;
  }

  protected object(): Record<string, unknown> {
    const n = this.len();
    const out: Record<string, unknown> = {};
    for (let i = 0; i < n; i++) {
      const k = this.text();
      out[k] = this.value();
    }
    return out;
  }

  protected hex(tag: Tag): string {
    throw this.unknownTag(tag);
  }
}

class ReaderV2 extends Reader {
  /** The key lists this value defined, in order (a reference n is the n-th, from 1). */
  private readonly shapes: string[][] = [];

  protected len(): number {
    const b = this.b;
    let n = 0;
    let scale = 1;
    for (;;) {
      const byte = b[this.at++];
      if (byte === undefined) throw new Error('stored value: truncated');
      n += (byte & 0x7f) * scale;
      if (byte < 0x80) return n;
      scale *= 128;
    }
  }

  protected int32(): number {
    const z = this.len();
    return z % 2 === 0 ? z / 2 : -(z + 1) / 2;
  }

  protected object(): Record<string, unknown> {
    const ref = this.len();
    let keys: string[];
    if (ref === 0) {
      const n = this.len();
      keys = new Array<string>(n);
      for (let i = 0; i < n; i++) keys[i] = this.text();
      this.shapes.push(keys);
    } else {
      const known = this.shapes[ref - 1];
      if (known === undefined) throw new Error(`stored value: unknown key list ${ref} at byte ${this.at}`);
      keys = known;
    }
    const out: Record<string, unknown> = {};
    for (const k of keys) out[k] = this.value();
    return out;
  }

  protected hex(tag: Tag): string {
    const n = this.len();
    const hex = this.b.toString('hex', this.at, this.at + n);
    this.at += n;
    return tag === Tag.Hex0x ? `0x${hex}` : hex;
  }
}

/** The value in `bytes` (format 1 or 2: its first byte). */
export function readValue(bytes: Uint8Array): unknown {
  const r = bytes[0] === FORMAT_1 ? new ReaderV1(bytes) : new ReaderV2(bytes);
  const v = r.value();
  if (!r.done()) throw new Error('stored value: trailing bytes');
  return v;
}
