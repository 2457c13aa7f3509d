import { describe, expect, it } from 'vitest';
import { QuerySyntaxError } from '../errors.js';
import { formatQuery, parseQuery } from './syntax.js';

function syntaxError(s: string): QuerySyntaxError {
  try {
    parseQuery(s);
  } catch (e) {
    expect(e).toBeInstanceOf(QuerySyntaxError);
    return e as QuerySyntaxError;
  }
  throw new Error(`expected ${JSON.stringify(s)} to fail`);
}

describe('parseQuery', () => {
  it('parses every operator and argument kind', () => {
    const ast = parseQuery(
      "tm.event = 'Tx' AND tx.height > 5 AND a.b >= 1.5 AND c.d < TIME 2013-05-03T14:45:00Z " +
        "AND e.f <= DATE 2017-01-01 AND g.h CONTAINS 'x y' AND i.j EXISTS AND k.l = 7",
    );
    expect(ast.conditions).toEqual([
      { tag: 'tm.event', op: '=', arg: { kind: 'string', value: 'Tx' } },
      { tag: 'tx.height', op: '>', arg: { kind: 'number', value: '5' } },
      { tag: 'a.b', op: '>=', arg: { kind: 'number', value: '1.5' } },
      { tag: 'c.d', op: '<', arg: { kind: 'time', value: '2013-05-03T14:45:00Z' } },
      { tag: 'e.f', op: '<=', arg: { kind: 'date', value: '2017-01-01' } },
      { tag: 'g.h', op: 'CONTAINS', arg: { kind: 'string', value: 'x y' } },
      { tag: 'i.j', op: 'EXISTS' },
      { tag: 'k.l', op: '=', arg: { kind: 'number', value: '7' } },
    ]);
  });

  it('needs no spaces around operators and accepts any whitespace', () => {
    expect(parseQuery("tm.event='NewBlock'").conditions).toEqual([{ tag: 'tm.event', op: '=', arg: { kind: 'string', value: 'NewBlock' } }]);
    expect(parseQuery('\t a.b>=3\nAND  c.d<4 ').conditions.map((c) => c.op)).toEqual(['>=', '<']);
  });

  it('accepts tags with digits, dashes, underscores and non-ASCII letters', () => {
    const ast = parseQuery("_x.y-z_1 EXISTS AND überweisung.empfänger = 'ß'");
    expect(ast.conditions.map((c) => c.tag)).toEqual(['_x.y-z_1', 'überweisung.empfänger']);
  });

  it('keeps string contents verbatim (no escapes, keywords inside are text)', () => {
    const ast = parseQuery('a.b = \'x AND y = "z"\'');
    expect(ast.conditions[0]!.arg).toEqual({ kind: 'string', value: 'x AND y = "z"' });
  });

  it('accepts TIME with offsets and empty strings', () => {
    const ast = parseQuery("a.t = TIME 2020-01-02T03:04:05+07:00 AND b.c = ''");
    expect(ast.conditions[0]!.arg).toEqual({ kind: 'time', value: '2020-01-02T03:04:05+07:00' });
    expect(ast.conditions[1]!.arg).toEqual({ kind: 'string', value: '' });
  });

  it('treats TIME/DATE not followed by one space as tags', () => {
    expect(parseQuery('TIME\tEXISTS AND DATE.x EXISTS').conditions.map((c) => c.tag)).toEqual(['TIME', 'DATE.x']);
    // With one space it is a literal: "TIME EXISTS" tries to read a timestamp.
    expect(syntaxError('TIME EXISTS').message).toMatch(/^invalid TIME value "" at position 0/);
    expect(syntaxError('a.b = TIME  2020-01-01T00:00:00Z').position).toBe(6);
  });

  it('reports OR with its position and what was expected', () => {
    const e = syntaxError("tm.event = 'Tx' OR tx.height > 5");
    expect(e.message).toBe('unexpected "OR" at position 16, expected AND or end of query');
    expect(e.position).toBe(16);
  });

  it('rejects missing operators, arguments and dangling AND', () => {
    expect(syntaxError('tm.event').message).toBe('unexpected end of query at position 8, expected =, <, <=, >, >=, CONTAINS or EXISTS');
    expect(syntaxError('a.b =').message).toBe('unexpected end of query at position 5, expected a string, a number, TIME or DATE');
    expect(syntaxError("a.b = 'x' AND").message).toBe('unexpected end of query at position 13, expected a tag');
    expect(syntaxError('').message).toBe('unexpected end of query at position 0, expected a tag');
  });

  it('rejects arguments of the wrong kind for the operator', () => {
    expect(syntaxError("a.b > 'x'").message).toBe("unexpected 'x' at position 6, expected a number, TIME or DATE");
    expect(syntaxError('a.b CONTAINS 5').message).toBe('unexpected "5" at position 13, expected a string');
    expect(syntaxError('a.b EXISTS 5').position).toBe(11);
  });

  it('rejects bad characters, unterminated strings and bad numbers', () => {
    expect(syntaxError('a.b != 1').message).toBe('invalid character "!" at position 4');
    expect(syntaxError('a.b = "x"').position).toBe(6);
    expect(syntaxError("a.b = 'abc").message).toBe('unterminated string starting at position 6');
    expect(syntaxError('a.b = 5.').position).toBe(6);
    expect(syntaxError('a.b = -5').message).toBe('invalid character "-" at position 6');
  });

  it('validates TIME and DATE literals and their year range', () => {
    expect(syntaxError('a.b < TIME 2013-05-03').message).toMatch(/^invalid TIME value "2013-05-03" at position 6/);
    expect(syntaxError('a.b < TIME 2013-05-03T14:45:00.5Z').message).toMatch(/^invalid TIME value/);
    expect(syntaxError('a.b < DATE 2013-02-30').message).toMatch(/^invalid DATE value "2013-02-30"/);
    expect(syntaxError('a.b < DATE 3000-01-01').message).toBe('DATE year 3000 out of range 1900-2999 at position 6');
    expect(syntaxError('a.b < TIME 1899-12-31T23:59:59Z').message).toMatch(/^TIME year 1899 out of range/);
  });

  it('keywords are case-sensitive', () => {
    expect(syntaxError("a.b = 'x' and c.d = 'y'").message).toBe('unexpected "and" at position 10, expected AND or end of query');
    expect(syntaxError('a.b exists').message).toMatch(/^unexpected "exists" at position 4/);
  });
});

describe('formatQuery', () => {
  it('prints the canonical form', () => {
    const ast = parseQuery("tm.event='Tx'   AND tx.height>=5 AND t.x < TIME 2020-01-01T00:00:00Z AND d.y = DATE 2020-01-01 AND e.z EXISTS");
    expect(formatQuery(ast)).toBe("tm.event = 'Tx' AND tx.height >= 5 AND t.x < TIME 2020-01-01T00:00:00Z AND d.y = DATE 2020-01-01 AND e.z EXISTS");
    expect(formatQuery(parseQuery(formatQuery(ast)))).toBe(formatQuery(ast));
  });
});
