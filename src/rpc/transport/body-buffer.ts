/**
 * A request body gathered from its socket chunks into one buffer as they arrive.
 *
 * Keeping every 64 KiB chunk alive until the end (and then concatenating) leaves a large body's
 * chunks spread over the allocator's heap; freed, that memory stays with the process (glibc keeps
 * it for reuse), so a few big bodies raised RSS for good. Copying each chunk into one buffer sized
 * from Content-Length (or grown by doubling) lets each chunk go at once. A body that arrives in one
 * chunk, the usual JSON-RPC call, is kept as it is, without a copy.
 */
export class BodyBuffer {
  private single: Buffer | undefined;
  private buf: Buffer | undefined;
  private length = 0;

  /** `declared`: the request's Content-Length when it gave one (already checked against the limit). */
  constructor(private readonly declared: number | undefined) {}

  get size(): number {
    return this.length;
  }

  push(chunk: Buffer): void {
    if (this.length === 0 && this.buf === undefined) {
      this.single = chunk;
      this.length = chunk.length;
      return;
    }
    const need = this.length + chunk.length;
    if (this.buf === undefined || need > this.buf.length) this.grow(need);
    chunk.copy(this.buf!, this.length);
    this.length = need;
  }

  /** The whole body (a view, not a copy). */
  take(): Buffer {
    if (this.buf !== undefined) return this.buf.subarray(0, this.length);
    return this.single ?? Buffer.alloc(0);
  }

  /** Drops what was gathered (a body over the limit: the rest is read and discarded). */
  clear(): void {
    this.single = undefined;
    this.buf = undefined;
    this.length = 0;
  }

  private grow(need: number): void {
    const size = this.declared !== undefined && this.declared >= need ? this.declared : Math.max(need, (this.buf?.length ?? 0) * 2, 64 * 1024);
    const next = Buffer.allocUnsafeSlow(size);
    if (this.buf !== undefined) this.buf.copy(next, 0, 0, this.length);
    else if (this.single !== undefined) this.single.copy(next, 0);
    this.single = undefined;
    this.buf = next;
  }
}
