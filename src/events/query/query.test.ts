import { describe, expect, it } from 'vitest';
import { InvalidConditionError } from '../errors.js';
import { compileCondition } from './compile.js';
import { Query } from './query.js';
import { compareDecimal, parseDateInstant, parseDecimalPrefix, parseTimeInstant } from './values.js';

const m = (q: string, events: Record<string, string[]>) => Query.parse(q).matches(events);

describe('Query.matches', () => {
  const tx = { 'tm.event': ['Tx'], 'tx.hash': ['ABCD'], 'tx.height': ['7'], 'transfer.sender': ['alice', 'xavier'] };

  it('requires every condition (AND)', () => {
    expect(m("tm.event = 'Tx' AND tx.height > 5", tx)).toBe(true);
    expect(m("tm.event = 'Tx' AND tx.height > 7", tx)).toBe(false);
    expect(m("tm.event = 'NewBlock' AND tx.height > 5", tx)).toBe(false);
  });

  it('compares strings exactly and CONTAINS as substring over any value', () => {
    expect(m("transfer.sender = 'alice'", tx)).toBe(true);
    expect(m("transfer.sender = 'ali'", tx)).toBe(false);
    expect(m("transfer.sender CONTAINS 'x'", tx)).toBe(true);
    expect(m("transfer.sender CONTAINS 'zz'", tx)).toBe(false);
    expect(m("transfer.sender CONTAINS ''", tx)).toBe(true);
  });

  it('EXISTS asks for the tag, or for the event type alone', () => {
    expect(m('transfer.sender EXISTS', tx)).toBe(true);
    expect(m('transfer.recipient EXISTS', tx)).toBe(false);
    expect(m('transfer EXISTS', tx)).toBe(true);
    expect(m('trans EXISTS', tx)).toBe(false);
    // A type-only tag is compared with "": `=` with a non-empty string fails.
    expect(m("transfer = 'alice'", tx)).toBe(false);
    expect(m("transfer = ''", tx)).toBe(true);
  });

  it('only matches keys of the form type.key, as CometBFT splits them', () => {
    expect(m("foo = 'x'", { foo: ['x'] })).toBe(false);
    expect(m('foo EXISTS', { 'foo.bar': ['x'] })).toBe(true);
    expect(m("a.b.c = 'x'", { 'a.b.c': ['x'] })).toBe(true);
    expect(m('a.b EXISTS', { 'a.b.c': ['x'] })).toBe(true);
    expect(m('a EXISTS', { 'a.b.c': ['x'] })).toBe(false);
  });

  it('never matches an empty event map', () => {
    expect(m("a.b CONTAINS ''", {})).toBe(false);
  });

  it('compares numbers by their decimal prefix', () => {
    const ev = { 'coin.amount': ['8atom'], 'coin.price': ['6.50stake'], 'coin.neg': ['-5'], 'coin.word': ['abc'] };
    expect(m('coin.amount = 8', ev)).toBe(true);
    expect(m('coin.amount > 7.99', ev)).toBe(true);
    expect(m('coin.amount < 8.0001', ev)).toBe(true);
    expect(m('coin.price = 6.5', ev)).toBe(true);
    expect(m('coin.price >= 6.5 AND coin.price <= 6.5', ev)).toBe(true);
    expect(m('coin.price > 6.5', ev)).toBe(false);
    // Negative and non-numeric values are not numbers to the query language.
    expect(m('coin.neg < 100', ev)).toBe(false);
    expect(m('coin.word >= 0', ev)).toBe(false);
  });

  it('compares integers beyond 2^53 and long fractions exactly', () => {
    const big = { 'x.v': ['9007199254740993'], 'x.w': ['0.30000000000000000000000000000000000000001'] };
    expect(m('x.v > 9007199254740992', big)).toBe(true);
    expect(m('x.v = 9007199254740993', big)).toBe(true);
    expect(m('x.v < 9007199254740994', big)).toBe(true);
    expect(m('x.v = 9007199254740992', big)).toBe(false);
    expect(m('x.v < 123456789012345678901234567890', big)).toBe(true);
    expect(m('x.w > 0.3', big)).toBe(true);
    expect(m('x.w < 0.30000000000000000000000000000000000000002', big)).toBe(true);
    expect(m('tx.height = 007', { 'tx.height': ['7'] })).toBe(true);
  });

  it('compares TIME values as instants, including offsets and fractions', () => {
    const ev = { 'e.t': ['2020-01-02T10:00:00+07:00'], 'e.f': ['2020-01-02T03:00:00.5Z'], 'e.bad': ['yesterday'] };
    expect(m('e.t = TIME 2020-01-02T03:00:00Z', ev)).toBe(true);
    expect(m('e.t < TIME 2020-01-02T03:00:01Z', ev)).toBe(true);
    expect(m('e.t >= TIME 2020-01-02T03:00:00Z AND e.t <= TIME 2020-01-02T03:00:00Z', ev)).toBe(true);
    expect(m('e.f > TIME 2020-01-02T03:00:00Z AND e.f < TIME 2020-01-02T03:00:01Z', ev)).toBe(true);
    expect(m('e.bad > TIME 2000-01-01T00:00:00Z', ev)).toBe(false);
  });

  it('compares DATE values as instants and only accepts date-formatted values', () => {
    const ev = { 'e.d': ['2017-01-01'], 'e.t': ['2017-01-01T00:00:00Z'] };
    expect(m('e.d = DATE 2017-01-01', ev)).toBe(true);
    expect(m('e.d > DATE 2016-12-31 AND e.d < DATE 2017-01-02', ev)).toBe(true);
    expect(m('e.t = DATE 2017-01-01', ev)).toBe(false);
  });

  it('keeps the source and prints a canonical form', () => {
    const q = Query.parse("tm.event='Tx'");
    expect(q.source).toBe("tm.event='Tx'");
    expect(q.toString()).toBe("tm.event = 'Tx'");
    expect(String(Query.fromAst(q.ast))).toBe("tm.event = 'Tx'");
  });
});

