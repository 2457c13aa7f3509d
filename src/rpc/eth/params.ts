/**
 * Typed positional params for the routes table. A `Param<T>` names one argument and decodes it;
 * `decodeParams` applies a list of them to the raw `params` array with geth's rules and texts:
 * `missing value for required argument N`, `too many arguments, want at most N`, and
 * `invalid argument N: <json/hexutil error>` (all -32602).
 */
import { Address } from '@ethereumjs/util';
import { HexError, InvalidParamsError } from './errors.js';
import { decodeData, decodeFixed, decodeQuantity, decodeSlot } from './hex.js';

/** Thrown by a decoder: the detail after `invalid argument N: `. */
export class ParamDecodeError extends Error {
  override name = 'ParamDecodeError';
}

export type Decoder<T> = (raw: unknown) => T;

export interface Param<T> {
  readonly name: string;
  /** Go-ish type name, for docs and errors. */
  readonly type: string;
  readonly optional: boolean;
  readonly decode: Decoder<T>;
}

export const required = <T>(name: string, type: string, decode: Decoder<T>): Param<T> => ({ name, type, optional: false, decode });

/** Optional: absent or `null` gives `undefined` (or the default). */
export const optional = <T>(name: string, type: string, decode: Decoder<T>): Param<T | undefined> => ({
  name,
  type,
  optional: true,
  decode: (raw) => (raw === undefined || raw === null ? undefined : decode(raw)),
});

export type ParamValues<P extends readonly Param<unknown>[]> = { -readonly [K in keyof P]: P[K] extends Param<infer T> ? T : never };

/** Applies `specs` to the raw params (array, or absent = []). By-name objects are refused as geth does. */
export function decodeParams<P extends readonly Param<unknown>[]>(specs: P, raw: unknown): ParamValues<P> {
  let args: unknown[];
  if (raw === undefined || raw === null) args = [];
  else if (Array.isArray(raw)) args = raw;
  else throw new InvalidParamsError('non-array args');
  if (args.length > specs.length) throw new InvalidParamsError(`too many arguments, want at most ${specs.length}`);
  const out = new Array(specs.length);
  for (let i = 0; i < specs.length; i++) {
    const spec = specs[i]!;
    const v = args[i];
    if (!spec.optional && (v === undefined || v === null)) {
      throw new InvalidParamsError(`missing value for required argument ${i}`);
    }
    try {
      out[i] = spec.decode(v);
    } catch (e) {
      if (e instanceof ParamDecodeError || e instanceof HexError) throw new InvalidParamsError(e.message, i);
      throw e;
    }
  }
  return out as ParamValues<P>;
}

// ── JSON type errors in Go's words ──────────────────────────────────────────────────────────

export function jsonKind(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'object') return 'object';
  if (typeof v === 'boolean') return 'bool';
  return typeof v;
}

/** `json: cannot unmarshal X into Go value of type T` (or `… Go struct field S.f of type T`). */
export function typeError(what: string, goType: string, field?: string): ParamDecodeError {
  const into = field ? `Go struct field ${field} of type ${goType}` : `Go value of type ${goType}`;
  return new ParamDecodeError(`json: cannot unmarshal ${what} into ${into}`);
}

/** Runs a hexutil decoder on a JSON value with geth's wrapping of its errors. */
function hexField<T>(raw: unknown, goType: string, field: string | undefined, fn: (s: string) => T): T {
  if (typeof raw !== 'string') throw typeError('non-string', goType, field);
  try {
    return fn(raw);
  } catch (e) {
    if (!(e instanceof HexError)) throw e;
    if (e.message.startsWith('hex string has length')) throw new ParamDecodeError(e.message);
    throw typeError(e.message, goType, field);
  }
}

// ── primitive decoders (`field` names a struct field for nested values) ─────────────────────

export const addressOf =
  (field?: string): Decoder<Address> =>
  (raw) =>
    new Address(hexField(raw, 'common.Address', field, (s) => decodeFixed(s, 20, 'common.Address')));

export const hashOf =
  (field?: string): Decoder<Uint8Array> =>
  (raw) =>
    hexField(raw, 'common.Hash', field, (s) => decodeFixed(s, 32, 'common.Hash'));

export const bytesOf =
  (field?: string): Decoder<Uint8Array> =>
  (raw) =>
    hexField(raw, 'hexutil.Bytes', field, decodeData);

export const uint64Of =
  (field?: string): Decoder<bigint> =>
  (raw) =>
    hexField(raw, 'hexutil.Uint64', field, (s) => decodeQuantity(s, 64));

export const bigOf =
  (field?: string): Decoder<bigint> =>
  (raw) =>
    hexField(raw, '*hexutil.Big', field, (s) => decodeQuantity(s, 256));

export const slotOf: Decoder<Uint8Array> = (raw) => hexField(raw, 'common.Hash', undefined, decodeSlot);

export const boolOf: Decoder<boolean> = (raw) => {
  if (typeof raw !== 'boolean') throw typeError(jsonKind(raw), 'bool');
  return raw;
};

export const stringOf: Decoder<string> = (raw) => {
  if (typeof raw !== 'string') throw typeError(jsonKind(raw), 'string');
  return raw;
};

/** A JSON number or a hex quantity (eth_feeHistory's blockCount accepts both, as geth's math.HexOrDecimal64). */
export const hexOrDecimalOf: Decoder<bigint> = (raw) => {
  if (typeof raw === 'number' && Number.isSafeInteger(raw) && raw >= 0) return BigInt(raw);
  if (typeof raw === 'string') {
    if (/^0[xX]/.test(raw)) return hexField(raw, 'math.HexOrDecimal64', undefined, (s) => decodeQuantity(s, 64));
    if (/^\d+$/.test(raw)) return BigInt(raw);
    throw new ParamDecodeError(`invalid hex or decimal integer ${JSON.stringify(raw)}`);
  }
  throw typeError(jsonKind(raw), 'math.HexOrDecimal64');
};

export const arrayOf =
  <T>(item: Decoder<T>, goType: string): Decoder<T[]> =>
  (raw) => {
    if (!Array.isArray(raw)) throw typeError(jsonKind(raw), goType);
    return raw.map(item);
  };

export const objectOf = (raw: unknown, goType: string): Record<string, unknown> => {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw typeError(jsonKind(raw), goType);
  return raw as Record<string, unknown>;
};

/** Accepts anything (the handler validates further). */
export const anyOf: Decoder<unknown> = (raw) => raw;
