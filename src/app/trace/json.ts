/** The hex forms geth's tracers write (hexutil quantities and bytes, `%x` words). */
import type { Address } from '@ethereumjs/util';

/** hexutil.Big / Uint64: `0x` + minimal digits. */
export function quantity(v: bigint | number): string {
  return `0x${v.toString(16)}`;
}

/** hexutil.Bytes: `0x` + two digits per byte. */
export function bytesHex(b: Uint8Array): string {
  return `0x${Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('hex')}`;
}

/** common.Hash of a 256-bit value: `0x` + 64 digits. */
export function hashHex(v: bigint): string {
  return `0x${v.toString(16).padStart(64, '0')}`;
}

/** `%x` of a 32-byte word (the struct logger's storage and memory): 64 digits, no prefix. */
export function wordNoPrefix(v: bigint): string {
  return v.toString(16).padStart(64, '0');
}

/** Lower-case `0x` address (common.Address as a JSON map key or value). */
export function addressHex(a: Address): string {
  return a.toString();
}

/** A 32-byte big-endian word as a bigint. */
export function wordToBigInt(b: Uint8Array): bigint {
  return b.length === 0 ? 0n : BigInt(bytesHex(b));
}

/** A bigint as a 32-byte big-endian word. */
export function bigIntToWord(v: bigint): Uint8Array {
  const b = Buffer.from(v.toString(16).padStart(64, '0'), 'hex');
  return new Uint8Array(b.buffer, b.byteOffset, 32);
}
