/**
 * libsecp256k1 through the `secp256k1` package (CommonJS; it dlopens a prebuilt binding, and its
 * index falls back to a JS implementation when the binding is missing). Loaded with this module:
 * a start derives the dev keys with it at once, and loading it there instead cost more than the
 * 10–15 ms it adds to the import (measured both ways).
 */
import { createRequire } from 'node:module';

/** The calls this project makes (the `secp256k1` package's v5 API). */
export interface Secp256k1Native {
  ecdsaSign(msg32: Uint8Array, privateKey: Uint8Array): { signature: Uint8Array; recid: number };
  /** `output`: a buffer of the key's length to write into (returned), or a new one. */
  ecdsaRecover(signature: Uint8Array, recid: number, msg32: Uint8Array, compressed?: boolean, output?: Uint8Array): Uint8Array;
  ecdsaVerify(signature: Uint8Array, msg32: Uint8Array, publicKey: Uint8Array): boolean;
  publicKeyCreate(privateKey: Uint8Array, compressed?: boolean): Uint8Array;
  publicKeyConvert(publicKey: Uint8Array, compressed?: boolean): Uint8Array;
}

export const secp256k1: Secp256k1Native = createRequire(import.meta.url)('secp256k1') as Secp256k1Native;
