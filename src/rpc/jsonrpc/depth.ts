/**
 * How deep a JSON text nests, checked on the raw text before it is parsed: one pass that counts
 * `[` and `{` outside strings. O(n), no recursion, no allocation, so a hostile body (params or an
 * id nested thousands deep) is refused before JSON.parse, JSON.stringify or a decoder recurses
 * into it and overflows the stack.
 *
 * Bytes are scanned as they are: the ASCII characters that matter (`"` `\` `[` `{` `]` `}`)
 * never occur inside a multi-byte UTF-8 sequence, so a body needs no decoding first.
 */

/** Deepest nesting every JSON-RPC family accepts by default (serde_json's recursion limit, as solana-test-validator). */
export const DEFAULT_MAX_JSON_DEPTH = 128;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_SQUARE = 0x5b;
const CLOSE_SQUARE = 0x5d;
const OPEN_CURLY = 0x7b;
const CLOSE_CURLY = 0x7d;

/**
 * True when `text` opens more than `max` nested arrays/objects at some point. `max <= 0` means no
 * limit. Not a validator: malformed text is left to the parser (an unbalanced close only lowers
 * the count).
 */
export function jsonDepthExceeds(text: string | Uint8Array, max: number): boolean {
  if (max <= 0 || text.length <= max) return false; // depth d needs at least d characters
  // Depth d needs d opening brackets: counted first with the native search (a request holds a
  // few; ~10× cheaper than the scan), the scan runs only for a text with more than `max`.
  if (!moreOpensThan(text, max)) return false;
  return typeof text === 'string' ? scanString(text, max) : scanBytes(text, max);
}

/** Whether `text` holds more than `max` `[` and `{` in all (inside strings too: an upper bound of the depth). */
function moreOpensThan(text: string | Uint8Array, max: number): boolean {
  let n = 0;
  if (typeof text === 'string') {
    for (let i = text.indexOf('['); i >= 0; i = text.indexOf('[', i + 1)) if (++n > max) return true;
    for (let i = text.indexOf('{'); i >= 0; i = text.indexOf('{', i + 1)) if (++n > max) return true;
  } else {
    for (let i = text.indexOf(OPEN_SQUARE); i >= 0; i = text.indexOf(OPEN_SQUARE, i + 1)) if (++n > max) return true;
    for (let i = text.indexOf(OPEN_CURLY); i >= 0; i = text.indexOf(OPEN_CURLY, i + 1)) if (++n > max) return true;
  }
  return false;
}

// Two copies of one loop, so each stays monomorphic on the hot path.
function scanString(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === BACKSLASH) i++;
      else if (c === QUOTE) inString = false;
    } else if (c === QUOTE) inString = true;
    else if (c === OPEN_SQUARE || c === OPEN_CURLY) {
      if (++depth > max) return true;
    } else if (c === CLOSE_SQUARE || c === CLOSE_CURLY) depth--;
  }
  return false;
}

function scanBytes(bytes: Uint8Array, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < bytes.length; i++) {
    const c = bytes[i]!;
    if (inString) {
      if (c === BACKSLASH) i++;
      else if (c === QUOTE) inString = false;
    } else if (c === QUOTE) inString = true;
    else if (c === OPEN_SQUARE || c === OPEN_CURLY) {
      if (++depth > max) return true;
    } else if (c === CLOSE_SQUARE || c === CLOSE_CURLY) depth--;
  }
  return false;
}

/** The reason given with a refused body (`data` where a family sends one). */
export function depthReason(max: number): string {
  return `request nests deeper than ${max} levels of arrays and objects`;
}
