/** Bech32 (BIP-173) addresses as the Cosmos SDK shows them (`<prefix>1…`), via @scure/base. */
import { bech32 } from '@scure/base';
import { InvalidBech32Error } from './errors.js';

export function toBech32(prefix: string, bytes: Uint8Array): string {
  try {
    // No length limit: Cosmos uses bech32 for 32-byte keys and module addresses too.
    return bech32.encode(prefix, bech32.toWords(bytes), false);
  } catch (err) {
    throw new InvalidBech32Error(prefix, err);
  }
}

export function fromBech32(s: string): { prefix: string; bytes: Uint8Array } {
  try {
    const { prefix, words } = bech32.decode(s as `${string}1${string}`, false);
    return { prefix, bytes: bech32.fromWords(words) };
  } catch (err) {
    throw new InvalidBech32Error(s, err);
  }
}
