/**
 * Event indexing and query planning shared by the tx and block indexers (CometBFT kv semantics).
 *
 * Layout: every attribute with `index: true` of an event with a type gets a key
 *   <ns> \0 <type.key> \0 <value> \0 <height> \0 … \0 <event seq> …       (value: empty)
 * so one condition is answered by a prefix scan: `<tag>\0<value>\0` for `= 'string'`, `<tag>\0`
 * (then filter each value) for ranges, numbers, times, CONTAINS and EXISTS.
 *
 * Search:
 *   plan        split the AST into reserved-key conditions (heights, hashes) and event conditions;
 *               drop `tm.event` (never indexed); derive a height range from numeric height bounds
 *   candidates  scan condition by condition, narrowest first, intersecting (id, event seq) pairs, so
 *               all conditions must hold within one event, as in v0.38
 *   re-check    the caller loads each candidate and re-runs every condition on its stored events
 *               (stale keys, numeric semantics and the same-event rule all hold by construction)
 */
import type { AbciEvent } from '../abci/types.js';
import { compileCondition, type CompiledCondition } from '../events/query/compile.js';
import type { Condition, QueryAst } from '../events/query/syntax.js';
import { parseDecimalPrefix } from '../events/query/values.js';
import { EVENT_TYPE_KEY } from '../events/types.js';
import { ReservedEventKeyError } from './errors.js';
import { escapePart, joinKey, keyPrefix, padHeight, prefixEnd, unescapePart } from './keys.js';
import { scanKeys, type LevelDb } from './level.js';

/** Inclusive height bounds; `max` may be Infinity. Empty when min > max. */
export interface HeightRange {
  min: number;
  max: number;
}

export interface SearchPlan {
  /** Conditions on reserved keys (checked against the tx's or block's own values). */
  reserved: CompiledCondition[];
  /** Conditions on event attributes. */
  events: CompiledCondition[];
  heights: HeightRange;
}

/** floor and ceil of a non-negative decimal literal, as numbers (Infinity past 2^53). */
function floorCeil(literal: string): { floor: number; ceil: number } {
  const d = parseDecimalPrefix(literal);
  if (!d) return { floor: Infinity, ceil: Infinity };
  const floor = d.int.length > 16 ? Infinity : Number(d.int || '0');
  return { floor, ceil: d.frac === '' ? floor : floor + 1 };
}

function narrowHeights(r: HeightRange, c: Condition): HeightRange {
  if (c.arg?.kind !== 'number') return r;
  const { floor, ceil } = floorCeil(c.arg.value);
  switch (c.op) {
    case '=':
      return { min: Math.max(r.min, ceil), max: Math.min(r.max, floor) };
    case '>':
      return { min: Math.max(r.min, floor + 1), max: r.max };
    case '>=':
      return { min: Math.max(r.min, ceil), max: r.max };
    case '<':
      return { min: r.min, max: Math.min(r.max, ceil - 1) };
    case '<=':
      return { min: r.min, max: Math.min(r.max, floor) };
    default:
      return r;
  }
}

export function planSearch(ast: QueryAst, reservedKeys: readonly string[], heightKey: string): SearchPlan {
  const plan: SearchPlan = { reserved: [], events: [], heights: { min: 0, max: Infinity } };
  for (const c of ast.conditions) {
    if (c.tag === EVENT_TYPE_KEY) continue;
    const cc = compileCondition(c);
    if (!reservedKeys.includes(c.tag)) plan.events.push(cc);
    else {
      plan.reserved.push(cc);
      if (c.tag === heightKey) plan.heights = narrowHeights(plan.heights, c);
    }
  }
  return plan;
}

export function isEmptyRange(r: HeightRange): boolean {
  return r.min > r.max;
}

export function inRange(r: HeightRange, height: number): boolean {
  return height >= r.min && height <= r.max;
}

/** Key bounds [gte, lt) of `<ns>\0<height>…` keys within the range. */
export function heightKeyBounds(ns: string, r: HeightRange): { gte: string; lt: string } {
  const prefix = keyPrefix(ns);
  return {
    gte: prefix + padHeight(r.min),
    lt: Number.isFinite(r.max) ? prefix + padHeight(r.max + 1) : prefixEnd(prefix),
  };
}

