/**
 * The ranges of empty blocks mined at once, as the stores see them: which range holds a height,
 * which height has a hash. One db entry per range (key `range\0<from>`, v8), so a node on disk
 * restarts with its ranges and a snapshot, a revert or a state dump carries them like any other
 * entry. `reload()` re-reads them after the db was rewritten underneath (revert, loadState).
 */
import { joinKey, padHeight } from '../../store/keys.js';
import { asLevelDb, decodeValue, encodeValue, scanEntries, writeBatch, type LevelDb } from '../../store/level.js';
import type { EmptyRange } from './empty-range.js';

const RANGE_NS = 'range';

export class RangeRegistry {
  private ranges: EmptyRange[] = [];
  private readonly byHash = new Map<EmptyRange, Map<string, number>>();

  private constructor(private readonly db: LevelDb) {}

  static async open<V>(db: LevelDb<V>): Promise<RangeRegistry> {
    const level = asLevelDb(db);
    if (level.status !== 'open') await level.open();
    const r = new RangeRegistry(level);
    await r.reload();
    return r;
  }

  get isEmpty(): boolean {
    return this.ranges.length === 0;
  }

  all(): readonly EmptyRange[] {
    return this.ranges;
  }

  async reload(): Promise<void> {
    const ranges: EmptyRange[] = [];
    await scanEntries(this.db, `${RANGE_NS}\x00`, `${RANGE_NS}\x01`, (_k, v) => {
      ranges.push(decodeValue<EmptyRange>(v));
    });
    this.ranges = ranges.sort((a, b) => a.from - b.from);
    this.byHash.clear();
  }

  async add(range: EmptyRange): Promise<void> {
    await writeBatch(this.db, [{ key: joinKey(RANGE_NS, padHeight(range.from)), value: encodeValue(range) }]);
    this.ranges.push(range);
    this.ranges.sort((a, b) => a.from - b.from);
  }

  /** The range holding `height`, if any (ranges never overlap). */
  find(height: number): EmptyRange | undefined {
    const rs = this.ranges;
    if (rs.length === 0) return undefined;
    // The newest range is the one asked about most.
    const last = rs[rs.length - 1]!;
    if (height >= last.from) return height <= last.to ? last : undefined;
    let lo = 0;
    let hi = rs.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const r = rs[mid]!;
      if (height < r.from) hi = mid - 1;
      else if (height > r.to) lo = mid + 1;
      else return r;
    }
    return undefined;
  }

  /** The range that ends at `height` (its last block's commit is then the seen commit). */
  endingAt(height: number): EmptyRange | undefined {
    const r = this.find(height);
    return r?.to === height ? r : undefined;
  }

  /** The range that starts right after `height` (it holds the canonical commit of `height`). */
  startingAfter(height: number): EmptyRange | undefined {
    const r = this.find(height + 1);
    return r?.from === height + 1 ? r : undefined;
  }

  heightOfHash(hash: Uint8Array): number | undefined {
    if (hash.length !== 32 || this.ranges.length === 0) return undefined;
    const key = Buffer.from(hash.buffer, hash.byteOffset, hash.byteLength).toString('hex');
    for (const r of this.ranges) {
      let index = this.byHash.get(r);
      if (index === undefined) {
        index = new Map();
        const hex = Buffer.from(r.hashes.buffer, r.hashes.byteOffset, r.hashes.byteLength).toString('hex');
        for (let i = 0; i <= r.to - r.from; i++) index.set(hex.slice(i * 64, i * 64 + 64), r.from + i);
        this.byHash.set(r, index);
      }
      const h = index.get(key);
      if (h !== undefined) return h;
    }
    return undefined;
  }
}
