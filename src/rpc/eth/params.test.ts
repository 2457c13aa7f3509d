import { describe, expect, it } from 'vitest';
import { blockNumberOf, blockNumberOrHashOf } from './block-param.js';
import { InvalidParamsError } from './errors.js';
import { addressOf, bigOf, boolOf, decodeParams, hexOrDecimalOf, optional, required } from './params.js';
import { txArgsOf } from './tx-args.js';

const specs = [required('address', 'Address', addressOf()), optional('flag', 'bool', boolOf)] as const;

describe('decodeParams', () => {
  it('decodes positional params and fills optionals', () => {
    const [a, f] = decodeParams(specs, [`0x${'11'.repeat(20)}`]);
    expect(a.toString()).toBe(`0x${'11'.repeat(20)}`);
    expect(f).toBeUndefined();
  });
  it('counts and types in geth words', () => {
    expect(() => decodeParams(specs, [])).toThrow('missing value for required argument 0');
    expect(() => decodeParams(specs, [null])).toThrow('missing value for required argument 0');
    expect(() => decodeParams(specs, ['0x', true, 1])).toThrow('too many arguments, want at most 2');
    expect(() => decodeParams(specs, { address: 'x' })).toThrow(InvalidParamsError);
    expect(() => decodeParams(specs, [`0x${'11'.repeat(20)}`, 'yes'])).toThrow('invalid argument 1: json: cannot unmarshal string into Go value of type bool');
  });
  it('numbers as hex or decimal', () => {
    expect(hexOrDecimalOf(5)).toBe(5n);
    expect(hexOrDecimalOf('0x5')).toBe(5n);
    expect(hexOrDecimalOf('12')).toBe(12n);
    expect(bigOf()('0xff')).toBe(255n);
  });
});

describe('block parameters', () => {
  it('tags, numbers, hashes and EIP-1898 objects', () => {
    expect(blockNumberOf('safe')).toEqual({ kind: 'tag', tag: 'safe' });
    expect(blockNumberOf('0x10')).toEqual({ kind: 'number', number: 16 });
    const h = `0x${'ab'.repeat(32)}`;
    expect(blockNumberOrHashOf(h)).toMatchObject({ kind: 'hash' });
    expect(blockNumberOrHashOf({ blockHash: h, requireCanonical: true })).toMatchObject({ kind: 'hash', requireCanonical: true });
    expect(blockNumberOrHashOf({ blockNumber: 'latest' })).toEqual({ kind: 'tag', tag: 'latest' });
  });
  it('refuses nonsense', () => {
    expect(() => blockNumberOf(5)).toThrow('json: cannot unmarshal number into Go value of type string');
    expect(() => blockNumberOf('newest')).toThrow('hex string without 0x prefix');
    expect(() => blockNumberOf('0xffffffffffffffff')).toThrow('block number larger than int64');
    expect(() => blockNumberOrHashOf({ blockHash: `0x${'ab'.repeat(32)}`, blockNumber: '0x1' })).toThrow('cannot specify both');
  });
});

describe('TransactionArgs', () => {
  it('input wins, data alone is accepted, both must agree', () => {
    expect(txArgsOf({ data: '0x01' }).input).toEqual(Uint8Array.of(1));
    expect(txArgsOf({ input: '0x02', data: '0x02' }).input).toEqual(Uint8Array.of(2));
    expect(() => txArgsOf({ input: '0x02', data: '0x03' })).toThrow('both "data" and "input" are set');
    expect(() => txArgsOf({ gas: 5 })).toThrow('Go struct field TransactionArgs.gas of type hexutil.Uint64');
    expect(txArgsOf({ accessList: [{ address: `0x${'11'.repeat(20)}`, storageKeys: [`0x${'00'.repeat(32)}`] }] }).accessList).toHaveLength(1);
  });
});
