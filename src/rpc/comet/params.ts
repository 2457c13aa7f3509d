/**
 * Param decoders: one per Go type a v0.38 handler takes, each able to read the value from a
 * JSON-RPC `params` member (cmtjson rules) and from a URI query value (http_uri_handler rules).
 *
 *   JSON-RPC   int64/int/uint  must be a JSON string ("5"); a bare number is refused
 *              []byte          base64 string           HexBytes   hex string without 0x
 *   URI        ^-?[0-9]+$ for an integer type → that integer
 *              0x… → hex-decoded, only for string / []byte / HexBytes targets
 *              "quoted" for []byte / HexBytes → the raw bytes of the string
 *              anything else → decoded as JSON (so strings must be quoted: query="tm.event='Tx'")
 *
 * Error texts follow Go's (encoding/json, encoding/hex, libs/json) so clients see the same words.
 */
import { ParamError } from './errors.js';

export interface Param<N extends string = string, T = unknown> {
  readonly name: N;
  /** The Go type, as shown in docs and the endpoint list. */
  readonly goType: string;
  /** The value a missing or null param takes (Go's zero value; undefined for a nil pointer). */
  readonly zero: T;
  /** A JSON-RPC `params` member, already parsed. Throws ParamError. */
  fromJson(value: unknown): T;
  /** A non-empty URI query value. Throws ParamError. */
  fromUri(text: string): T;
}

/** Evidence as given: the amino `{type, value}` wrapper, checked by the handler. */
export interface AminoJson {
  type: string;
  value: unknown;
}

const INT_RE = /^-?[0-9]+$/;
const BASE64_CHARS = /[A-Za-z0-9+/]/;
const utf8 = new TextEncoder();

function fail(reason: string): never {
  throw new ParamError({ reason });
}

/** Go's name for the JSON type of a value, as in "json: cannot unmarshal X into …". */
function jsonKind(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'object') return 'object';
  return typeof v; // string, number, boolean → Go says "bool" for the latter
}

function cannotUnmarshal(v: unknown, goType: string): never {
  const kind = jsonKind(v);
  fail(`json: cannot unmarshal ${kind === 'boolean' ? 'bool' : kind} into Go value of type ${goType}`);
}

/** Parses URI text as JSON, failing with a Go-like syntax error. */
function parseJsonText(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    const c = text.trimStart()[0];
    if (c === undefined) fail('unexpected end of JSON input');
    if (!/[-0-9"{[tfn]/.test(c)) fail(`invalid character '${c}' looking for beginning of value`);
    fail(`invalid character in JSON value ${JSON.stringify(text.length > 64 ? `${text.slice(0, 64)}…` : text)}`);
  }
}

/** Go's hex.DecodeString. */
export function decodeGoHex(s: string): Uint8Array {
  const invalidAt = (i: number): never => {
    const ch = s[i]!;
    fail(`encoding/hex: invalid byte: U+${ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')} '${ch}'`);
  };
  const isHex = (i: number) => /[0-9a-fA-F]/.test(s[i]!);
  const even = s.length - (s.length % 2);
  for (let i = 0; i < even; i++) if (!isHex(i)) invalidAt(i);
  if (s.length % 2 === 1) {
    if (!isHex(s.length - 1)) invalidAt(s.length - 1);
    fail('encoding/hex: odd length hex string');
  }
  return new Uint8Array(Buffer.from(s, 'hex'));
}

/** Go's base64.StdEncoding (padding required), as encoding/json decodes `[]byte`; same error offsets. */
export function decodeGoBase64(s: string): Uint8Array {
  const bad = (at: number): never => fail(`illegal base64 data at input byte ${at}`);
  let si = 0;
  quanta: while (si < s.length) {
    const start = si;
    for (let j = 0; j < 4; j++) {
      if (si === s.length) bad(start);
      const c = s[si++]!;
      if (c === '=') {
        if (j < 2) bad(si - 1);
        if (j === 2) {
          if (si === s.length) bad(s.length);
          if (s[si] !== '=') bad(si - 1);
          si++;
        }
        if (si < s.length) bad(si);
        break quanta;
      }
      if (!BASE64_CHARS.test(c)) bad(si - 1);
    }
  }
  return new Uint8Array(Buffer.from(s, 'base64'));
}

/** A decimal integer string into a JS number, checked against the Go type's range. */
function goInteger(digits: string, goType: 'int64' | 'int' | 'uint'): number {
  if (!INT_RE.test(digits)) {
    if (/^-?[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)?$/.test(digits)) fail(`json: cannot unmarshal number ${digits} into Go value of type ${goType}`);
    const c = digits[0];
    if (c === undefined) fail('unexpected end of JSON input');
    fail(`invalid character '${c}' looking for beginning of value`);
  }
  const n = BigInt(digits);
  const min = goType === 'uint' ? 0n : -(2n ** 63n);
  const max = goType === 'uint' ? 2n ** 64n - 1n : 2n ** 63n - 1n;
  if (n < min || n > max) fail(`json: cannot unmarshal number ${digits} into Go value of type ${goType}`);
  return Number(n);
}

/** cmtjson: a 64-bit integer is a JSON string holding the number. */
function int64FromJson(v: unknown, goType: 'int64' | 'int' | 'uint'): number {
  if (typeof v !== 'string') fail(`invalid 64-bit integer encoding ${JSON.stringify(JSON.stringify(v))}, expected string`);
  return goInteger(v, goType);
}

function stringFromJson(v: unknown): string {
  if (typeof v !== 'string') cannotUnmarshal(v, 'string');
  return v;
}

function boolFromJson(v: unknown): boolean {
  if (typeof v !== 'boolean') cannotUnmarshal(v, 'bool');
  return v;
}

function bytesFromJson(v: unknown): Uint8Array {
  if (typeof v !== 'string') cannotUnmarshal(v, '[]uint8');
  return decodeGoBase64(v);
}

function hexBytesFromJson(v: unknown): Uint8Array {
  if (typeof v !== 'string') fail(`invalid hex string: ${JSON.stringify(v)}`);
  return decodeGoHex(v);
}

function stringsFromJson(v: unknown): string[] {
  if (!Array.isArray(v)) cannotUnmarshal(v, '[]json.RawMessage');
  return v.map(stringFromJson);
}

/** cmtjson interface decoding: `{"type": <registered name>, "value": …}`. */
function aminoFromJson(v: unknown, known: readonly string[]): AminoJson {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) cannotUnmarshal(v, 'interface');
  const o = v as Record<string, unknown>;
  if (typeof o.type !== 'string' || o.type === '') fail('JSON encoding has no type');
  if (!known.includes(o.type)) fail(`unknown type "${o.type}"`);
  if (o.value === undefined || o.value === null) fail('JSON encoding has no value');
  return { type: o.type, value: o.value };
}

