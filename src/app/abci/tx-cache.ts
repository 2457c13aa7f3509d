/**
 * Bounded cache of decoded txs (with their recovered senders), keyed by the CometBFT tx hash.
 * CheckTx fills it; PrepareProposal, ProcessProposal and FinalizeBlock reuse the entries, so a
 * sender is recovered once per tx. Entries of a committed block and of refused txs are dropped;
 * when the cache is full the oldest entries go first. Its size is twice the default mempool's
 * (5000 txs): a decoded tx costs ~3 KB, and one a block evicts is only decoded again.
 */
import type { Common } from '@ethereumjs/common';
import { txHash } from '../../types/txs.js';
import { decodeAppTx, type DecodedTx } from '../execution/tx-decode.js';

export class DecodedTxCache {
  private readonly entries = new Map<string, DecodedTx>();
  /** The chain's bech32 prefix: Cosmos TxRaws decode as Cosmos txs (undefined: they are refused). */
  cosmosPrefix: string | undefined;

  constructor(
    readonly maxSize = 10_000,
    /** The app's sender override (devnet impersonation, src/app/execution/impersonation.ts), applied to each decoding. */
    private readonly override: () => ((d: DecodedTx) => DecodedTx) | undefined = () => undefined,
  ) {}

  get size(): number {
    return this.entries.size;
  }

  /** The cached decoding of `bytes`, or a fresh one (cached); throws TxRejectedError if undecodable. */
  decode(bytes: Uint8Array, common: Common): DecodedTx {
    const hash = txHash(bytes); // computed once per tx bytes (the mempool already did)
    const key = Buffer.from(hash.buffer, hash.byteOffset, hash.byteLength).toString('hex').toUpperCase();
    const hit = this.entries.get(key);
    const transform = this.override();
    if (hit !== undefined) {
      // A cached tx may have become an impersonated sender's since it was decoded.
      if (transform === undefined) return hit;
      const t = transform(hit);
      if (t !== hit) this.entries.set(key, t);
      return t;
    }
    const decoded = decodeAppTx(bytes, common, hash, key, this.cosmosPrefix);
    const d = transform === undefined ? decoded : transform(decoded);
    this.add(d);
    return d;
  }

  add(d: DecodedTx): void {
    if (this.entries.has(d.cometHashHex)) return;
    if (this.entries.size >= this.maxSize) {
      // Map iteration is insertion order: drop the oldest tenth at once to keep this amortised O(1).
      let drop = Math.max(1, Math.floor(this.maxSize / 10));
      for (const k of this.entries.keys()) {
        this.entries.delete(k);
        if (--drop === 0) break;
      }
    }
    this.entries.set(d.cometHashHex, d);
  }

  delete(cometHashHex: string): void {
    this.entries.delete(cometHashHex);
  }

  clear(): void {
    this.entries.clear();
  }
}
