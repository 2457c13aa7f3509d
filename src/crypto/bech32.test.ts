import { describe, expect, it } from 'vitest';
import { fromBech32, toBech32 } from './bech32.js';
import { fromHex } from './encoding.js';
import { InvalidBech32Error } from './errors.js';

describe('bech32', () => {
  const addr = fromHex('0d82b1e7c96dbfa42462fe612932e6bff111d51b');

  // The pair used by cosmjs' own bech32 tests (@cosmjs/encoding).
  it('encodes a known Cosmos address', () => {
    expect(toBech32('cosmos', addr)).toBe('cosmos1pkptre7fdkl6gfrzlesjjvhxhlc3r4gmmk8rs6');
    expect(fromBech32('cosmos1pkptre7fdkl6gfrzlesjjvhxhlc3r4gmmk8rs6')).toEqual({ prefix: 'cosmos', bytes: addr });
  });

  it('round-trips 20- and 32-byte payloads', () => {
    expect(fromBech32(toBech32('evmos', addr))).toEqual({ prefix: 'evmos', bytes: addr });
    const long = new Uint8Array(32).map((_, i) => i * 5);
    expect(fromBech32(toBech32('cosmosvalconspub', long)).bytes).toEqual(long);
  });

  it('accepts an all-upper-case string', () => {
    const s = toBech32('cosmos', addr);
    expect(fromBech32(s.toUpperCase())).toEqual({ prefix: 'cosmos', bytes: addr });
  });

  it('throws on a bad checksum or garbage', () => {
    const s = toBech32('cosmos', addr);
    const broken = s.slice(0, -1) + (s.endsWith('q') ? 'p' : 'q');
    expect(() => fromBech32(broken)).toThrow(InvalidBech32Error);
    expect(() => fromBech32('not-bech32')).toThrow(InvalidBech32Error);
  });
});
