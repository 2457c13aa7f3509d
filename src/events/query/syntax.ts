/**
 * Scanner and parser of the CometBFT event query language (libs/pubsub/query/syntax), producing a
 * plain AST that the matcher (compile.ts) and the indexers' search planners both read.
 *
 * Grammar (EBNF; keywords are case-sensitive, whitespace separates tokens):
 *
 *   query      = condition { "AND" condition } EOF ;
 *   condition  = tag comparison ;
 *   comparison = "=" ( string | number | time | date )
 *              | ( "<" | "<=" | ">" | ">=" ) ( number | time | date )
 *              | "CONTAINS" string
 *              | "EXISTS" ;
 *   tag        = tag-start { letter | digit | "." | "_" | "-" } ;
 *   tag-start  = letter | "_" | non-ASCII digit ;        (an ASCII digit starts a number)
 *   string     = "'" { any character except "'" } "'" ; (no escapes)
 *   number     = digit { digit } [ "." digit { digit } ] ;
 *   time       = "TIME" " " RFC 3339 timestamp, e.g. 2013-05-03T14:45:00Z or …+07:00, year 1900–2999 ;
 *   date       = "DATE" " " yyyy-mm-dd, year 1900–2999 ;
 *
 * There is no OR, no NOT and no parentheses. Positions in errors are 0-based string offsets.
 */
import { QuerySyntaxError } from '../errors.js';
import { literalYear, parseDateInstant, parseTimeInstant } from './values.js';

export type ConditionOp = '=' | '<' | '<=' | '>' | '>=' | 'CONTAINS' | 'EXISTS';
export type ArgKind = 'string' | 'number' | 'time' | 'date';

export interface ConditionArg {
  kind: ArgKind;
  /** The literal without its decoration: string without quotes, TIME/DATE without the keyword. */
  value: string;
}

export interface Condition {
  tag: string;
  op: ConditionOp;
  arg?: ConditionArg;
}

export interface QueryAst {
  conditions: Condition[];
}

// ---------------------------------------------------------------------------------------------
// Scanner
// ---------------------------------------------------------------------------------------------

type TokenKind = 'tag' | 'and' | 'op' | 'string' | 'number' | 'time' | 'date' | 'eof';

interface Token {
  kind: TokenKind;
  /** Tag name, operator text, or literal value (as in ConditionArg.value). */
  text: string;
  pos: number;
}

const isSpace = (c: string) => /^\s$/u.test(c);
const isAsciiDigit = (c: string) => c >= '0' && c <= '9';
const isTagStart = (c: string) => c === '_' || /^[\p{L}\p{Nd}]$/u.test(c);
const isTagRune = (c: string) => c === '.' || c === '_' || c === '-' || /^[\p{L}\p{Nd}]$/u.test(c);
const isTimeRune = (c: string) => isAsciiDigit(c) || '-T:+Z'.includes(c);
const isDateRune = (c: string) => isAsciiDigit(c) || c === '-';

class Scanner {
  private i = 0;

  constructor(private readonly src: string) {}

  private peek(): string {
    const cp = this.src.codePointAt(this.i);
    return cp === undefined ? '' : String.fromCodePoint(cp);
  }

  private fail(message: string, position: number): never {
    throw new QuerySyntaxError({ message, position, query: this.src });
  }

  private takeWhile(ok: (c: string) => boolean): string {
    const start = this.i;
    for (let c = this.peek(); c !== '' && ok(c); c = this.peek()) this.i += c.length;
    return this.src.slice(start, this.i);
  }

  next(): Token {
    this.takeWhile(isSpace);
    const pos = this.i;
    const c = this.peek();
    if (c === '') return { kind: 'eof', text: '', pos };
    if (isAsciiDigit(c)) return this.number(pos);
    if (isTagStart(c)) return this.tagLike(pos);
    if (c === "'") return this.string(pos);
    if (c === '=' || c === '<' || c === '>') {
      this.i += 1;
      if (c !== '=' && this.peek() === '=') {
        this.i += 1;
        return { kind: 'op', text: `${c}=`, pos };
      }
      return { kind: 'op', text: c, pos };
    }
    return this.fail(`invalid character ${JSON.stringify(c)} at position ${pos}`, pos);
  }

  private number(pos: number): Token {
    let text = this.takeWhile(isAsciiDigit);
    if (this.peek() === '.') {
      this.i += 1;
      const frac = this.takeWhile(isAsciiDigit);
      if (frac === '') this.fail(`invalid number "${text}." at position ${pos}: digits must follow the point`, pos);
      text += `.${frac}`;
    }
    return { kind: 'number', text, pos };
  }

  private string(pos: number): Token {
    const close = this.src.indexOf("'", pos + 1);
    if (close < 0) this.fail(`unterminated string starting at position ${pos}`, pos);
    this.i = close + 1;
    return { kind: 'string', text: this.src.slice(pos + 1, close), pos };
  }

