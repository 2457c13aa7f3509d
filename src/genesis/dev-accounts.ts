/**
 * The standard dev accounts: the BIP-39 mnemonic every local-devnet tool uses, derived at
 * m/44'/60'/0'/0/i, so the keys that Anvil, Hardhat and Foundry print work here unchanged.
 */
import { keccak256 } from '../crypto/keccak.js';
import { deriveChild, derivePath, ethAddressOfPrivateKey, masterNode, mnemonicToSeed } from '../crypto/hd-secp256k1.js';
import { DEV_ACCOUNT_TABLE, TABLE_MNEMONIC } from './dev-accounts.generated.js';

export const DEV_MNEMONIC = 'test test test test test test test test test test test junk';

export interface DevAccount {
  index: number;
  /** EIP-55 checksummed address. */
  address: string;
  /** 0x-prefixed 32-byte private key. */
  privateKey: string;
}

const cache = new Map<string, DevAccount[]>();

export function toChecksumAddress(addrHex: string): string {
  const lower = addrHex.toLowerCase().replace(/^0x/, '');
  const hash = keccak256(new TextEncoder().encode(lower));
  let out = '0x';
  for (let i = 0; i < 40; i++) {
    const nibble = (hash[i >> 1]! >> (i % 2 === 0 ? 4 : 0)) & 0xf;
    out += nibble >= 8 ? lower[i]!.toUpperCase() : lower[i];
  }
  return out;
}

export function addressFromPrivateKey(priv: Uint8Array): string {
  return toChecksumAddress(Buffer.from(ethAddressOfPrivateKey(priv)).toString('hex'));
}

/**
 * The `count` accounts of `mnemonic` at m/44'/60'/0'/0/i: for the dev mnemonic, up to the
 * generated table's 20, from that table (see scripts/gen-dev-accounts.mjs); else derived, and
 * cached (derivation costs a PBKDF2).
 */
export function deriveDevAccounts(count = 10, mnemonic = DEV_MNEMONIC): DevAccount[] {
  if (mnemonic === TABLE_MNEMONIC && count <= DEV_ACCOUNT_TABLE.length) {
    return DEV_ACCOUNT_TABLE.slice(0, count).map(([address, privateKey], index) => ({ index, address, privateKey }));
  }
  return derivedAccounts(count, mnemonic);
}

/** Derives `count` accounts of `mnemonic` (results cached), never from the table. */
export function derivedAccounts(count: number, mnemonic: string): DevAccount[] {
  const key = `${mnemonic}\n${count}`;
  const hit = cache.get(key);
  if (hit) return hit;
  // The common parent m/44'/60'/0'/0 is derived once; each account is one child step from it.
  const parent = derivePath(masterNode(mnemonicToSeed(mnemonic)), `m/44'/60'/0'/0`);
  const accounts: DevAccount[] = [];
  for (let i = 0; i < count; i++) {
    const priv = deriveChild(parent, i).privateKey;
    accounts.push({ index: i, address: addressFromPrivateKey(priv), privateKey: `0x${Buffer.from(priv).toString('hex')}` });
  }
  cache.set(key, accounts);
  return accounts;
}
