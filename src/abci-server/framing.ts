/**
 * CometBFT v0.38's ABCI socket framing (libs/protoio): each message is its protobuf bytes behind an
 * unsigned varint length. `FrameReader` turns a byte stream into whole frames and refuses a length
 * above the limit before buffering it.
 */

/** CometBFT's default cap on one ABCI message (abci/types/messages.go: 100 MiB). */
export const DEFAULT_MAX_MESSAGE_BYTES = 104_857_600;

export function encodeFrame(payload: Uint8Array): Uint8Array {
  const head: number[] = [];
  let n = payload.length;
  while (n >= 0x80) {
    head.push((n & 0x7f) | 0x80);
    n = Math.floor(n / 128);
  }
  head.push(n);
  const out = new Uint8Array(head.length + payload.length);
  out.set(head, 0);
  out.set(payload, head.length);
  return out;
}

export class FrameTooLargeError extends Error {
  override name = 'FrameTooLargeError';
  constructor(
    readonly length: number,
    readonly max: number,
  ) {
    super(`ABCI message of ${length} bytes is over the limit of ${max} bytes`);
  }
}

export class BadFrameError extends Error {
  override name = 'BadFrameError';
}

export class FrameReader {
  private buf = new Uint8Array(0);

  constructor(private readonly maxBytes = DEFAULT_MAX_MESSAGE_BYTES) {}

  /** Adds bytes; returns every whole frame now available (throws on a bad or oversized length). */
  push(chunk: Uint8Array): Uint8Array[] {
    const merged = new Uint8Array(this.buf.length + chunk.length);
    merged.set(this.buf, 0);
    merged.set(chunk, this.buf.length);
    this.buf = merged;
    const frames: Uint8Array[] = [];
    for (;;) {
      let len = 0;
      let shift = 1;
      let i = 0;
      let complete = false;
      for (; i < this.buf.length && i < 10; i++) {
        const b = this.buf[i]!;
        len += (b & 0x7f) * shift;
        shift *= 128;
        if ((b & 0x80) === 0) {
          complete = true;
          i++;
          break;
        }
      }
      if (!complete) {
        if (this.buf.length >= 10) throw new BadFrameError('invalid varint length prefix');
        return frames;
      }
      if (len > this.maxBytes) throw new FrameTooLargeError(len, this.maxBytes);
      if (this.buf.length < i + len) return frames;
      frames.push(this.buf.slice(i, i + len));
      this.buf = this.buf.slice(i + len);
    }
  }
}
