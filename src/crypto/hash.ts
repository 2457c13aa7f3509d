/**
 * SHA-256 (CometBFT `tmhash`), on every hot path: merkle leaves and inner nodes, header fields,
 * tx hashes. Short inputs (below 128 bytes: every merkle node, most leaves) go to hash-wasm's
 * WebAssembly build (wasm-digest.ts, compiled when this module loads), ≈ 1.1 µs against ≈ 1.7 µs
 * for node:crypto's one-shot at 64 bytes, since a native call costs more than the hashing itself;
 * from 128 bytes on, OpenSSL's SHA extensions win. The one-shot `crypto.hash` (Node >= 20.12) skips
 * the Hash object; older Node 20 releases fall back to `createHash`. Where WebAssembly is
 * unavailable node:crypto takes every input.
 */
import * as nodeCrypto from 'node:crypto';
import { tryWasmDigest } from './wasm-digest.js';
import { SHA256_WASM } from './wasm-hashers.generated.js';

const oneShot: ((data: Uint8Array) => Buffer) | undefined =
  typeof nodeCrypto.hash === 'function' ? (data) => nodeCrypto.hash('sha256', data, 'buffer') : undefined;

/** Below this many bytes the WebAssembly digest is the faster one (measured crossover ≈ 150). */
const WASM_BELOW = 128;
/** hash-wasm's createSHA256(). */
const small = tryWasmDigest(SHA256_WASM, 32, 256, 0);

export function sha256(data: Uint8Array): Uint8Array {
  if (data.length < WASM_BELOW && small !== undefined) return small(data);
  const d = oneShot ? oneShot(data) : nodeCrypto.createHash('sha256').update(data).digest();
  return new Uint8Array(d.buffer, d.byteOffset, d.byteLength);
}
