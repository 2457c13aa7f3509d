/**
 * The empty segments of a chain, as the stores see them: which segment holds a height, which
 * height has a hash. Each segment is one entry of the block store's sublevel (key
 * `bs.segment\0<from>`), written by the block store together with its height (segment-stores.ts),
 * so a node on disk restarts with its segments and a snapshot, a revert or a state dump carries
 * them like any other entry. `reload()` re-reads them after the db was rewritten underneath.
 */
import { LegacyRangesError } from '../errors.js';
import { joinKey, padHeight } from '../keys.js';
import { asLevelDb, decodeValue, encodeValue, scanEntries, scanKeys, type LevelDb, type PutOp } from '../level.js';
import type { EmptySegment, SegmentReader } from './empty-segment.js';

const SEGMENT_NS = 'bs.segment';

/** Where the layout before empty segments kept its ranges: sublevel `devnet`, keys `range\0<from>`. */
export const LEGACY_RANGE_SUBLEVEL = 'devnet';
const LEGACY_RANGE_NS = 'range';

/** Refuses a database that still holds ranges of the earlier layout (its blocks would be missing). */
export async function refuseLegacyRanges<V>(legacy: LevelDb<V>): Promise<void> {
  const level = asLevelDb(legacy);
  if (level.status !== 'open') await level.open();
  let found = false;
  await scanKeys(level, `${LEGACY_RANGE_NS}\x00`, `${LEGACY_RANGE_NS}\x01`, () => {
    found = true;
    return false;
  });
  if (found) throw new LegacyRangesError();
}

export class SegmentRegistry implements SegmentReader {
  private segments: EmptySegment[] = [];

  private constructor(private readonly db: LevelDb) {}

  static async open<V>(db: LevelDb<V>): Promise<SegmentRegistry> {
    const level = asLevelDb(db);
    if (level.status !== 'open') await level.open();
    const r = new SegmentRegistry(level);
    await r.reload();
    return r;
  }

  get isEmpty(): boolean {
    return this.segments.length === 0;
  }

  all(): readonly EmptySegment[] {
    return this.segments;
  }

  last(): EmptySegment | undefined {
    return this.segments.at(-1);
  }

  async reload(): Promise<void> {
    const segments: EmptySegment[] = [];
    await scanEntries(this.db, `${SEGMENT_NS}\x00`, `${SEGMENT_NS}\x01`, (_k, v) => {
      segments.push(decodeValue<EmptySegment>(v));
    });
    this.segments = segments.sort((a, b) => a.from - b.from);
  }

  /** The db write that records `segment` (the block store writes it with its new height). */
  static entry(segment: EmptySegment): PutOp {
    return { key: joinKey(SEGMENT_NS, padHeight(segment.from)), value: encodeValue(segment) };
  }

  /** Takes a segment just written (`entry`) into the index. */
  remember(segment: EmptySegment): void {
    this.segments.push(segment);
    this.segments.sort((a, b) => a.from - b.from);
  }

  /** The segment holding `height`, if any (segments never overlap). */
  find(height: number): EmptySegment | undefined {
    const rs = this.segments;
    if (rs.length === 0) return undefined;
    // The newest segment is the one asked about most.
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

  /** The segment that ends at `height` (its last block's commit is then the seen commit). */
  endingAt(height: number): EmptySegment | undefined {
    const r = this.find(height);
    return r?.to === height ? r : undefined;
  }

  /**
   * The segment height whose block has `hash`. The segments' hash columns are searched in place
   * (a native byte search, newest segment first), so no per-block index is kept in memory.
   */
  heightOfHash(hash: Uint8Array): number | undefined {
    if (hash.length !== 32) return undefined;
    const needle = Buffer.from(hash.buffer, hash.byteOffset, hash.byteLength);
    for (let k = this.segments.length - 1; k >= 0; k--) {
      const r = this.segments[k]!;
      const column = Buffer.from(r.hashes.buffer, r.hashes.byteOffset, Math.min(r.hashes.byteLength, (r.to - r.from + 1) * 32));
      // A match must start on a 32-byte boundary (one block's hash, not the end of one and the
      // start of the next): after one that does not, the search goes on at the next boundary.
      for (let at = column.indexOf(needle); at >= 0; at = column.indexOf(needle, at - (at % 32) + 32)) {
        if (at % 32 === 0) return r.from + at / 32;
      }
    }
    return undefined;
  }
}
