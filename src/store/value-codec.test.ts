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
      expect(encodeValue(v)[0]).toBe(2); // the compact form, not v8's
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

  it('keeps strings of hex digits as strings, exactly as given', () => {
    const strings = ['0x', '0xab', '0xdeadbeef', '0xDEADBEEF', 'deadbeef', '0xdeadbee', '1000000000', '0x' + 'f'.repeat(512), 'cafe', 'g0000000'];
    expect(roundTrip(strings)).toEqual(strings);
    // a 32-byte hash in hex (66 characters) takes its 32 bytes, a tag and a length
    expect(encodeValue(`0x${'ab'.repeat(32)}`).length).toBe(1 + 1 + 1 + 32);
  });

  it('writes a key list once a value and refers to it after that', () => {
    const attributes = Array.from({ length: 50 }, (_, i) => ({ key: `k${i}`, value: String(i), index: true }));
    const v = {
      events: [
        { type: 'a', attributes },
        { type: 'b', attributes },
      ],
    };
    const bytes = Buffer.from(encodeValue(v));
    expect(bytes.toString('latin1').split('value').length - 1).toBe(1);
    expect(roundTrip(v)).toEqual(v);
    // nested objects of the same keys as their parent, and empty objects, refer to lists too
    const nested = { a: { a: { a: {} } }, b: [{}, {}], c: { a: 1 } };
    expect(roundTrip(nested)).toEqual(nested);
  });

  it('is a third smaller than format 1 for a FinalizeBlock response', () => {
    const attr = (key: string, value: string) => ({ key, value, index: true });
    const txResult = (i: number) => ({
      code: 0,
      data: new Uint8Array(120).fill(i),
      log: '',
      gasWanted: 21000n,
      gasUsed: 21000n,
      events: [
        {
          type: 'ethereum_tx',
          attributes: [attr('amount', '1000000000'), attr('ethereumTxHash', `0x${'1f'.repeat(32)}`), attr('txIndex', String(i)), attr('txGasUsed', '21000')],
        },
        { type: 'message', attributes: [attr('action', '/cosmos.evm.vm.v1.MsgEthereumTx'), attr('sender', `0x${'ab'.repeat(20)}`), attr('module', 'evm')] },
      ],
      codespace: '',
    });
    const response = {
      events: [{ type: 'block_bloom', attributes: [attr('bloom', `0x${'00'.repeat(256)}`)] }],
      txResults: [txResult(0), txResult(1)],
      appHash: new Uint8Array(32),
    };
    // format 1 took 2353 bytes for this value (uint32 lengths, every key written out)
    expect(encodeValue(response).length).toBeLessThan(2353 * 0.67);
    expect(roundTrip(response)).toEqual(response);
  });

  it('reads values written in format 1', () => {
    // { a: 1, s: 'x', b: Uint8Array [7] } as format 1 wrote it
    const u32 = (n: number) => [n, 0, 0, 0];
    const key = (k: string) => [...u32(1), k.charCodeAt(0)];
    const v1 = Uint8Array.from([1, 11, ...u32(3), ...key('a'), 5, ...u32(1), ...key('s'), 7, ...u32(1), 0x78, ...key('b'), 8, ...u32(1), 7]);
    expect(decodeValue(v1)).toEqual({ a: 1, s: 'x', b: new Uint8Array([7]) });
  });

  it('keeps working past its cache of key lists (objects whose keys are data)', () => {
    const wide = Object.fromEntries(Array.from({ length: 6000 }, (_, i) => [`addr${i}`, i]));
    expect(roundTrip(wide)).toEqual(wide);
    expect(roundTrip([{ x: 1 }, { x: 2 }])).toEqual([{ x: 1 }, { x: 2 }]);
  });

  it('refuses a truncated value', () => {
    const bytes = encodeValue({ a: 'xyz', list: [1, 2, 3] });
    expect(() => decodeValue(bytes.subarray(0, bytes.length - 2))).toThrow();
  });

  it('refuses bytes of neither format, and trailing bytes', () => {
    expect(() => decodeValue(new Uint8Array([7]))).toThrow('unknown format');
    expect(() => decodeValue(new Uint8Array([...encodeValue(1), 0]))).toThrow('trailing bytes');
  });
});
