/**
 * What the build bundles into dist/chainlet.cjs (scripts/bundle.mjs): the public API, and the
 * command line, which is evaluated only when the `chainlet` command asks for it.
 */
import { sha256WasmReady } from './crypto/hash.js';
import { keccakWasmReady } from './crypto/keccak.js';

export * from './index.js';

export function loadCli(): Promise<typeof import('./cli/program.js')> {
  return import('./cli/program.js');
}

/**
 * Settles when the hashers' WebAssembly serves the digests. The loader awaits it, so that
 * `import('chainlet')` resolves with them ready, as the top-level awaits of the ES module build did:
 * a node started right after the import would otherwise hash its genesis and dev keys with the
 * slower fallback (@noble/hashes, not yet optimized), ≈ 7 ms of a start.
 */
export const hashersReady: Promise<unknown> = Promise.all([keccakWasmReady, sha256WasmReady]);
