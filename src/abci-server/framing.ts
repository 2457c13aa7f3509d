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

/**
 * Whole frames out of a byte stream, with linear work: chunks are kept as they arrive (never merged
 * per chunk), the length prefix is read across them, and each frame's bytes are copied once, into
 * the frame, when its last byte is in.
 */
export class FrameReader {
  /** Unread bytes: `chunks[0]` from `offset` on, then the other chunks whole. */
  private chunks: Uint8Array[] = [];
  private offset = 0;
  private buffered = 0;
  /** Payload length of the frame whose prefix has been read; -1 while reading a prefix. */
  private frameLength = -1;
  private copied = 0;

  constructor(private readonly maxBytes = DEFAULT_MAX_MESSAGE_BYTES) {}

  /** Bytes received and not yet returned in a frame. */
  get bufferedBytes(): number {
    return this.buffered;
  }

  /** Bytes copied into frames so far (each payload byte once): the work done, for tests. */
  get bytesCopied(): number {
    return this.copied;
  }

  /** Adds bytes; returns every whole frame now available (throws on a bad or oversized length). */
  push(chunk: Uint8Array): Uint8Array[] {
    if (chunk.length > 0) {
      this.chunks.push(chunk);
      this.buffered += chunk.length;
    }
    const frames: Uint8Array[] = [];
    for (;;) {
      if (this.frameLength < 0) {
        const prefix = this.readPrefix();
        if (prefix === undefined) return frames;
        if (prefix.length > this.maxBytes) throw new FrameTooLargeError(prefix.length, this.maxBytes);
        this.skip(prefix.size);
        this.frameLength = prefix.length;
      }
      if (this.buffered < this.frameLength) return frames;
      frames.push(this.take(this.frameLength));
      this.frameLength = -1;
    }
  }

  /** Drops everything buffered (the connection is gone). */
  clear(): void {
    this.chunks = [];
    this.offset = 0;
    this.buffered = 0;
    this.frameLength = -1;
  }

  /** The unsigned varint at the read position, without consuming it; undefined if incomplete. */
  private readPrefix(): { length: number; size: number } | undefined {
    let length = 0;
    let shift = 1;
    let size = 0;
    let at = this.offset;
    for (const c of this.chunks) {
      for (; at < c.length; at++) {
        const b = c[at]!;
        length += (b & 0x7f) * shift;
        shift *= 128;
        size++;
        if ((b & 0x80) === 0) return { length, size };
        if (size >= 10) throw new BadFrameError('invalid varint length prefix');
      }
      at = 0;
    }
    return undefined;
  }

  private skip(n: number): void {
    this.buffered -= n;
    while (n > 0) {
      const c = this.chunks[0]!;
      const left = c.length - this.offset;
      if (n < left) {
        this.offset += n;
        return;
      }
      n -= left;
      this.chunks.shift();
      this.offset = 0;
    }
  }

  /** The next `n` bytes (all buffered), copied once into a frame of their own. */
  private take(n: number): Uint8Array {
    const out = new Uint8Array(n);
    let filled = 0;
    let used = 0;
    while (filled < n) {
      const c = this.chunks[used]!;
      const part = Math.min(n - filled, c.length - this.offset);
      out.set(c.subarray(this.offset, this.offset + part), filled);
      filled += part;
      if (this.offset + part === c.length) {
        used++;
        this.offset = 0;
      } else this.offset += part;
    }
    if (used > 0) this.chunks.splice(0, used);
    this.buffered -= n;
    this.copied += n;
    return out;
  }
}
