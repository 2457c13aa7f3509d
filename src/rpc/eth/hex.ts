/**
 * The wire encodings of the Ethereum JSON-RPC (seed, family C): quantities in the most compact
 * `0x` hex form (`0x0` for zero), unformatted data as `0x` plus two digits per byte. Decoders
 * reject what geth's hexutil rejects, with hexutil's words, so clients see the same errors.
 */
import { toPrefixedHex } from '../../crypto/encoding.js';
import { HexError } from './errors.js';

const HEX_DIGITS = /^[0-9a-fA-F]*$/;

/** A quantity: `0x` + minimal hex digits. */
export function quantity(v: bigint | number): string {
  return `0x${v.toString(16)}`;
}

/** Unformatted data: `0x` + two lower-case hex digits per byte. */
export function data(b: Uint8Array): string {
  return toPrefixedHex(b);
}

/** 32-byte data left-padded (storage values, topics from bigint). */
export function word(v: bigint): string {
  return `0x${v.toString(16).padStart(64, '0')}`;
}

/** Bytes of a hex string already validated by one of the decoders below. */
export function hexToBytes(hex: string): Uint8Array {
  const b = Buffer.from(hex.slice(2), 'hex');
  return new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
}

// ── decoders (geth hexutil semantics) ─────────────────────────────────────────────────────

function checkPrefix(s: string): string {
  if (s.length === 0) throw new HexError('empty hex string');
  if (s.length < 2 || s[0] !== '0' || (s[1] !== 'x' && s[1] !== 'X')) throw new HexError('hex string without 0x prefix');
  return s.slice(2);
}

/** A quantity up to `bits` bits (64 for Uint64, 256 for Big). */
export function decodeQuantity(s: string, bits: 64 | 256 = 256): bigint {
  const digits = checkPrefix(s);
  if (digits.length === 0) throw new HexError('hex string "0x"');
  if (digits.length > 1 && digits[0] === '0') throw new HexError('hex number with leading zero digits');
  if (!HEX_DIGITS.test(digits)) throw new HexError('invalid hex string');
  if (digits.length > bits / 4) throw new HexError(bits === 64 ? 'hex number > 64 bits' : 'hex number > 256 bits');
  return BigInt(`0x${digits}`);
}

/** Unformatted data of any length (even digit count). */
export function decodeData(s: string): Uint8Array {
  const digits = checkPrefix(s);
  if (digits.length % 2 !== 0) throw new HexError('hex string of odd length');
  if (!HEX_DIGITS.test(digits)) throw new HexError('invalid hex string');
  const b = Buffer.from(digits, 'hex');
  return new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
}

/**
 * Fixed-size data (address: 20, hash: 32), as geth's `common.Address` / `common.Hash` decode it:
 * the length is checked before the digits.
 */
export function decodeFixed(s: string, size: number, goType: string): Uint8Array {
  const digits = checkPrefix(s);
  if (digits.length !== size * 2) throw new HexError(`hex string has length ${digits.length}, want ${size * 2} for ${goType}`);
  if (!HEX_DIGITS.test(digits)) throw new HexError('invalid hex string');
  const b = Buffer.from(digits, 'hex');
  return new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
}

/**
 * A storage slot as geth reads it for eth_getStorageAt / eth_getProof: any hex up to 32 bytes,
 * left-padded (odd length allowed, as `hexutil.Big`-like keys are common in tooling).
 */
export function decodeSlot(s: string): Uint8Array {
  const digits = checkPrefix(s);
  if (!HEX_DIGITS.test(digits)) throw new HexError('invalid hex string');
  if (digits.length > 64) throw new HexError('hex string too long, want at most 32 bytes');
  const b = Buffer.from(digits.padStart(64, '0'), 'hex');
  return new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
}