type UriKind = 'int' | 'string' | 'bytes' | 'other';

interface Spec<T> {
  goType: string;
  /** reflect.Kind().String() of the (pointed-to) type, for "got a hex string arg" errors. */
  kind: string;
  uriKind: UriKind;
  zero: T;
  json(v: unknown): T;
  /** For byte-slice targets: the bytes → value conversion used by the 0x and "quoted" URI forms. */
  fromBytes?(b: Uint8Array): T;
  /** For integer targets. */
  fromDigits?(digits: string): T;
}

function makeParam<N extends string, T>(name: N, spec: Spec<T>): Param<N, T> {
  return Object.freeze({
    name,
    goType: spec.goType,
    zero: spec.zero,
    fromJson(value: unknown): T {
      if (value === undefined || value === null) return spec.zero;
      return spec.json(value);
    },
    fromUri(text: string): T {
      if (spec.uriKind === 'int' && INT_RE.test(text)) return spec.fromDigits!(text);
      if (text.startsWith('0x') || text.startsWith('0X')) {
        if (spec.uriKind !== 'string' && spec.uriKind !== 'bytes') fail(`got a hex string arg, but expected '${spec.kind}'`);
        const raw = decodeGoHex(text.slice(2));
        return spec.uriKind === 'string' ? (spec.json(Buffer.from(raw).toString('utf8')) as T) : spec.fromBytes!(raw);
      }
      if (spec.uriKind === 'bytes' && text.length >= 2 && text.startsWith('"') && text.endsWith('"')) {
        const s = parseJsonText(text);
        if (typeof s !== 'string') cannotUnmarshal(s, 'string');
        return spec.fromBytes!(utf8.encode(s));
      }
      const value = parseJsonText(text);
      return value === null ? spec.zero : spec.json(value);
    },
  });
}

/** A Go integer (`goType`, `*T` for a pointer, whose zero is undefined), range-checked as `kind` from JSON and from URI digits alike. */
function goInt<N extends string, Z extends 0 | undefined>(name: N, goType: string, kind: 'int64' | 'int' | 'uint', zero: Z): Param<N, number | Z> {
  return makeParam<N, number | Z>(name, {
    goType,
    kind,
    uriKind: 'int',
    zero,
    json: (v) => int64FromJson(v, kind),
    fromDigits: (d) => goInteger(d, kind),
  });
}

/** Decoders by Go type. Pointer types decode a missing value to undefined. */
export const p = {
  int64: <N extends string>(name: N) => goInt(name, 'int64', 'int64', 0),
  int64Ptr: <N extends string>(name: N) => goInt(name, '*int64', 'int64', undefined),
  intPtr: <N extends string>(name: N) => goInt(name, '*int', 'int', undefined),
  uint: <N extends string>(name: N) => goInt(name, 'uint', 'uint', 0),
  bool: <N extends string>(name: N) => makeParam<N, boolean>(name, { goType: 'bool', kind: 'bool', uriKind: 'other', zero: false, json: boolFromJson }),
  string: <N extends string>(name: N) => makeParam<N, string>(name, { goType: 'string', kind: 'string', uriKind: 'string', zero: '', json: stringFromJson }),
  bytes: <N extends string>(name: N) =>
    makeParam<N, Uint8Array>(name, { goType: '[]byte', kind: 'slice', uriKind: 'bytes', zero: new Uint8Array(0), json: bytesFromJson, fromBytes: (b) => b }),
  hexBytes: <N extends string>(name: N) =>
    makeParam<N, Uint8Array>(name, {
      goType: 'bytes.HexBytes',
      kind: 'slice',
      uriKind: 'bytes',
      zero: new Uint8Array(0),
      json: hexBytesFromJson,
      fromBytes: (b) => b,
    }),
  strings: <N extends string>(name: N) =>
    makeParam<N, string[]>(name, { goType: '[]string', kind: 'slice', uriKind: 'other', zero: [], json: stringsFromJson }),
  /** An amino interface value whose `type` must be one of `known`. */
  amino: <N extends string>(name: N, goType: string, known: readonly string[]) =>
    makeParam<N, AminoJson | undefined>(name, { goType, kind: 'interface', uriKind: 'other', zero: undefined, json: (v) => aminoFromJson(v, known) }),
} as const;
