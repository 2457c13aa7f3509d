/**
 * The block indexer behind `block_search` (CometBFT state/indexer/block/kv semantics): indexes
 * FinalizeBlock events by height; `block.height` is reserved and always searchable.
 *
 * Keys (one batch per block):
 *   bi.b \0 <height>                                       → v8(indexed events of the block)
 *   bi.e \0 <type.key> \0 <value> \0 <height> \0 <seq>        (index: true attributes)
 *
 * Search: heights from the event keys (or from the `b` keys when the query has only height
 * conditions), each re-checked against the stored events; ascending. `tm.event` is ignored.
 */
import type { AbciEvent } from '../abci/types.js';
import type { Query } from '../events/query/query.js';
import { BLOCK_HEIGHT_KEY } from '../events/types.js';
import {
  eventKey,
  findCandidates,
  forEachIndexedAttribute,
  heightKeyBounds,
  indexedOnly,
  isEmptyRange,
  planSearch,
  reservedMatch,
  someEventMatches,
} from './event-search.js';
import { joinKey, padHeight } from './keys.js';
import { asLevelDb, EMPTY_VALUE, encodeRecord, getValues, hasKey, openDb, scanKeys, writeBatch, type LevelDb, type PutOp } from './level.js';

const RESERVED = [BLOCK_HEIGHT_KEY] as const;
const BLOCK_NS = 'bi.b';
const EVENT_NS = 'bi.e';

export interface BlockIndexer {
  /** Indexes the FinalizeBlock events of one block in one atomic batch. */
  index(height: number, events: readonly AbciEvent[]): Promise<void>;
  has(height: number): Promise<boolean>;
  /** Matching heights, ascending. */
  search(query: Query): Promise<number[]>;
}

const blockKey = (height: number) => joinKey(BLOCK_NS, padHeight(height));

class KvBlockIndexer implements BlockIndexer {
  constructor(private readonly db: LevelDb) {}

  async index(height: number, events: readonly AbciEvent[]): Promise<void> {
    const h = padHeight(height);
    const puts: PutOp[] = [];
    forEachIndexedAttribute(events, RESERVED, (tag, value, seq) => {
      puts.push({ key: eventKey(EVENT_NS, tag, value, h, String(seq)), value: EMPTY_VALUE });
    });
    puts.push({ key: blockKey(height), value: encodeRecord(indexedOnly(events)) });
    await writeBatch(this.db, puts);
  }

  has(height: number): Promise<boolean> {
    return hasKey(this.db, blockKey(height));
  }

  async search(query: Query): Promise<number[]> {
    const plan = planSearch(query.ast, RESERVED, BLOCK_HEIGHT_KEY);
    if (isEmptyRange(plan.heights)) return [];
    const heights = new Set<number>();
    if (plan.events.length === 0) {
      const { gte, lt } = heightKeyBounds(BLOCK_NS, plan.heights);
      await scanKeys(this.db, gte, lt, (key) => {
        heights.add(Number(key.slice(key.lastIndexOf('\x00') + 1)));
      });
    } else {
      // location = [height, seq]; an id is height/seq so conditions meet in one event.
      const ids = await findCandidates(this.db, EVENT_NS, plan, (loc) => `${loc[0]}/${loc[1]}`);
      for (const id of ids) heights.add(Number(id.slice(0, id.indexOf('/'))));
    }

    const sorted = [...heights].sort((a, b) => a - b);
    const stored = await getValues<AbciEvent[]>(this.db, sorted.map(blockKey));
    return sorted.filter(
      (h, i) => stored[i] !== undefined && reservedMatch(plan.reserved, { [BLOCK_HEIGHT_KEY]: String(h) }) && someEventMatches(stored[i], plan.events),
    );
  }
}

export async function createBlockIndexer<V>(db: LevelDb<V>): Promise<BlockIndexer> {
  const level = asLevelDb(db);
  await openDb(level);
  return new KvBlockIndexer(level);
}
