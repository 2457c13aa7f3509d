import { createHash } from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { toHex, toHexUpper, utf8 } from './encoding.js';
import { sha256 } from './hash.js';

describe('sha256', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('matches the FIPS 180-2 vectors', () => {
    expect(toHexUpper(sha256(new Uint8Array(0)))).toBe('E3B0C44298FC1C149AFBF4C8996FB92427AE41E4649B934CA495991B7852B855');
    expect(toHex(sha256(utf8('abc')))).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });

  it('hashes only the view it is given', () => {
    const whole = utf8('xxabcxx');
    expect(sha256(whole.subarray(2, 5))).toEqual(sha256(utf8('abc')));
  });

  it('returns a plain 32-byte Uint8Array', () => {
    const h = sha256(utf8('chainlet'));
    expect(h).toHaveLength(32);
    expect(Object.getPrototypeOf(h)).toBe(Uint8Array.prototype);
    expect(toHex(h)).toBe(createHash('sha256').update('chainlet').digest('hex'));
  });

  it('gives the digest of node:crypto on both sides of the short-input path (lengths 0–300)', () => {
    for (let n = 0; n <= 300; n++) {
      const data = Uint8Array.from({ length: n }, (_, i) => (i * 31 + n) & 0xff);
      const h = sha256(data);
      expect(Object.getPrototypeOf(h)).toBe(Uint8Array.prototype);
      expect(toHex(h)).toBe(createHash('sha256').update(data).digest('hex'));
    }
  });

  it('answers with node:crypto for every length where WebAssembly is unavailable (node --jitless)', async () => {
    vi.stubGlobal('WebAssembly', undefined);
    vi.resetModules();
    const fresh = await import('./hash.js');
    for (const n of [0, 33, 65, 127, 128, 500]) {
      const data = Uint8Array.from({ length: n }, (_, i) => (i * 7 + n) & 0xff);
      expect(toHex(fresh.sha256(data))).toBe(createHash('sha256').update(data).digest('hex'));
    }
  });
});
