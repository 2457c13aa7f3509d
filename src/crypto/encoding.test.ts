import { describe, expect, it } from 'vitest';
import { bytesEqual, compareBytes, concatBytes, fromBase64, fromHex, toBase64, toHex, toHexUpper, utf8 } from './encoding.js';
import { InvalidBase64Error, InvalidHexError } from './errors.js';

describe('hex', () => {
  it('encodes lower and upper case without prefix', () => {
    const b = new Uint8Array([0x00, 0xab, 0xcd, 0xef, 0x10]);
    expect(toHex(b)).toBe('00abcdef10');
    expect(toHexUpper(b)).toBe('00ABCDEF10');
    expect(toHex(new Uint8Array(0))).toBe('');
  });

  it('encodes a subarray view, not its whole backing buffer', () => {
    const whole = new Uint8Array([1, 2, 3, 4, 5]);
    expect(toHex(whole.subarray(1, 3))).toBe('0203');
  });

  it('decodes with or without 0x and in any case', () => {
    expect(fromHex('0x00aB')).toEqual(new Uint8Array([0, 0xab]));
    expect(fromHex('0X00AB')).toEqual(new Uint8Array([0, 0xab]));
    expect(fromHex('00ab')).toEqual(new Uint8Array([0, 0xab]));
    expect(fromHex('')).toEqual(new Uint8Array(0));
    expect(fromHex('0x')).toEqual(new Uint8Array(0));
  });

  it('returns a plain Uint8Array', () => {
    expect(Object.getPrototypeOf(fromHex('01'))).toBe(Uint8Array.prototype);
  });

  it('throws on odd length and invalid characters', () => {
    expect(() => fromHex('abc')).toThrow(InvalidHexError);
    expect(() => fromHex('zz')).toThrow(InvalidHexError);
    expect(() => fromHex('0x0g')).toThrow(/invalid character/);
    expect(() => fromHex('0x123')).toThrow(/odd length/);
  });
});

describe('base64', () => {
  it('round-trips standard padded base64', () => {
    const b = utf8('hello world');
    expect(toBase64(b)).toBe('aGVsbG8gd29ybGQ=');
    expect(fromBase64('aGVsbG8gd29ybGQ=')).toEqual(b);
    expect(fromBase64('aGVsbG8gd29ybGQ')).toEqual(b);
    expect(fromBase64('')).toEqual(new Uint8Array(0));
    expect(toBase64(new Uint8Array([0xfb, 0xff]))).toBe('+/8=');
  });

  it('throws on invalid input instead of skipping characters', () => {
    expect(() => fromBase64('a$b=')).toThrow(InvalidBase64Error);
    expect(() => fromBase64('aGVs bG8=')).toThrow(InvalidBase64Error);
    expect(() => fromBase64('YQ=')).toThrow(InvalidBase64Error);
    expect(() => fromBase64('a')).toThrow(InvalidBase64Error);
    expect(() => fromBase64('a=b=')).toThrow(InvalidBase64Error);
  });
});

describe('byte helpers', () => {
  it('compares bytes', () => {
    expect(bytesEqual(new Uint8Array([1, 2]), new Uint8Array([1, 2]))).toBe(true);
    expect(bytesEqual(new Uint8Array([1, 2]), new Uint8Array([1, 3]))).toBe(false);
    expect(bytesEqual(new Uint8Array([1]), new Uint8Array([1, 2]))).toBe(false);
    expect(bytesEqual(new Uint8Array(0), new Uint8Array(0))).toBe(true);
  });

  it('orders bytes like Go bytes.Compare', () => {
    expect(compareBytes(new Uint8Array([1, 2]), new Uint8Array([1, 3]))).toBeLessThan(0);
    expect(compareBytes(new Uint8Array([2]), new Uint8Array([1, 9]))).toBeGreaterThan(0);
    expect(compareBytes(new Uint8Array([1]), new Uint8Array([1, 0]))).toBeLessThan(0);
    expect(compareBytes(new Uint8Array([7, 7]), new Uint8Array([7, 7]))).toBe(0);
  });

  it('concatenates', () => {
    expect(concatBytes(new Uint8Array([1]), new Uint8Array(0), new Uint8Array([2, 3]))).toEqual(new Uint8Array([1, 2, 3]));
    expect(concatBytes()).toEqual(new Uint8Array(0));
  });

  it('encodes UTF-8', () => {
    expect(utf8('é€')).toEqual(new Uint8Array([0xc3, 0xa9, 0xe2, 0x82, 0xac]));
  });
});
