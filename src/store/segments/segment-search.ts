/**
 * block_search over empty segments. A segment keeps a few distinct FinalizeBlock responses (its
 * first heights; every later height repeats the last one), so the event conditions are matched once
 * per response and a match adds its whole run of heights, clipped to the query's height bounds.
 * Only a condition on `block.height` the bounds do not express (CONTAINS, a string or a time)
 * is checked height by height, inside the matching runs.
 */
import type { CompiledCondition } from '../../events/query/compile.js';
import { BLOCK_HEIGHT_KEY } from '../../events/types.js';
import { indexedOnly, reservedMatch, someEventMatches, type SearchPlan } from '../event-search.js';
import type { EmptySegment } from './empty-segment.js';

const BOUND_OPS: ReadonlySet<string> = new Set(['=', '<', '<=', '>', '>=']);

/** Whether `planSearch`'s height bounds already say all the condition says (a number comparison, or EXISTS). */
function expressedByBounds(cc: CompiledCondition): boolean {
  const c = cc.condition;
  if (c.tag !== BLOCK_HEIGHT_KEY) return false;
  return c.op === 'EXISTS' || (BOUND_OPS.has(c.op) && c.arg?.kind === 'number');
}

/** The segment heights matching `plan`, ascending (`segments` in height order, not overlapping). */
export function searchSegments(segments: readonly EmptySegment[], plan: SearchPlan): number[] {
  const perHeight = plan.reserved.filter((cc) => !expressedByBounds(cc));
  const out: number[] = [];
  for (const s of segments) {
    const lo = Math.max(s.from, plan.heights.min);
    const hi = Math.min(s.to, plan.heights.max);
    const last = Math.min(s.results.length, s.to - s.from + 1) - 1;
    if (lo > hi || last < 0) continue;
    // Response i is height from + i's; the last one is also every later height's.
    for (let i = Math.min(lo - s.from, last); i <= last && s.from + i <= hi; i++) {
      const runFrom = Math.max(lo, s.from + i);
      const runTo = i === last ? hi : Math.min(hi, s.from + i);
      if (plan.events.length > 0 && !someEventMatches(indexedOnly(s.results[i]!.events), plan.events)) continue;
      for (let h = runFrom; h <= runTo; h++) {
        if (perHeight.length === 0 || reservedMatch(perHeight, { [BLOCK_HEIGHT_KEY]: String(h) })) out.push(h);
      }
    }
  }
  return out;
}

/** `a` and `b` ascending → their union, ascending, without repeats (no sort). */
export function mergeAscending(a: readonly number[], b: readonly number[]): number[] {
  if (a.length === 0) return b.slice();
  if (b.length === 0) return a.slice();
  const out: number[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    const next = j >= b.length || (i < a.length && a[i]! <= b[j]!) ? a[i++]! : b[j++]!;
    if (out.length === 0 || out[out.length - 1] !== next) out.push(next);
  }
  return out;
}
