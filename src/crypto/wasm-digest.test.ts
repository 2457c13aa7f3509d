import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { describe, expect, it } from 'vitest';
import { tryWasmDigest, wasmDigest } from './wasm-digest.js';
import { SHA256_WASM, SHA3_WASM } from './wasm-hashers.generated.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');
const bytes = (n: number) => Uint8Array.from({ length: n }, (_, i) => (i * 131 + n) & 0xff);

describe('wasmDigest (hash-wasm builds, compiled synchronously)', () => {
  const sha256 = wasmDigest(SHA256_WASM, 32, 256, 0);
  const keccak = wasmDigest(SHA3_WASM, 32, 256, 0x01);

  it('agrees with node:crypto and @noble/hashes on each side of the 16 KB one-call limit and across chunks', () => {
    for (const n of [0, 1, 55, 56, 64, 136, 16_383, 16_384, 16_385, 32_768, 50_001]) {
      const data = bytes(n);
      expect(hex(sha256(data)), `sha256 of ${n} bytes`).toBe(createHash('sha256').update(data).digest('hex'));
      expect(hex(keccak(data)), `keccak256 of ${n} bytes`).toBe(hex(keccak_256(data)));
    }
  });

  it('hashes the view it is given, and returns a fresh array each time', () => {
    const whole = bytes(100);
    const part = whole.subarray(10, 60);
    const a = keccak(part);
    expect(hex(a)).toBe(hex(keccak_256(part.slice())));
    const b = keccak(bytes(3));
    expect(hex(a)).toBe(hex(keccak_256(part.slice())));
    expect(a.buffer).not.toBe(b.buffer);
  });

  it('refuses what is not bytes, and the next digest is still right', () => {
    expect(() => sha256(42 as unknown as Uint8Array)).toThrow(TypeError);
    expect(hex(sha256(new Uint8Array(0)))).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
  });

  it('is undefined where the module cannot be made', () => {
    expect(tryWasmDigest('AAAA', 32, 0, 0)).toBeUndefined();
  });

  it('holds the binaries of the hash-wasm version installed (npm run wasm-hashers --check)', () => {
    execFileSync(process.execPath, [`${root}/scripts/gen-wasm-hashers.mjs`, '--check'], { cwd: root, stdio: 'pipe' });
  });
});
