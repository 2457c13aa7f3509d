import { deserialize, serialize } from 'node:v8';
import { describe, expect, it } from 'vitest';
import { decodeValue, encodeValue } from './value-codec.js';

const roundTrip = (v: unknown) => decodeValue(encodeValue(v));

describe('stored value encoding', () => {
  const samples: Record<string, unknown> = {
    scalars: [undefined, null, true, false, 0, -0, 1, -1, 2 ** 31 - 1, -(2 ** 31), 2 ** 31, 2 ** 53, 1.5, NaN, Infinity, -Infinity],
    bigints: [0n, 1n, -1n, 2n ** 64n, -(2n ** 255n) + 17n, 2n ** 256n - 1n],
    strings: ['', 'abc', 'µs ≤ 🚀', 'x'.repeat(70_000)],
    bytes: [new Uint8Array(0), new Uint8Array([1, 2, 255]), new Uint8Array(100_000).fill(7)],
    nested: {
      header: { height: 5, time: { seconds: 1_764_000_000n, nanos: 12 }, hash: new Uint8Array(32).fill(3) },
      txs: [new Uint8Array([9])],
      events: [{ type: 'transfer', attributes: [{ key: 'amount', value: '1', index: true }] }],
      none: undefined,
    },
    nullProto: Object.assign(Object.create(null) as object, { a: 1 }),
  };

  for (const [name, v] of Object.entries(samples)) {
    it(`gives back what v8 would for ${name}`, () => {
      expect(encodeValue(v)[0]).toBe(1); // the compact form, not v8's
      expect(roundTrip(v)).toEqual(deserialize(serialize(v)));
    });
  }

  it('keeps -0, NaN and the types of numbers and bigints', () => {
    const back = roundTrip([-0, NaN, 5, 5n]) as unknown[];
    expect(Object.is(back[0], -0)).toBe(true);
    expect(Number.isNaN(back[1])).toBe(true);
    expect(typeof back[2]).toBe('number');
    expect(typeof back[3]).toBe('bigint');
  });

  it('gives Uint8Arrays back as Uint8Arrays and Buffers as Buffers, each a copy of its own', () => {
    const source = new Uint8Array([1, 2, 3]);
    const [u, b] = roundTrip([source, Buffer.from([4, 5])]) as [Uint8Array, Buffer];
    expect(u.constructor).toBe(Uint8Array);
    expect(Buffer.isBuffer(b)).toBe(true);
    expect([...u]).toEqual([1, 2, 3]);
    expect(u.byteOffset).toBe(0);
    expect(u.buffer.byteLength).toBe(3);
  });

  it('returns a value of its own size, untouched by later encodings', () => {
    const first = encodeValue({ a: 'x'.repeat(10) });
    const copy = Uint8Array.from(first);
    encodeValue({ b: 'y'.repeat(200_000) });
    expect(first).toEqual(copy);
    expect(first.buffer.byteLength).toBe(first.length);
  });

  it('hands what it does not know to v8, whole', () => {
    class Point {
      constructor(readonly x: number) {}
    }
    const sparse = [1, , 3]; // eslint-disable-line no-sparse-arrays
    const withProp = Object.assign([1, 2], { extra: true });
    const protoKey = JSON.parse('{"__proto__": 1}') as object;
    for (const v of [new Map([[1, 2]]), new Set([1]), new Date(5), { p: new Point(1) }, sparse, withProp, new Uint16Array([1]), { k: protoKey }]) {
      const bytes = encodeValue(v);
      expect(bytes[0]).toBe(0xff);
      expect(decodeValue(bytes)).toEqual(deserialize(serialize(v)));
    }
  });

  it('reads values that v8 wrote (stores written before this format)', () => {
    const v = { height: 3, hash: new Uint8Array([1]), big: 7n };
    expect(decodeValue(serialize(v))).toEqual(v);
  });

  it('refuses bytes of neither format, and trailing bytes', () => {
    expect(() => decodeValue(new Uint8Array([7]))).toThrow('unknown format');
    expect(() => decodeValue(new Uint8Array([...encodeValue(1), 0]))).toThrow('trailing bytes');
  });
});
