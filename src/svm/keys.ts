/**
 * Solana keys of the dev mnemonic: SLIP-0010 ed25519 derivation (hardened steps only) at
 * m/44'/501'/i'/0', as the Solana CLI and Phantom derive them, on node:crypto.
 */
import { createHmac } from 'node:crypto';
import { ed25519FromSeed } from '../crypto/ed25519.js';
import { mnemonicToSeed } from '../crypto/hd-secp256k1.js';
import { DEV_MNEMONIC } from '../genesis/dev-accounts.js';

const HARDENED = 0x80000000;

export interface SolanaKeypair {
  /** base58 public key (the address). */
  address: string;
  publicKey: Uint8Array;
  /** 64 bytes: seed ‖ public key (the Solana CLI's keypair file layout). */
  secretKey: Uint8Array;
}

/** SLIP-0010 for ed25519: every index hardened. */
export function slip10Ed25519(seed: Uint8Array, path: string): { key: Uint8Array; chainCode: Uint8Array } {
  let i = createHmac('sha512', 'ed25519 seed').update(seed).digest();
  let key = i.subarray(0, 32);
  let chainCode = i.subarray(32);
  const parts = path.split('/');
  if (parts[0] !== 'm') throw new Error(`SLIP-0010 path must start with "m": ${path}`);
  for (const part of parts.slice(1)) {
    const m = /^(\d+)'$/.exec(part);
    if (!m || Number(m[1]) >= HARDENED) throw new Error(`SLIP-0010 ed25519 path segments must be hardened: "${part}" in ${path}`);
    const data = Buffer.alloc(37);
    key.forEach((b, j) => (data[1 + j] = b));
    data.writeUInt32BE(Number(m[1]) + HARDENED, 33);
    i = createHmac('sha512', chainCode).update(data).digest();
    key = i.subarray(0, 32);
    chainCode = i.subarray(32);
  }
  return { key: Uint8Array.from(key), chainCode: Uint8Array.from(chainCode) };
}

export function keypairFromSeed(seed32: Uint8Array): SolanaKeypair {
  const k = ed25519FromSeed(seed32);
  const secretKey = new Uint8Array(64);
  secretKey.set(k.seed, 0);
  secretKey.set(k.publicKey, 32);
  return { address: base58(k.publicKey), publicKey: k.publicKey, secretKey };
}

const cache = new Map<string, SolanaKeypair[]>();

/** The first `count` Solana accounts of `mnemonic` (m/44'/501'/i'/0'). */
export function deriveSolanaAccounts(mnemonic: string, count: number): SolanaKeypair[] {
  const key = `${mnemonic}\n${count}`;
  const hit = cache.get(key);
  if (hit) return hit;
  const seed = mnemonicToSeed(mnemonic);
  const out = Array.from({ length: count }, (_, i) => keypairFromSeed(slip10Ed25519(seed, `m/44'/501'/${i}'/0'`).key));
  cache.set(key, out);
  return out;
}

/**
 * The dev Solana accounts (the SVM chain's genesis funds each): `count` keypairs of `mnemonic`
 * (default: the dev mnemonic) at m/44'/501'/i'/0', each with its base58 address and its 64-byte
 * secret key (what `createKeyPairSignerFromBytes` of @solana/kit and a Solana CLI keypair file take).
 */
export function devSolanaKeypairs(mnemonic: string = DEV_MNEMONIC, count = 10): SolanaKeypair[] {
  if (!Number.isSafeInteger(count) || count < 0) throw new Error(`devSolanaKeypairs: count must be a non-negative integer, got ${count}`);
  // Copies: callers may keep or clear the bytes without touching the chain's cached keys.
  return deriveSolanaAccounts(mnemonic, count).map((k) => ({
    address: k.address,
    publicKey: Uint8Array.from(k.publicKey),
    secretKey: Uint8Array.from(k.secretKey),
  }));
}

const ALPHABET = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';

/** Base58 (Bitcoin alphabet) of a short byte string such as a 32-byte key, without loading @solana/kit. */
function base58(bytes: Uint8Array): string {
  const digits: number[] = [];
  for (const byte of bytes) {
    let carry = byte;
    for (let i = 0; i < digits.length; i++) {
      carry += digits[i]! << 8;
      digits[i] = carry % 58;
      carry = (carry / 58) | 0;
    }
    while (carry > 0) {
      digits.push(carry % 58);
      carry = (carry / 58) | 0;
    }
  }
  let out = '';
  for (let i = 0; i < bytes.length && bytes[i] === 0; i++) out += '1';
  for (let i = digits.length - 1; i >= 0; i--) out += ALPHABET[digits[i]!];
  return out;
}
