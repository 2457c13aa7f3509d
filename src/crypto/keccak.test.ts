import { keccak_256 } from '@noble/hashes/sha3.js';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { keccak256 } from './keccak.js';

const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');

describe('keccak256 (hash-wasm)', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('matches the known vectors', () => {
    expect(hex(keccak256(new Uint8Array(0)))).toBe('c5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470');
    expect(hex(keccak256(new TextEncoder().encode('Transfer(address,address,uint256)')))).toBe(
      'ddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef',
    );
  });

  it('agrees with @noble/hashes on every length around the 136-byte rate, and on large inputs', () => {
    for (const n of [1, 31, 32, 33, 64, 135, 136, 137, 271, 272, 273, 1000, 70_000]) {
      const data = Uint8Array.from({ length: n }, (_, i) => (i * 31 + n) & 0xff);
      expect(hex(keccak256(data))).toBe(hex(keccak_256(data)));
    }
  });

  it('returns a new array each time (a digest is never overwritten by the next)', () => {
    const a = keccak256(Uint8Array.of(1));
    const before = hex(a);
    const b = keccak256(Uint8Array.of(2));
    expect(hex(a)).toBe(before);
    expect(a.buffer).not.toBe(b.buffer);
  });

  it('a failed call leaves no state behind', () => {
    expect(() => keccak256(42 as unknown as Uint8Array)).toThrow();
    expect(hex(keccak256(new Uint8Array(0)))).toBe('c5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470');
  });

  it('answers with @noble/hashes, with the same digests, where WebAssembly is unavailable (node --jitless)', async () => {
    vi.stubGlobal('WebAssembly', undefined);
    vi.resetModules();
    const fresh = await import('./keccak.js');
    const data = Uint8Array.from({ length: 200 }, (_, i) => i);
    expect(hex(fresh.keccak256(data))).toBe(hex(keccak_256(data)));
    expect(hex(fresh.keccak256(data))).toBe(hex(keccak256(data)));
  });
});
