/**
 * Turns a query AST into matchers, with CometBFT's semantics (libs/pubsub/query/query.go):
 *
 * - A query matches a flattened event map (`type.key` → values) when the map is not empty and
 *   every condition matches.
 * - A condition on tag `T.K` matches when some value of `T.K` satisfies it. As a special case, a
 *   tag equal to an event type alone (`transfer` for keys `transfer.*`) is matched against "",
 *   so `transfer EXISTS` asks whether any `transfer` event exists.
 * - `=` on a string is exact; CONTAINS is a substring test; EXISTS only needs the tag.
 * - Numbers compare by the value's numeric prefix ("8atom" is 8), exactly (see values.ts).
 * - TIME/DATE compare instants; a value that does not parse as the same kind never matches.
 */
import { InvalidConditionError } from '../errors.js';
import type { Condition, ConditionOp, QueryAst } from './syntax.js';
import { compareDecimal, parseDateInstant, parseDecimalPrefix, parseTimeInstant } from './values.js';

export type ValueMatcher = (value: string) => boolean;
export type EventsMatcher = (events: Readonly<Record<string, readonly string[]>>) => boolean;

export interface CompiledCondition {
  readonly condition: Condition;
  readonly tag: string;
  /** Whether one attribute value satisfies the condition. */
  readonly match: ValueMatcher;
}

type Ordering = (cmp: number) => boolean;

const ORDERINGS: Partial<Record<ConditionOp, Ordering>> = {
  '=': (c) => c === 0,
  '<': (c) => c < 0,
  '<=': (c) => c <= 0,
  '>': (c) => c > 0,
  '>=': (c) => c >= 0,
};

function valueMatcher(c: Condition): ValueMatcher {
  if (c.op === 'EXISTS') return () => true;
  const arg = c.arg;
  if (!arg) throw new InvalidConditionError({ tag: c.tag, op: c.op, argKind: undefined });
  const invalid = () => new InvalidConditionError({ tag: c.tag, op: c.op, argKind: arg.kind });

  if (c.op === 'CONTAINS') {
    if (arg.kind !== 'string') throw invalid();
    const needle = arg.value;
    return (v) => v.includes(needle);
  }
  const ordering = ORDERINGS[c.op];
  if (!ordering) throw invalid();

  switch (arg.kind) {
    case 'string': {
      if (c.op !== '=') throw invalid();
      const want = arg.value;
      return (v) => v === want;
    }
    case 'number': {
      const want = parseDecimalPrefix(arg.value);
      if (!want) throw invalid();
      return (v) => {
        const got = parseDecimalPrefix(v);
        return got !== undefined && ordering(compareDecimal(got, want));
      };
    }
    case 'time':
    case 'date': {
      const parse = arg.kind === 'time' ? parseTimeInstant : parseDateInstant;
      const want = parse(arg.value);
      if (want === undefined) throw invalid();
      return (v) => {
        const got = parse(v);
        return got !== undefined && ordering(got < want ? -1 : got > want ? 1 : 0);
      };
    }
    default:
      throw invalid();
  }
}

export function compileCondition(c: Condition): CompiledCondition {
  return { condition: c, tag: c.tag, match: valueMatcher(c) };
}

/** Whether some key of `events` has the event type `tag` (the part before its last dot). */
function hasEventType(events: Readonly<Record<string, readonly string[]>>, tag: string): boolean {
  const prefix = `${tag}.`;
  for (const key of Object.keys(events)) {
    if (key.startsWith(prefix) && key.indexOf('.', prefix.length) < 0) return true;
  }
  return false;
}

function conditionMatches(cc: CompiledCondition, matchesEmpty: boolean, events: Readonly<Record<string, readonly string[]>>): boolean {
  // CometBFT splits each key at its last dot into type and attribute, so a key without a dot
  // never equals a tag; only the type-only rule below can match such a tag.
  const values = cc.tag.includes('.') ? events[cc.tag] : undefined;
  if (values) {
    for (const v of values) if (cc.match(v)) return true;
  }
  // The type-only special case can only succeed when "" itself satisfies the condition.
  return matchesEmpty && hasEventType(events, cc.tag);
}

function hasAnyKey(events: object): boolean {
  for (const key in events) if (Object.hasOwn(events, key)) return true;
  return false;
}

export function compileQuery(ast: QueryAst): EventsMatcher {
  const conds = ast.conditions.map(compileCondition);
  const empties = conds.map((cc) => cc.match(''));
  return (events) => {
    for (let i = 0; i < conds.length; i++) {
      if (!conditionMatches(conds[i]!, empties[i]!, events)) return false;
    }
    return hasAnyKey(events); // CometBFT: an empty event map never matches
  };
}
