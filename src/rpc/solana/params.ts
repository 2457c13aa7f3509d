/**
 * Parameter rules shared by the Solana methods, with solana-test-validator's texts. Every string
 * that is decoded from base58 or base64 is measured first: base58 decoding is quadratic, so an
 * over-long string is refused before it is decoded (agave's decode_and_deserialize limits).
 */
import { getBase58Codec, getBase64Codec } from '@solana/kit';
import type { SolanaEnv } from './env.js';
import { invalidParam, invalidParams, SolanaRpcError } from './errors.js';

export const b58 = getBase58Codec();
export const b64 = getBase64Codec();

/** A Solana packet: the largest wire transaction (and message) a validator takes. */
export const PACKET_DATA_SIZE = 1232;
/** The longest base58 / base64 text of PACKET_DATA_SIZE bytes (agave's goldens). */
export const MAX_BASE58_SIZE = 1683;
export const MAX_BASE64_SIZE = 1644;
/** The type names agave's messages carry. */
export const TX_TYPE = 'solana_transaction::versioned::VersionedTransaction';
export const MESSAGE_TYPE = 'solana_message::versioned::VersionedMessage';

const BASE58 = /^[1-9A-HJ-NP-Za-km-z]+$/;

export function pubkey(v: unknown, what = 'pubkey'): string {
  if (typeof v !== 'string' || v.length < 32 || v.length > 44 || !BASE58.test(v) || b58.encode(v).length !== 32)
    throw invalidParam(`Invalid ${what}: ${JSON.stringify(typeof v === 'string' && v.length > 64 ? `${v.slice(0, 64)}…` : v)}`);
  return v;
}

/** A base58 signature (64 bytes), checked by length before it is decoded. */
export function signature(v: unknown): string {
  if (typeof v !== 'string' || v.length < 64 || v.length > 88 || !BASE58.test(v) || b58.encode(v).length !== 64) throw invalidParam('Invalid signature');
  return v;
}

export function config(v: unknown): Record<string, unknown> {
  if (v === undefined || v === null) return {};
  if (typeof v !== 'object' || Array.isArray(v)) throw invalidParams('config must be an object');
  return v as Record<string, unknown>;
}

export function u64(v: unknown, what: string): bigint {
  if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < 0) throw invalidParam(`${what} must be a non-negative integer`);
  return BigInt(v);
}

export type Commitment = 'processed' | 'confirmed' | 'finalized';

export function commitment(cfg: Record<string, unknown>): Commitment {
  const c = cfg['commitment'] ?? 'finalized';
  if (c === 'processed' || c === 'confirmed' || c === 'finalized') return c;
  // Deprecated names the validator still maps.
  if (c === 'recent' || c === 'single' || c === 'singleGossip') return c === 'recent' ? 'processed' : 'confirmed';
  if (c === 'max' || c === 'root') return 'finalized';
  throw invalidParams(`unknown variant \`${String(c)}\`, expected one of \`processed\`, \`confirmed\`, \`finalized\``);
}

/** Slots newer than this are not finalized (as on Solana: 32 confirmations). */
export const FINALITY_DEPTH = 32n;

export const ctx = (env: SolanaEnv) => ({ slot: env.ledger.slot, apiVersion: env.version });
export const wrap = (env: SolanaEnv, value: unknown) => ({ context: ctx(env), value });

/**
 * Wire bytes of a base58 or base64 transaction (or message), as agave's decode_and_deserialize
 * checks them: the text's length before decoding, then the decoded length.
 */
export function decodeBinary(encoded: unknown, encoding: unknown, typeName: string, defaultEncoding: 'base58' | 'base64' = 'base58'): Uint8Array {
  if (typeof encoded !== 'string') throw invalidParams('expected an encoded string');
  const enc = encoding ?? defaultEncoding;
  let bytes: Uint8Array;
  if (enc === 'base58') {
    if (encoded.length > MAX_BASE58_SIZE)
      throw new SolanaRpcError(
        -32602,
        `base58 encoded ${typeName} too large: ${encoded.length} bytes (max: encoded/raw ${MAX_BASE58_SIZE}/${PACKET_DATA_SIZE})`,
      );
    const bad = /[^1-9A-HJ-NP-Za-km-z]/.exec(encoded);
    if (bad) throw new SolanaRpcError(-32602, `invalid base58 encoding: InvalidCharacter { character: '${bad[0]}', index: ${bad.index} }`);
    bytes = Uint8Array.from(b58.encode(encoded));
  } else if (enc === 'base64') {
    if (encoded.length > MAX_BASE64_SIZE)
      throw new SolanaRpcError(
        -32602,
        `base64 encoded ${typeName} too large: ${encoded.length} bytes (max: encoded/raw ${MAX_BASE64_SIZE}/${PACKET_DATA_SIZE})`,
      );
    if (!/^[A-Za-z0-9+/]*={0,2}$/.test(encoded) || encoded.length % 4 === 1) throw new SolanaRpcError(-32602, 'invalid base64 encoding: InvalidByte');
    bytes = Uint8Array.from(Buffer.from(encoded, 'base64'));
  } else throw invalidParam(`unsupported encoding: ${String(enc)}. Supported encodings: base58, base64`);
  if (bytes.length > PACKET_DATA_SIZE)
    throw new SolanaRpcError(-32602, `decoded ${typeName} too large: ${bytes.length} bytes (max: ${PACKET_DATA_SIZE} bytes)`);
  return bytes;
}
