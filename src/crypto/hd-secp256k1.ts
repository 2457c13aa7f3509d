/**
 * BIP-39 seeds and BIP-32 private derivation of secp256k1 keys on node:crypto (OpenSSL). A start
 * derives the dev accounts from the mnemonic; the JS curves need ~40 ms of table building and a JS
 * PBKDF2 before the first key. Here PBKDF2 and HMAC run on OpenSSL and public keys on libsecp256k1
 * (the `secp256k1` addon, as ecrecover): ~2 ms. Same keys as @scure/bip32 (tested).
 */
import { createHmac, pbkdf2Sync } from 'node:crypto';
import { keccak256 } from './keccak.js';
import { secp256k1 } from './secp256k1-native.js';

const N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;
const HARDENED = 0x80000000;

export interface HdNode {
  privateKey: Uint8Array;
  chainCode: Uint8Array;
  /** The compressed public key, kept once a child needed it (the dev accounts are ten children of one node). */
  publicKey?: Uint8Array;
}

/**
 * Seeds computed in this process, by mnemonic and passphrase (the last 8 computed). A network
 * derives the dev mnemonic's EVM, Cosmos and Solana accounts: one PBKDF2 (≈ 1.2 ms) instead of three.
 */
const seeds = new Map<string, Uint8Array>();
const SEEDS_KEPT = 8;

/** BIP-39 seed: PBKDF2-HMAC-SHA512 of the NFKD mnemonic, salt "mnemonic" + passphrase, 2048 rounds. */
export function mnemonicToSeed(mnemonic: string, passphrase = ''): Uint8Array {
  const key = `${mnemonic}\n${passphrase}`;
  const seed = seeds.get(key) ?? keepSeed(key, pbkdf2Sync(mnemonic.normalize('NFKD'), `mnemonic${passphrase}`.normalize('NFKD'), 2048, 64, 'sha512'));
  return new Uint8Array(seed);
}

function keepSeed(key: string, seed: Uint8Array): Uint8Array {
  if (seeds.size >= SEEDS_KEPT) seeds.delete(seeds.keys().next().value!);
  seeds.set(key, seed);
  return seed;
}

/** secp256k1 public key of a 32-byte private key: 33 bytes compressed or 65 uncompressed. */
export function secp256k1PublicKey(privateKey: Uint8Array, compressed: boolean): Uint8Array {
  return secp256k1.publicKeyCreate(privateKey, compressed);
}

/** The 20-byte Ethereum address of a secp256k1 private key (keccak256 of the public key's X‖Y). */
export function ethAddressOfPrivateKey(privateKey: Uint8Array): Uint8Array {
  return keccak256(secp256k1PublicKey(privateKey, false).subarray(1)).subarray(12);
}

export function masterNode(seed: Uint8Array): HdNode {
  const i = createHmac('sha512', 'Bitcoin seed').update(seed).digest();
  return checked({ privateKey: i.subarray(0, 32), chainCode: i.subarray(32) });
}

export function deriveChild(node: HdNode, index: number): HdNode {
  const data = new Uint8Array(37);
  if (index >= HARDENED) data.set(node.privateKey, 1);
  else data.set((node.publicKey ??= secp256k1PublicKey(node.privateKey, true)), 0);
  new DataView(data.buffer).setUint32(33, index >>> 0);
  const i = createHmac('sha512', node.chainCode).update(data).digest();
  const il = toBigInt(i.subarray(0, 32));
  if (il >= N) throw new Error(`BIP-32: child ${index} is invalid, use the next index`);
  const key = (il + toBigInt(node.privateKey)) % N;
  return checked({ privateKey: fromBigInt(key), chainCode: i.subarray(32) });
}

/** Derives a path such as m/44'/60'/0'/0/3. */
export function derivePath(node: HdNode, path: string): HdNode {
  const parts = path.split('/');
  if (parts[0] !== 'm') throw new Error(`BIP-32 path must start with "m": ${path}`);
  let out = node;
  for (const part of parts.slice(1)) {
    const m = /^(\d+)('?)$/.exec(part);
    if (!m || Number(m[1]) >= HARDENED) throw new Error(`invalid BIP-32 path segment "${part}" in ${path}`);
    out = deriveChild(out, Number(m[1]) + (m[2] ? HARDENED : 0));
  }
  return out;
}

function checked(n: HdNode): HdNode {
  const k = toBigInt(n.privateKey);
  if (k === 0n || k >= N) throw new Error('BIP-32: derived key is invalid, use the next index');
  return n;
}

function toBigInt(b: Uint8Array): bigint {
  return BigInt(`0x${Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('hex')}`);
}

function fromBigInt(x: bigint): Uint8Array {
  return Uint8Array.from(Buffer.from(x.toString(16).padStart(64, '0'), 'hex'));
}
