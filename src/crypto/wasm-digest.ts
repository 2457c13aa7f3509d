/**
 * One-shot digests on hash-wasm's WebAssembly builds (wasm-hashers.generated.ts), compiled
 * synchronously when a hasher module loads: a 4–10 KB module compiles in ≈ 1 ms, where the
 * asynchronous compile of hash-wasm's own API left `import('chainlet')` waiting ≈ 25 ms on an idle
 * event loop. An input below 16 KB is copied into the module's I/O buffer and hashed by one call
 * (`Hash_Calculate`); a longer one goes through Init / Update / Final in 16 KB chunks. JavaScript
 * never interleaves two calls, so one instance serves every digest; each digest is a fresh array.
 */

/** The part of the WebAssembly API used here (this project's TypeScript libs do not declare it). */
interface WasmApi {
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object, imports: object) => { exports: unknown };
}

/** The module's exports (hash-wasm's C interface, src/hash-wasm.h in its sources). */
interface HasherExports {
  memory: { buffer: ArrayBuffer };
  Hash_GetBuffer(): number;
  Hash_Init(param: number): void;
  Hash_Update(length: number): void;
  Hash_Final(param: number): void;
  Hash_Calculate(length: number, initParam: number, finalParam: number): void;
}

/** hash-wasm's I/O buffer: the largest input one call takes. */
const CHUNK = 16 * 1024;

export type Digest = (data: Uint8Array) => Uint8Array;

/**
 * A digest function over the base64 WebAssembly `binary`: `size` bytes out, `initParam` and
 * `finalParam` as hash-wasm passes them (output bits, and the padding byte for Keccak).
 */
export function wasmDigest(binary: string, size: number, initParam: number, finalParam: number): Digest {
  const wasm = (globalThis as { WebAssembly?: WasmApi }).WebAssembly;
  if (wasm === undefined) throw new Error('WebAssembly is unavailable');
  const instance = new wasm.Instance(new wasm.Module(Buffer.from(binary, 'base64')), {});
  const x = instance.exports as unknown as HasherExports;
  const offset = x.Hash_GetBuffer();
  // These modules never grow their memory (only hash-wasm's argon2 and scrypt do), so the view stays valid.
  const io = new Uint8Array(x.memory.buffer, offset, CHUNK);
  return (data) => {
    if (!ArrayBuffer.isView(data)) throw new TypeError(`digest input must be a Uint8Array, got ${typeof data}`);
    if (data.length < CHUNK) {
      io.set(data);
      x.Hash_Calculate(data.length, initParam, finalParam);
    } else {
      x.Hash_Init(initParam);
      for (let i = 0; i < data.length; i += CHUNK) {
        const chunk = data.subarray(i, i + CHUNK);
        io.set(chunk);
        x.Hash_Update(chunk.length);
      }
      x.Hash_Final(finalParam);
    }
    return io.slice(0, size);
  };
}

/** wasmDigest, or undefined where the module cannot be made (`node --jitless` has no WebAssembly): the caller's fallback answers. */
export function tryWasmDigest(binary: string, size: number, initParam: number, finalParam: number): Digest | undefined {
  try {
    return wasmDigest(binary, size, initParam, finalParam);
  } catch {
    return undefined;
  }
}