describe('compileCondition', () => {
  it('rejects hand-built conditions the grammar forbids', () => {
    expect(() => compileCondition({ tag: 'a.b', op: '<', arg: { kind: 'string', value: 'x' } })).toThrow(InvalidConditionError);
    expect(() => compileCondition({ tag: 'a.b', op: 'CONTAINS', arg: { kind: 'number', value: '1' } })).toThrow(
      'invalid op/arg combination (CONTAINS, number) in condition on a.b',
    );
    expect(() => compileCondition({ tag: 'a.b', op: '=' })).toThrow('missing argument for = in condition on a.b');
  });
});

describe('values', () => {
  it('parses decimal prefixes', () => {
    expect(parseDecimalPrefix('0012.3400abc')).toEqual({ int: '12', frac: '34' });
    expect(parseDecimalPrefix('0')).toEqual({ int: '', frac: '' });
    expect(parseDecimalPrefix('.5')).toBeUndefined();
    expect(compareDecimal(parseDecimalPrefix('10')!, parseDecimalPrefix('9.99')!)).toBe(1);
    expect(compareDecimal(parseDecimalPrefix('0.10')!, parseDecimalPrefix('0.1')!)).toBe(0);
  });

  it('parses instants like Go time.Parse', () => {
    expect(parseTimeInstant('1970-01-01T00:00:01Z')).toBe(1_000_000_000n);
    expect(parseTimeInstant('1970-01-01T01:00:00+01:00')).toBe(0n);
    expect(parseTimeInstant('1969-12-31T23:59:59.999999999Z')).toBe(-1n);
    expect(parseTimeInstant('2020-02-30T00:00:00Z')).toBeUndefined();
    expect(parseTimeInstant('2020-01-01T24:00:00Z')).toBeUndefined();
    expect(parseTimeInstant('2020-01-01 00:00:00Z')).toBeUndefined();
    expect(parseDateInstant('2000-02-29')).toBe(BigInt(Date.UTC(2000, 1, 29)) * 1_000_000n);
    expect(parseDateInstant('1900-02-29')).toBeUndefined();
  });
});