// ---------------------------------------------------------------------------------------------
// Indexing
// ---------------------------------------------------------------------------------------------

/**
 * Calls `fn` for every attribute to index: events with a type, attributes with a key and
 * `index: true`. `seq` is the event's position in the list. Throws before calling `fn` at all if
 * any attribute (indexed or not) uses a reserved key, so a batch is never half-built.
 */
export function forEachIndexedAttribute(
  events: readonly AbciEvent[],
  reservedKeys: readonly string[],
  fn: (tag: string, value: string, seq: number) => void,
): void {
  for (const e of events) {
    if (e.type === '') continue;
    for (const a of e.attributes) {
      if (a.key !== '' && reservedKeys.includes(`${e.type}.${a.key}`)) {
        throw new ReservedEventKeyError({ key: `${e.type}.${a.key}` });
      }
    }
  }
  events.forEach((e, seq) => {
    if (e.type === '') return;
    for (const a of e.attributes) if (a.index && a.key !== '') fn(`${e.type}.${a.key}`, a.value, seq);
  });
}

/** `<ns>\0<tag>\0<value>\0<location…>` */
export function eventKey(ns: string, tag: string, value: string, ...location: string[]): string {
  return joinKey(ns, escapePart(tag), escapePart(value), ...location);
}

/** The events as the indexer sees them: typed events, keyed attributes with `index: true`. */
export function indexedOnly(events: readonly AbciEvent[]): AbciEvent[] {
  const out: AbciEvent[] = [];
  for (const e of events) {
    if (e.type === '') continue;
    out.push({ type: e.type, attributes: e.attributes.filter((a) => a.index && a.key !== '') });
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Searching
// ---------------------------------------------------------------------------------------------

const isExact = (cc: CompiledCondition) => cc.condition.op === '=' && cc.condition.arg?.kind === 'string';

/**
 * Candidate ids satisfying every event condition within one event. `idOf` maps a key's location
 * parts (after the value: height first, event seq and any id parts after) to an id that includes
 * the event seq.
 */
export async function findCandidates(db: LevelDb, ns: string, plan: SearchPlan, idOf: (location: string[]) => string): Promise<Set<string>> {
  let acc: Set<string> | undefined;
  // Exact-value scans read only matching keys: run them first to shrink the set early.
  const ordered = [...plan.events].sort((a, b) => Number(isExact(b)) - Number(isExact(a)));
  for (const cc of ordered) {
    const exact = isExact(cc);
    const prefix = exact ? keyPrefix(ns, escapePart(cc.tag), escapePart(cc.condition.arg!.value)) : keyPrefix(ns, escapePart(cc.tag));
    const hits = new Set<string>();
    const prev = acc;
    await scanKeys(db, prefix, prefixEnd(prefix), (key) => {
      const parts = key.slice(prefix.length).split('\x00');
      const location = exact ? parts : parts.slice(1);
      if (!inRange(plan.heights, Number(location[0]))) return;
      if (!exact && !cc.match(unescapePart(parts[0]!))) return;
      const id = idOf(location);
      if (!prev || prev.has(id)) hits.add(id);
    });
    acc = hits;
    if (acc.size === 0) break;
  }
  return acc ?? new Set();
}

/** Whether one event (indexed attributes only) satisfies every condition. */
export function someEventMatches(events: readonly AbciEvent[], conds: readonly CompiledCondition[]): boolean {
  if (conds.length === 0) return true;
  return events.some(
    (e) => e.type !== '' && conds.every((cc) => e.attributes.some((a) => a.index && a.key !== '' && `${e.type}.${a.key}` === cc.tag && cc.match(a.value))),
  );
}

/** Whether the reserved conditions hold for the given reserved values (e.g. tx.height → "5"). */
export function reservedMatch(conds: readonly CompiledCondition[], values: Readonly<Record<string, string>>): boolean {
  return conds.every((cc) => {
    const v = values[cc.tag];
    return v !== undefined && cc.match(v);
  });
}
