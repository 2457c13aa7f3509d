import { describe, expect, it } from 'vitest';
import { data, decodeData, decodeFixed, decodeQuantity, decodeSlot, quantity, word } from './hex.js';

describe('encodings (seed table)', () => {
  it('quantities are compact', () => {
    expect(quantity(0n)).toBe('0x0');
    expect(quantity(1024)).toBe('0x400');
    expect(quantity(2n ** 64n)).toBe('0x10000000000000000');
  });
  it('data is even-length, empty is 0x', () => {
    expect(data(new Uint8Array(0))).toBe('0x');
    expect(data(Uint8Array.of(0, 0x41))).toBe('0x0041');
    expect(word(1n)).toBe(`0x${'0'.repeat(63)}1`);
  });
});

describe('decoders refuse what geth refuses', () => {
  it.each([
    ['', 'empty hex string'],
    ['400', 'hex string without 0x prefix'],
    ['0x', 'hex string "0x"'],
    ['0x0400', 'hex number with leading zero digits'],
    ['0xzz', 'invalid hex string'],
    [`0x1${'0'.repeat(16)}`, 'hex number > 64 bits'],
  ])('quantity %j', (s, msg) => {
    expect(() => decodeQuantity(s, 64)).toThrow(msg);
  });
  it('quantities and data that are fine', () => {
    expect(decodeQuantity('0x0')).toBe(0n);
    expect(decodeQuantity('0X1f')).toBe(31n);
    expect(decodeData('0x')).toEqual(new Uint8Array(0));
    expect(() => decodeData('0x123')).toThrow('hex string of odd length');
  });
  it('fixed sizes check the length first', () => {
    expect(() => decodeFixed('0x12', 20, 'common.Address')).toThrow('hex string has length 2, want 40 for common.Address');
    expect(decodeFixed(`0x${'ab'.repeat(20)}`, 20, 'common.Address')).toHaveLength(20);
  });
  it('storage slots are left-padded', () => {
    expect(decodeSlot('0x1')).toEqual(Uint8Array.from({ length: 32 }, (_, i) => (i === 31 ? 1 : 0)));
    expect(() => decodeSlot(`0x${'0'.repeat(66)}`)).toThrow();
  });
});
