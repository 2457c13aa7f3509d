/**
 * The SVM chain's history: the tx records (newest `maxRecords`), the blocks of closed slots
 * (blockhash, time, their txs in order; newest `maxBlocks`) and an address → records index, for
 * getTransaction, getBlock(s) and getSignaturesForAddress. A block is served only while all of its
 * txs are kept: once a record is evicted, its slot and every older one count as cleaned up.
 */
import type { TxErrorJson } from './tx-errors.js';

export interface SvmTxRecord {
  signature: string;
  slot: bigint;
  blockTime: bigint;
  /** Signed wire bytes; empty for an airdrop (a credit without a tx). */
  wire: Uint8Array;
  fee: bigint;
  accountKeys: string[];
  preBalances: bigint[];
  postBalances: bigint[];
  logs: string[];
  computeUnits: bigint;
  err: TxErrorJson | null;
  /** The accounts whose lamports, data, owner or executable flag the tx changed. */
  changed: string[];
}

export interface SvmBlock {
  slot: bigint;
  blockhash: string;
  timeMs: number;
  blockHeight: bigint;
}

interface Indexed {
  rec: SvmTxRecord;
  seq: number;
}

export const DEFAULT_MAX_RECORDS = 100_000;
export const DEFAULT_MAX_BLOCKS = 100_000;

export class SvmHistory {
  private readonly records = new Map<string, Indexed>();
  private readonly blocks = new Map<bigint, SvmBlock>();
  /** slot → its txs (with wire bytes), in execution order. */
  private readonly slotTxs = new Map<bigint, SvmTxRecord[]>();
  /** address → its records, oldest first (ascending seq). */
  private readonly byAddress = new Map<string, Indexed[]>();
  private seq = 0;
  /** Slots at or below this lost records to eviction. */
  private evictedThrough = -1n;
  /**
   * Where eviction reads the oldest block and record: live iterators kept across calls. A fresh
   * `keys().next()` steps over every entry deleted since the map last compacted, O(n) a call once
   * the history is full (≈ 40 µs a slot at 100 000 blocks; 10 s to close a day's idle slots).
   */
  private blockCursor: Iterator<bigint> = this.blocks.keys();
  private recordCursor: Iterator<[string, Indexed]> = this.records.entries();

  constructor(
    private readonly maxRecords = DEFAULT_MAX_RECORDS,
    private readonly maxBlocks = DEFAULT_MAX_BLOCKS,
  ) {}

  add(rec: SvmTxRecord): void {
    const entry = { rec, seq: ++this.seq };
    this.records.set(rec.signature, entry);
    if (rec.wire.length > 0) {
      let list = this.slotTxs.get(rec.slot);
      if (!list) this.slotTxs.set(rec.slot, (list = []));
      list.push(rec);
      for (const k of new Set(rec.accountKeys)) {
        let l = this.byAddress.get(k);
        if (!l) this.byAddress.set(k, (l = []));
        l.push(entry);
      }
    }
    if (this.records.size > this.maxRecords) this.evictOldest();
  }

  get(signature: string): SvmTxRecord | undefined {
    return this.records.get(signature)?.rec;
  }

  get size(): number {
    return this.records.size;
  }

  /** How many blocks are kept (`maxBlocks`). */
  get blockLimit(): number {
    return this.maxBlocks;
  }

  /** All kept records, oldest first (what a snapshot saves). */
  *all(): IterableIterator<SvmTxRecord> {
    for (const e of this.records.values()) yield e.rec;
  }

  txCount(slot: bigint): number {
    return this.slotTxs.get(slot)?.length ?? 0;
  }

  /** Records a closed slot's block. */
  closeBlock(b: SvmBlock): void {
    this.blocks.set(b.slot, b);
    while (this.blocks.size > this.maxBlocks) {
      let next = this.blockCursor.next();
      // A live iterator that ran off the end stays done: start a new one.
      if (next.done) next = (this.blockCursor = this.blocks.keys()).next();
      const oldest = next.value as bigint;
      this.blocks.delete(oldest);
      this.slotTxs.delete(oldest);
    }
  }

  *allBlocks(): IterableIterator<SvmBlock> {
    yield* this.blocks.values();
  }

  /** The oldest slot whose block is complete here, or undefined when none is kept. */
  firstAvailableBlock(): bigint | undefined {
    for (const s of this.blocks.keys()) if (s > this.evictedThrough) return s;
    return undefined;
  }

  block(slot: bigint): { block: SvmBlock; parent: SvmBlock | undefined; txs: SvmTxRecord[] } | undefined {
    const first = this.firstAvailableBlock();
    const block = this.blocks.get(slot);
    if (!block || first === undefined || slot < first) return undefined;
    return { block, parent: this.blocks.get(slot - 1n), txs: this.slotTxs.get(slot) ?? [] };
  }

  /**
   * The records naming `address`, newest first: strictly older than `before`, stopping at
   * `until` (exclusive), at most `limit`, none in a slot above `maxSlot`.
   */
  signaturesFor(address: string, o: { before?: string; until?: string; limit: number; maxSlot: bigint }): SvmTxRecord[] {
    const list = this.byAddress.get(address) ?? [];
    let end = list.length;
    if (o.before !== undefined) {
      const b = this.records.get(o.before);
      if (!b) return [];
      end = lowerBound(list, b.seq);
    }
    const out: SvmTxRecord[] = [];
    for (let i = end - 1; i >= 0 && out.length < o.limit; i--) {
      const r = list[i]!.rec;
      if (r.signature === o.until) break;
      if (r.slot <= o.maxSlot) out.push(r);
    }
    return out;
  }

  private evictOldest(): void {
    let next = this.recordCursor.next();
    if (next.done) next = (this.recordCursor = this.records.entries()).next();
    const [sig, e] = next.value as [string, Indexed];
    this.records.delete(sig);
    if (e.rec.slot > this.evictedThrough) this.evictedThrough = e.rec.slot;
    // That slot's block is incomplete from now on: it is served as cleaned up.
    this.slotTxs.delete(e.rec.slot);
    for (const k of new Set(e.rec.accountKeys)) {
      const l = this.byAddress.get(k);
      if (l?.[0] === e) l.shift();
      if (l?.length === 0) this.byAddress.delete(k);
    }
  }
}

/** First index whose seq is ≥ `seq`. */
function lowerBound(list: Indexed[], seq: number): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (list[mid]!.seq < seq) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
