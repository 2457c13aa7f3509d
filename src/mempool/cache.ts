/**
 * The seen-tx cache: an LRU set of tx keys (hex of the tx's sha256), as CometBFT's LRUTxCache.
 * It stops a tx that was just checked, admitted or committed from reaching the app again.
 */

export interface TxCache {
  /** Adds `key` (or refreshes it). Returns false when it was already there. */
  push(key: string): boolean;
  remove(key: string): void;
  has(key: string): boolean;
  reset(): void;
  readonly size: number;
}

/** A Map keeps insertion order, so its first key is always the least recently pushed. */
export class LruTxCache implements TxCache {
  private readonly keys = new Map<string, true>();

  constructor(private readonly capacity: number) {
    if (!Number.isInteger(capacity) || capacity <= 0) {
      throw new RangeError(`cache capacity must be a positive integer, got ${capacity}`);
    }
  }

  push(key: string): boolean {
    if (this.keys.has(key)) {
      // Refresh recency, as CometBFT moves a re-seen tx to the front.
      this.keys.delete(key);
      this.keys.set(key, true);
      return false;
    }
    if (this.keys.size >= this.capacity) {
      const oldest = this.keys.keys().next();
      if (!oldest.done) this.keys.delete(oldest.value);
    }
    this.keys.set(key, true);
    return true;
  }

  remove(key: string): void {
    this.keys.delete(key);
  }

  has(key: string): boolean {
    return this.keys.has(key);
  }

  reset(): void {
    this.keys.clear();
  }

  get size(): number {
    return this.keys.size;
  }
}

/** `cache_size = 0`: every push succeeds, nothing is remembered. */
export class NopTxCache implements TxCache {
  push(): boolean {
    return true;
  }
  remove(): void {}
  has(): boolean {
    return false;
  }
  reset(): void {}
  get size(): number {
    return 0;
  }
}

export function createTxCache(capacity: number): TxCache {
  return capacity > 0 ? new LruTxCache(capacity) : new NopTxCache();
}
