/**
 * Byte/string conversions used across the node. Node's Buffer does the work (it is the fastest
 * codec available), but every function returns a plain Uint8Array so callers never see Buffer.
 */
import { InvalidBase64Error, InvalidHexError } from './errors.js';

const HEX_RE = /^[0-9a-fA-F]*$/;
const BASE64_RE = /^[A-Za-z0-9+/]*={0,2}$/;
const textEncoder = new TextEncoder();

function asBuffer(b: Uint8Array): Buffer {
  return Buffer.from(b.buffer, b.byteOffset, b.byteLength);
}

/** Lower-case hex without a 0x prefix. */
export function toHex(b: Uint8Array): string {
  return asBuffer(b).toString('hex');
}

/** Lower-case hex with a 0x prefix (Ethereum's unformatted data; "0x" when empty). */
export function toPrefixedHex(b: Uint8Array): string {
  return `0x${asBuffer(b).toString('hex')}`;
}

/** Upper-case hex without a 0x prefix (CometBFT `HexBytes`). */
export function toHexUpper(b: Uint8Array): string {
  return asBuffer(b).toString('hex').toUpperCase();
}

/** Parses hex with an optional 0x/0X prefix; throws InvalidHexError on odd length or bad digits. */
export function fromHex(s: string): Uint8Array {
  const body = s.startsWith('0x') || s.startsWith('0X') ? s.slice(2) : s;
  if (body.length % 2 !== 0) throw new InvalidHexError(s, 'odd length');
  if (!HEX_RE.test(body)) throw new InvalidHexError(s, 'invalid character');
  return new Uint8Array(Buffer.from(body, 'hex'));
}

/** Standard base64 with padding (Go's `base64.StdEncoding`, used by CometBFT JSON for `[]byte`). */
export function toBase64(b: Uint8Array): string {
  return asBuffer(b).toString('base64');
}

/**
 * Parses standard base64 (padding optional). Buffer silently skips bad characters, so the text is
 * checked first and InvalidBase64Error is thrown instead.
 */
export function fromBase64(s: string): Uint8Array {
  if (!BASE64_RE.test(s)) throw new InvalidBase64Error(s);
  const padded = s.endsWith('=');
  if (padded ? s.length % 4 !== 0 : s.length % 4 === 1) throw new InvalidBase64Error(s);
  return new Uint8Array(Buffer.from(s, 'base64'));
}

export function bytesEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** Lexicographic order of two byte strings (Go `bytes.Compare`): negative, zero or positive. */
export function compareBytes(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const d = a[i]! - b[i]!;
    if (d !== 0) return d;
  }
  return a.length - b.length;
}

export function concatBytes(...parts: Uint8Array[]): Uint8Array {
  let total = 0;
  for (const p of parts) total += p.length;
  const out = new Uint8Array(total);
  let offset = 0;
  for (const p of parts) {
    out.set(p, offset);
    offset += p.length;
  }
  return out;
}

/** UTF-8 bytes of a string. */
export function utf8(s: string): Uint8Array {
  return textEncoder.encode(s);
}
