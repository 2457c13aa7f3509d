import { describe, expect, it } from 'vitest';
import { formatAmount, normalizePrice, parseDecimal, renderDecimal, valueUsd } from './amount.js';

describe('formatAmount', () => {
  it('keeps every digit of an 18-decimal balance', () => {
    expect(formatAmount(58477097336215771549n, 18)).toBe('58.477097336215771549');
    expect(formatAmount(10n ** 22n, 18)).toBe('10000.000000000000000000');
    expect(formatAmount(123456789012345678901234567890n, 18)).toBe('123456789012.345678901234567890');
  });

  it('pads small amounts and zero with exactly `decimals` fractional digits', () => {
    expect(formatAmount(1n, 18)).toBe('0.000000000000000001');
    expect(formatAmount(0n, 6)).toBe('0.000000');
    expect(formatAmount(100000000n, 6)).toBe('100.000000');
  });

  it('has no point for 0 decimals and rejects bad decimals', () => {
    expect(formatAmount(42n, 0)).toBe('42');
    expect(() => formatAmount(1n, -1)).toThrow(RangeError);
    expect(() => formatAmount(1n, 1.5)).toThrow(RangeError);
  });
});

describe('decimal prices', () => {
  it('parses and renders without floating point', () => {
    expect(parseDecimal('0.406894')).toEqual({ units: 406894n, scale: 6 });
    expect(renderDecimal({ units: 2379398000n, scale: 8 })).toBe('23.79398');
    expect(renderDecimal({ units: 0n, scale: 24 })).toBe('0');
    expect(normalizePrice('01.50')).toBe('1.5');
    expect(() => parseDecimal('1e3')).toThrow(RangeError);
    expect(() => parseDecimal('-1')).toThrow(RangeError);
    expect(() => parseDecimal('')).toThrow(RangeError);
  });

  it('computes exact USD values', () => {
    // 58.477097336215771549 × 0.406894 = 23.793980... exactly
    expect(valueUsd(58477097336215771549n, 18, '0.406894')).toBe('23.793980043522180148658806');
    expect(valueUsd(100000000n, 6, '0.581495')).toBe('58.1495');
    expect(valueUsd(10n ** 22n, 18, '2500')).toBe('25000000');
    expect(valueUsd(123n, 18, '0')).toBe('0');
    // A float would lose this: 0.1 + 0.2 style digits stay exact.
    expect(valueUsd(3n, 1, '0.1')).toBe('0.03');
  });
});
