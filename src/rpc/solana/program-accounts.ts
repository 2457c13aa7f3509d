/**
 * getProgramAccounts: the accounts a program owns (LiteSVM's owner scan), filtered by `dataSize`
 * and `memcmp` (agave's rules: at most 4 filters, memcmp bytes at most 128, their text measured
 * before it is decoded), encoded base58 / base64 / jsonParsed, with `dataSlice` and `withContext`.
 */
import type { Method } from './methods.js';
import { dataSlice, encodeRaw } from './accounts.js';
import { invalidParam, invalidParams } from './errors.js';
import { b58, config, pubkey, u64, wrap } from './params.js';

/** agave's MAX_GET_PROGRAM_ACCOUNT_FILTERS, and the memcmp limits of its filter.rs. */
export const MAX_FILTERS = 4;
const MAX_MEMCMP_BYTES = 128;
const MAX_MEMCMP_BASE58 = 175;
const MAX_MEMCMP_BASE64 = 172;

type Filter = { dataSize: number } | { offset: number; bytes: Uint8Array };

function memcmpBytes(m: Record<string, unknown>): Uint8Array {
  const raw = m['bytes'];
  const enc = m['encoding'] ?? 'base58';
  let bytes: Uint8Array;
  if (Array.isArray(raw)) {
    if (raw.length > MAX_MEMCMP_BYTES) throw invalidParam('DataTooLarge');
    if (!raw.every((b) => Number.isInteger(b) && b >= 0 && b <= 255)) throw invalidParams('memcmp bytes must be bytes');
    return Uint8Array.from(raw as number[]);
  }
  if (typeof raw !== 'string') throw invalidParams('memcmp bytes must be a string');
  if (enc === 'base58' || enc === 'binary') {
    if (raw.length > MAX_MEMCMP_BASE58) throw invalidParam('DataTooLarge');
    if (!/^[1-9A-HJ-NP-Za-km-z]*$/.test(raw)) throw invalidParam('Base58DecodeError');
    bytes = Uint8Array.from(b58.encode(raw));
  } else if (enc === 'base64') {
    if (raw.length > MAX_MEMCMP_BASE64) throw invalidParam('DataTooLarge');
    if (!/^[A-Za-z0-9+/]*={0,2}$/.test(raw)) throw invalidParam('Base64DecodeError');
    bytes = Uint8Array.from(Buffer.from(raw, 'base64'));
  } else throw invalidParams(`unknown memcmp encoding: ${String(enc)}`);
  if (bytes.length > MAX_MEMCMP_BYTES) throw invalidParam('DataTooLarge');
  return bytes;
}

function parseFilters(v: unknown): Filter[] {
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v)) throw invalidParams('filters must be an array');
  if (v.length > MAX_FILTERS) throw invalidParams(`Too many filters provided; max ${MAX_FILTERS}`);
  return v.map((f): Filter => {
    const c = config(f);
    if (c['dataSize'] !== undefined) return { dataSize: Number(u64(c['dataSize'], 'dataSize')) };
    if (c['memcmp'] !== undefined) {
      const m = config(c['memcmp']);
      return { offset: Number(u64(m['offset'], 'memcmp offset')), bytes: memcmpBytes(m) };
    }
    throw invalidParams('unknown filter: expected memcmp or dataSize');
  });
}

function allows(filters: Filter[], data: Uint8Array): boolean {
  for (const f of filters) {
    if ('dataSize' in f) {
      if (data.length !== f.dataSize) return false;
    } else {
      if (f.offset + f.bytes.length > data.length) return false;
      for (let i = 0; i < f.bytes.length; i++) if (data[f.offset + i] !== f.bytes[i]) return false;
    }
  }
  return true;
}

export const PROGRAM_ACCOUNT_METHODS: Readonly<Record<string, Method>> = {
  getProgramAccounts: (env, p) => {
    const program = pubkey(p[0], 'program id');
    const cfg = config(p[1]);
    const filters = parseFilters(cfg['filters']);
    const slice = dataSlice(cfg['dataSlice']);
    const out = [];
    for (const a of env.ledger.programAccounts(program)) {
      if (!allows(filters, a.data)) continue;
      out.push({ pubkey: a.address, account: encodeRaw(env, a, cfg['encoding'], slice) });
    }
    return cfg['withContext'] === true ? wrap(env, out) : out;
  },
};
