import { afterEach, describe, expect, it } from 'vitest';
import { BadFrameError, encodeFrame, FrameReader, FrameTooLargeError } from './framing.js';

const payload = (n: number, seed = 0): Uint8Array => Uint8Array.from({ length: n }, (_, i) => (i * 31 + seed) & 0xff);

function chunked(bytes: Uint8Array, size: number): Uint8Array[] {
  const out: Uint8Array[] = [];
  for (let i = 0; i < bytes.length; i += size) out.push(bytes.subarray(i, i + size));
  return out;
}

/** Counts the bytes every Uint8Array#set copies while it is installed: the reader's copying work. */
function countCopies(): { readonly bytes: number; restore(): void } {
  const original = Uint8Array.prototype.set;
  let bytes = 0;
  Uint8Array.prototype.set = function (this: Uint8Array, src: ArrayLike<number>, offset?: number) {
    bytes += src.length;
    return original.call(this, src, offset);
  } as typeof original;
  return {
    get bytes() {
      return bytes;
    },
    restore: () => {
      Uint8Array.prototype.set = original;
    },
  };
}

let restore: (() => void) | undefined;
afterEach(() => {
  restore?.();
  restore = undefined;
});

describe('FrameReader', () => {
  it('reads a large frame arriving in many small chunks with linear work', () => {
    const body = payload(1 << 20);
    const wire = encodeFrame(body);
    const reader = new FrameReader();
    const copies = countCopies();
    restore = copies.restore;
    const frames: Uint8Array[] = [];
    for (const c of chunked(wire, 1024)) frames.push(...reader.push(c));
    copies.restore();
    expect(frames).toHaveLength(1);
    expect(Buffer.from(frames[0]!).equals(Buffer.from(body))).toBe(true);
    // Each payload byte is copied once (re-merging the buffer per chunk copies ~n²/2048 bytes here).
    expect(copies.bytes).toBe(body.length);
    expect(reader.bytesCopied).toBe(body.length);
    expect(reader.bufferedBytes).toBe(0);
  });

  it('reads a frame sent one byte at a time, prefix included', () => {
    const body = payload(70_000, 7);
    const reader = new FrameReader();
    const frames: Uint8Array[] = [];
    for (const c of chunked(encodeFrame(body), 1)) frames.push(...reader.push(c));
    expect(frames).toHaveLength(1);
    expect(Buffer.from(frames[0]!).equals(Buffer.from(body))).toBe(true);
    expect(reader.bytesCopied).toBe(body.length);
  });

  it('splits many frames, empty ones too, across arbitrary chunk boundaries', () => {
    const bodies = [payload(0), payload(1), payload(127), payload(128), payload(300, 3), payload(0), payload(20_000, 5)];
    const wire = Buffer.concat(bodies.map((b) => encodeFrame(b)));
    for (const size of [1, 2, 3, 5, 64, 129, wire.length]) {
      const reader = new FrameReader();
      const frames: Uint8Array[] = [];
      for (const c of chunked(wire, size)) frames.push(...reader.push(c));
      expect(frames.map((f) => Buffer.from(f).toString('hex'))).toEqual(bodies.map((b) => Buffer.from(b).toString('hex')));
      expect(reader.bufferedBytes).toBe(0);
    }
  });

  it('takes a frame of exactly the limit, and refuses one byte more from its length prefix alone', () => {
    const reader = new FrameReader(1000);
    expect(reader.push(encodeFrame(payload(1000)))).toHaveLength(1);
    const over = encodeFrame(payload(1001));
    const err = (() => {
      try {
        reader.push(over.subarray(0, 2)); // the prefix only: nothing of the payload is buffered
      } catch (e) {
        return e;
      }
    })();
    expect(err).toBeInstanceOf(FrameTooLargeError);
    expect((err as Error).message).toBe('ABCI message of 1001 bytes is over the limit of 1000 bytes');
  });

  it('refuses a length prefix longer than 10 bytes', () => {
    expect(() => new FrameReader().push(new Uint8Array(10).fill(0x80))).toThrow(BadFrameError);
  });

  it('clear() drops what a partial frame buffered', () => {
    const reader = new FrameReader();
    expect(reader.push(encodeFrame(payload(5000)).subarray(0, 3000))).toEqual([]);
    expect(reader.bufferedBytes).toBe(3000 - 2);
    reader.clear();
    expect(reader.bufferedBytes).toBe(0);
    expect(reader.push(encodeFrame(payload(3)))).toHaveLength(1);
  });
});
