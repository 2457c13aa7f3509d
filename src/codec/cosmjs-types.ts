/**
 * cosmjs-types, loaded on first use. Its generated codecs are ≈ 1.2 MB that `import('chainlet')`
 * and a node's start do not need (the Cosmos face, IBC and the hub chain do), so the bundle keeps
 * the package external (scripts/bundle.mjs checks that no entry imports it statically):
 *
 * - modules on a path that must stay synchronous (decoding a tx, encoding a tx result) take the
 *   codecs from `lazyCosmjs`, a CommonJS `require` from node_modules at the first call;
 * - modules reached only through `import()` (queries, Cosmos tx execution, IBC, the hub) import
 *   cosmjs-types directly and call `exactSizeBuffers()` once at load.
 *
 * Either way Node loads each file once, so both see the same `BinaryWriter`.
 */
import type { BinaryWriter } from 'cosmjs-types/binary';
import { createRequire } from 'node:module';

const load = createRequire(import.meta.url);
let exact = false;

/**
 * cosmjs-types 0.11's `BinaryWriter.alloc` builds a new 8 KiB pool on every call, so every
 * `Msg.encode(...).finish()` allocated an 8 KiB slab and returned a view that keeps it alive: one
 * per Ethereum tx result in a block, which showed as allocation and GC time in block profiles.
 * After this, encodings get buffers of the exact size.
 */
export function exactSizeBuffers(): void {
  if (exact) return;
  (load('cosmjs-types/binary') as { BinaryWriter: typeof BinaryWriter }).BinaryWriter.alloc = (size: number): Uint8Array => new Uint8Array(size);
  exact = true;
}

/**
 * A getter for one cosmjs-types module (`path` as in `cosmjs-types/<path>`), loaded at its first
 * call. Type it with the module's own types: `lazyCosmjs<typeof import('cosmjs-types/…')>('…')`.
 */
export function lazyCosmjs<T>(path: string): () => T {
  let mod: T | undefined;
  return () => {
    if (mod === undefined) {
      exactSizeBuffers();
      mod = load(`cosmjs-types/${path}`) as T;
    }
    return mod;
  };
}
