/**
 * Key layout helpers. Keys are utf8 strings whose parts are joined by NUL; numbers are zero-padded
 * decimals so keys sort by height. Free-form parts (event types, keys, values) are escaped so they
 * never contain NUL, which keeps every `part\0` prefix unambiguous:
 *   \x00 → \x01\x01,  \x01 → \x01\x02
 */

export const SEP = '\x00';

/** Fits every safe integer (2^53 has 16 digits). */
export function padHeight(height: number): string {
  return String(height).padStart(16, '0');
}

/** Fits every uint32 (a tx index). */
export function padIndex(index: number): string {
  return String(index).padStart(10, '0');
}

export function escapePart(s: string): string {
  return /[\x00\x01]/.test(s) ? s.replace(/[\x00\x01]/g, (c) => (c === '\x00' ? '\x01\x01' : '\x01\x02')) : s;
}

export function unescapePart(s: string): string {
  return s.includes('\x01') ? s.replace(/\x01([\x01\x02])/g, (_, c: string) => (c === '\x01' ? '\x00' : '\x01')) : s;
}

/** Parts joined by NUL (parts must already be escaped or be fixed-width numbers). */
export function joinKey(...parts: string[]): string {
  return parts.join(SEP);
}

/** The prefix shared by every key that starts with these parts. */
export function keyPrefix(...parts: string[]): string {
  return parts.join(SEP) + SEP;
}

/** The smallest key above every key starting with `prefix` (a `keyPrefix`), for `lt` bounds. */
export function prefixEnd(prefix: string): string {
  return `${prefix.slice(0, -1)}\x01`;
}
