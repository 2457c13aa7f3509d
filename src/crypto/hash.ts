/**
 * SHA-256 (CometBFT `tmhash`), on every hot path: merkle leaves and inner nodes, header fields,
 * tx hashes. Short inputs (below 128 bytes: every merkle node, most leaves) go to hash-wasm's
 * WebAssembly build, ≈ 1.1 µs against ≈ 1.7 µs for node:crypto's one-shot at 64 bytes, since a
 * native call costs more than the hashing itself; from 128 bytes on, OpenSSL's SHA extensions win.
 * The one-shot `crypto.hash` (Node >= 20.12) skips the Hash object; older Node 20 releases fall
 * back to `createHash`.
 *
 * WebAssembly compiles asynchronously; until it has (a few milliseconds after load) node:crypto
 * takes the short inputs too, so there is no top-level await (as keccak.ts). One instance then
 * serves every call synchronously, `init()` resetting any state a failed call left.
 */
import * as nodeCrypto from 'node:crypto';
import { createSHA256, type IHasher } from 'hash-wasm';

const oneShot: ((data: Uint8Array) => Buffer) | undefined =
  typeof nodeCrypto.hash === 'function' ? (data) => nodeCrypto.hash('sha256', data, 'buffer') : undefined;

/** Below this many bytes the WebAssembly digest is the faster one (measured crossover ≈ 150). */
const WASM_BELOW = 128;
let small: IHasher | undefined;

/** Settles once the WebAssembly instance takes the short inputs (if it cannot compile, node:crypto goes on). */
export const sha256WasmReady: Promise<void> = createSHA256().then(
  (h) => {
    small = h;
  },
  () => undefined,
);

export function sha256(data: Uint8Array): Uint8Array {
  if (data.length < WASM_BELOW && small !== undefined) {
    small.init();
    small.update(data);
    return small.digest('binary');
  }
  const d = oneShot ? oneShot(data) : nodeCrypto.createHash('sha256').update(data).digest();
  return new Uint8Array(d.buffer, d.byteOffset, d.byteLength);
}
