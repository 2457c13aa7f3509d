/**
 * Web3 Secret Storage v3 (the keystore file format of geth, Parity and every wallet):
 *
 *   DK   = scrypt(password, salt, n, r, p, 32)      (or PBKDF2-HMAC-SHA256 with c rounds)
 *   ct   = AES-128-CTR(key = DK[0..16], iv)(private key)
 *   mac  = keccak256(DK[16..32] ‖ ct)
 *
 * Encryption writes scrypt; decryption reads scrypt and pbkdf2. The KDFs are @noble/hashes' async
 * versions (they yield to the event loop), AES is node:crypto.
 */
import { createCipheriv, createDecipheriv, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { pbkdf2Async } from '@noble/hashes/pbkdf2.js';
import { scryptAsync } from '@noble/hashes/scrypt.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { keccak256 } from '../../crypto/keccak.js';
import { DecryptError, KeyFileError } from './errors.js';
import { ethAddressOfPrivateKey } from '../../crypto/hd-secp256k1.js';

export interface ScryptParams {
  n: number;
  r: number;
  p: number;
  dklen: number;
  salt: string;
}

export interface Pbkdf2Params {
  c: number;
  dklen: number;
  prf: 'hmac-sha256';
  salt: string;
}

export interface KeyFileV3 {
  /** Lower-case hex without 0x (geth writes it; optional in the spec). */
  address?: string;
  crypto: {
    cipher: 'aes-128-ctr';
    ciphertext: string;
    cipherparams: { iv: string };
    kdf: 'scrypt' | 'pbkdf2';
    kdfparams: ScryptParams | Pbkdf2Params;
    mac: string;
  };
  id: string;
  version: 3;
}

/** geth's scrypt settings: standard (keystore default) and light (`--lightkdf`). */
export const STANDARD_SCRYPT = Object.freeze({ n: 1 << 18, r: 8, p: 1 });
export const LIGHT_SCRYPT = Object.freeze({ n: 1 << 12, r: 8, p: 6 });

export type ScryptCost = { n: number; r: number; p: number };

export async function encryptKey(privateKey: Uint8Array, password: string, cost: ScryptCost = LIGHT_SCRYPT): Promise<KeyFileV3> {
  const salt = randomBytes(32);
  const iv = randomBytes(16);
  const dk = await scryptAsync(utf8(password), salt, { N: cost.n, r: cost.r, p: cost.p, dkLen: 32 });
  const cipher = createCipheriv('aes-128-ctr', dk.subarray(0, 16), iv);
  const ciphertext = Buffer.concat([cipher.update(privateKey), cipher.final()]);
  return {
    address: Buffer.from(ethAddressOfPrivateKey(privateKey)).toString('hex'),
    crypto: {
      cipher: 'aes-128-ctr',
      ciphertext: ciphertext.toString('hex'),
      cipherparams: { iv: iv.toString('hex') },
      kdf: 'scrypt',
      kdfparams: { dklen: 32, n: cost.n, p: cost.p, r: cost.r, salt: salt.toString('hex') },
      mac: Buffer.from(mac(dk, ciphertext)).toString('hex'),
    },
    id: randomUUID(),
    version: 3,
  };
}

/** The private key of a v3 key file; DecryptError for a wrong password, KeyFileError for a bad file. */
export async function decryptKey(file: unknown, password: string): Promise<Uint8Array> {
  const f = parseKeyFile(file);
  const c = f.crypto;
  const dk = await deriveKey(c.kdf, c.kdfparams, password);
  const ciphertext = hexBytes(c.ciphertext, 'ciphertext');
  const expected = hexBytes(c.mac, 'mac');
  const actual = mac(dk, ciphertext);
  if (expected.length !== actual.length || !timingSafeEqual(expected, actual)) throw new DecryptError();
  const decipher = createDecipheriv('aes-128-ctr', dk.subarray(0, 16), hexBytes(c.cipherparams.iv, 'iv'));
  return new Uint8Array(Buffer.concat([decipher.update(ciphertext), decipher.final()]));
}

/** Checks the shape of a parsed key file (fields are case-insensitive for `crypto`, as geth reads them). */
export function parseKeyFile(raw: unknown): KeyFileV3 {
  if (typeof raw !== 'object' || raw === null) throw new KeyFileError('not a JSON object');
  const o = raw as Record<string, unknown>;
  if (o.version !== 3) throw new KeyFileError(`unsupported version ${String(o.version)}`);
  const crypto = (o.crypto ?? o.Crypto) as KeyFileV3['crypto'] | undefined;
  if (typeof crypto !== 'object' || crypto === null) throw new KeyFileError('missing crypto');
  if (crypto.cipher !== 'aes-128-ctr') throw new KeyFileError(`cipher not supported: ${String(crypto.cipher)}`);
  if (crypto.kdf !== 'scrypt' && crypto.kdf !== 'pbkdf2') throw new KeyFileError(`kdf not supported: ${String(crypto.kdf)}`);
  if (typeof crypto.kdfparams !== 'object' || crypto.kdfparams === null) throw new KeyFileError('missing kdfparams');
  return { ...(o as unknown as KeyFileV3), crypto };
}

async function deriveKey(kdf: 'scrypt' | 'pbkdf2', params: ScryptParams | Pbkdf2Params, password: string): Promise<Uint8Array> {
  const salt = hexBytes(params.salt, 'salt');
  if (params.dklen < 32) throw new KeyFileError('dklen must be at least 32');
  if (kdf === 'scrypt') {
    const p = params as ScryptParams;
    return scryptAsync(utf8(password), salt, { N: p.n, r: p.r, p: p.p, dkLen: p.dklen, maxmem: 2 ** 31 });
  }
  const p = params as Pbkdf2Params;
  if (p.prf !== 'hmac-sha256') throw new KeyFileError(`prf not supported: ${String(p.prf)}`);
  return pbkdf2Async(sha256, utf8(password), salt, { c: p.c, dkLen: p.dklen });
}

function mac(dk: Uint8Array, ciphertext: Uint8Array): Uint8Array {
  const body = new Uint8Array(16 + ciphertext.length);
  body.set(dk.subarray(16, 32), 0);
  body.set(ciphertext, 16);
  return keccak256(body);
}

function hexBytes(s: unknown, what: string): Buffer {
  if (typeof s !== 'string' || !/^(0x)?([0-9a-fA-F]{2})*$/.test(s)) throw new KeyFileError(`bad ${what}`);
  return Buffer.from(s.replace(/^0x/, ''), 'hex');
}

function utf8(s: string): Uint8Array {
  return new TextEncoder().encode(s);
}