  private tagLike(pos: number): Token {
    const text = this.takeWhile(isTagRune);
    // As in CometBFT, TIME and DATE start a literal only when followed by exactly one space.
    if ((text === 'TIME' || text === 'DATE') && this.peek() === ' ') {
      this.i += 1;
      return text === 'TIME' ? this.literal(pos, 'time') : this.literal(pos, 'date');
    }
    if (text === 'AND') return { kind: 'and', text, pos };
    if (text === 'CONTAINS' || text === 'EXISTS') return { kind: 'op', text, pos };
    return { kind: 'tag', text, pos };
  }

  private literal(pos: number, kind: 'time' | 'date'): Token {
    const text = this.takeWhile(kind === 'time' ? isTimeRune : isDateRune);
    const label = kind.toUpperCase();
    const valid = kind === 'time' ? parseTimeInstant(text) : parseDateInstant(text);
    if (valid === undefined) {
      const want = kind === 'time' ? 'an RFC 3339 timestamp like 2006-01-02T15:04:05Z' : 'a date like 2006-01-02';
      this.fail(`invalid ${label} value "${text}" at position ${pos}, expected ${want}`, pos);
    }
    const year = literalYear(text);
    if (year < 1900 || year > 2999) this.fail(`${label} year ${year} out of range 1900-2999 at position ${pos}`, pos);
    return { kind, text, pos };
  }
}

// ---------------------------------------------------------------------------------------------
// Parser
// ---------------------------------------------------------------------------------------------

function describe(t: Token): string {
  switch (t.kind) {
    case 'eof':
      return 'end of query';
    case 'string':
      return `'${t.text}'`;
    case 'time':
      return `TIME ${t.text}`;
    case 'date':
      return `DATE ${t.text}`;
    default:
      return JSON.stringify(t.text);
  }
}

const ARG_KINDS: Record<string, readonly TokenKind[]> = {
  '=': ['string', 'number', 'time', 'date'],
  '<': ['number', 'time', 'date'],
  '<=': ['number', 'time', 'date'],
  '>': ['number', 'time', 'date'],
  '>=': ['number', 'time', 'date'],
  CONTAINS: ['string'],
};

const ARG_LABEL: Record<string, string> = {
  string: 'a string',
  number: 'a number',
  time: 'TIME',
  date: 'DATE',
};

function unexpected(src: string, t: Token, expected: string): never {
  throw new QuerySyntaxError({
    message: `unexpected ${describe(t)} at position ${t.pos}, expected ${expected}`,
    position: t.pos,
    query: src,
  });
}

function orList(items: string[]): string {
  return items.length === 1 ? items[0]! : `${items.slice(0, -1).join(', ')} or ${items[items.length - 1]}`;
}

function parseCondition(src: string, sc: Scanner): Condition {
  const tag = sc.next();
  if (tag.kind !== 'tag') unexpected(src, tag, 'a tag');
  const op = sc.next();
  if (op.kind !== 'op') unexpected(src, op, '=, <, <=, >, >=, CONTAINS or EXISTS');
  if (op.text === 'EXISTS') return { tag: tag.text, op: 'EXISTS' };
  const allowed = ARG_KINDS[op.text]!;
  const arg = sc.next();
  if (!allowed.includes(arg.kind)) unexpected(src, arg, orList(allowed.map((k) => ARG_LABEL[k]!)));
  return { tag: tag.text, op: op.text as ConditionOp, arg: { kind: arg.kind as ArgKind, value: arg.text } };
}

/** Parses a query; throws QuerySyntaxError with the offending position. */
export function parseQuery(s: string): QueryAst {
  const sc = new Scanner(s);
  const conditions = [parseCondition(s, sc)];
  for (let t = sc.next(); t.kind !== 'eof'; t = sc.next()) {
    if (t.kind !== 'and') unexpected(s, t, 'AND or end of query');
    conditions.push(parseCondition(s, sc));
  }
  return { conditions };
}

// ---------------------------------------------------------------------------------------------
// Printing (CometBFT's canonical form: `tag op arg` joined by " AND ")
// ---------------------------------------------------------------------------------------------

export function formatArg(a: ConditionArg): string {
  switch (a.kind) {
    case 'string':
      return `'${a.value}'`;
    case 'time':
      return `TIME ${a.value}`;
    case 'date':
      return `DATE ${a.value}`;
    default:
      return a.value;
  }
}

export function formatCondition(c: Condition): string {
  return c.arg ? `${c.tag} ${c.op} ${formatArg(c.arg)}` : `${c.tag} ${c.op}`;
}

export function formatQuery(ast: QueryAst): string {
  return ast.conditions.map(formatCondition).join(' AND ');
}
