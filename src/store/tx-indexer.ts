/**
 * The tx indexer behind `tx` and `tx_search` (CometBFT state/txindex/kv semantics).
 *
 * Keys (one batch per block):
 *   tx.h \0 <hash hex>                                         → v8(TxResult)
 *   tx.t \0 <height> \0 <index> \0 <hash hex>                    (tx.height, always)
 *   tx.e \0 <type.key> \0 <value> \0 <height> \0 <index> \0 <seq> \0 <hash hex>   (index: true attributes)
 *
 * Search: `tx.hash = 'X'` is answered by hash alone (other conditions are not applied, as in
 * CometBFT); otherwise candidates come from the event keys (or the height keys when the query has
 * no event conditions), every candidate is re-checked against its stored result, and results are
 * sorted by (height, index). `tm.event` conditions are ignored. Paging and order are the RPC's job.
 */
import type { Query } from '../events/query/query.js';
import { TX_HASH_KEY, TX_HEIGHT_KEY, type TxResult } from '../events/types.js';
import { toHex } from '../crypto/encoding.js';
import { txHash } from '../types/txs.js';
import { InvalidHashQueryError } from './errors.js';
import {
  eventKey,
  findCandidates,
  forEachIndexedAttribute,
  heightKeyBounds,
  isEmptyRange,
  planSearch,
  reservedMatch,
  someEventMatches,
  type SearchPlan,
} from './event-search.js';
import { joinKey, padHeight, padIndex } from './keys.js';
import { asLevelDb, EMPTY_VALUE, encodeRecord, getValue, getValues, openDb, scanKeys, writeBatch, type LevelDb, type PutOp } from './level.js';

const RESERVED = [TX_HASH_KEY, TX_HEIGHT_KEY] as const;
const HASH_NS = 'tx.h';
const HEIGHT_NS = 'tx.t';
const EVENT_NS = 'tx.e';

export interface TxSearchOptions {
  /** Return at most this many results (the first ones in (height, index) order). */
  limit?: number;
}

export interface TxIndexer {
  /** Indexes the txs of one block in one atomic batch; a later result for the same hash wins. */
  index(results: readonly TxResult[]): Promise<void>;
  get(hash: Uint8Array): Promise<TxResult | undefined>;
  search(query: Query, opts?: TxSearchOptions): Promise<TxResult[]>;
}

const hashHex = (tx: Uint8Array) => toHex(txHash(tx));
const hashKey = (hex: string) => joinKey(HASH_NS, hex);

class KvTxIndexer implements TxIndexer {
  constructor(private readonly db: LevelDb) {}

  async index(results: readonly TxResult[]): Promise<void> {
    const puts: PutOp[] = [];
    for (const r of results) {
      const hex = hashHex(r.tx);
      const h = padHeight(r.height);
      const i = padIndex(r.index);
      forEachIndexedAttribute(r.result.events, RESERVED, (tag, value, seq) => {
        puts.push({ key: eventKey(EVENT_NS, tag, value, h, i, String(seq), hex), value: EMPTY_VALUE });
      });
      puts.push({ key: joinKey(HEIGHT_NS, h, i, hex), value: EMPTY_VALUE });
      puts.push({ key: hashKey(hex), value: encodeRecord(r) });
    }
    await writeBatch(this.db, puts);
  }

  async get(hash: Uint8Array): Promise<TxResult | undefined> {
    if (hash.length === 0) return undefined;
    return getValue<TxResult>(this.db, hashKey(Buffer.from(hash).toString('hex')));
  }

  async search(query: Query, opts: TxSearchOptions = {}): Promise<TxResult[]> {
    const byHash = query.ast.conditions.find((c) => c.tag === TX_HASH_KEY && c.op === '=');
    if (byHash) {
      const hex = byHash.arg?.value ?? '';
      if (!/^(?:[0-9a-fA-F]{2})*$/.test(hex)) throw new InvalidHashQueryError({ value: hex });
      const r = await this.get(Buffer.from(hex, 'hex'));
      return r ? [r] : [];
    }

    const plan = planSearch(query.ast, RESERVED, TX_HEIGHT_KEY);
    if (isEmptyRange(plan.heights)) return [];
    const hashes = plan.events.length === 0 ? await this.hashesInHeightRange(plan) : await this.candidateHashes(plan);

    const loaded = await getValues<TxResult>(this.db, [...hashes].map(hashKey));
    const needsHash = plan.reserved.some((cc) => cc.tag === TX_HASH_KEY);
    const reserved = (r: TxResult): Record<string, string> =>
      needsHash ? { [TX_HEIGHT_KEY]: String(r.height), [TX_HASH_KEY]: hashHex(r.tx).toUpperCase() } : { [TX_HEIGHT_KEY]: String(r.height) };
    const results = loaded.filter(
      (r): r is TxResult => r !== undefined && reservedMatch(plan.reserved, reserved(r)) && someEventMatches(r.result.events, plan.events),
    );
    results.sort((a, b) => a.height - b.height || a.index - b.index);
    return opts.limit !== undefined ? results.slice(0, opts.limit) : results;
  }

  private async hashesInHeightRange(plan: SearchPlan): Promise<Set<string>> {
    const { gte, lt } = heightKeyBounds(HEIGHT_NS, plan.heights);
    const out = new Set<string>();
    await scanKeys(this.db, gte, lt, (key) => {
      out.add(key.slice(key.lastIndexOf('\x00') + 1));
    });
    return out;
  }

  private async candidateHashes(plan: SearchPlan): Promise<Set<string>> {
    // location = [height, index, seq, hash]; an id is hash/seq so conditions meet in one event.
    const ids = await findCandidates(this.db, EVENT_NS, plan, (loc) => `${loc[3]}/${loc[2]}`);
    const out = new Set<string>();
    for (const id of ids) out.add(id.slice(0, id.indexOf('/')));
    return out;
  }
}

export async function createTxIndexer<V>(db: LevelDb<V>): Promise<TxIndexer> {
  const level = asLevelDb(db);
  await openDb(level);
  return new KvTxIndexer(level);
}
