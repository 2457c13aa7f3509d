/** Account addresses as users write them: 0x hex (any case) or bech32 with the chain's prefix. */
import { Address } from '@ethereumjs/util';
import { fromBech32 } from '../crypto/bech32.js';
import { QueryError } from '../sdk/errors.js';

/** sdk ErrInvalidAddress. */
const INVALID_ADDRESS = 7;

export function parseAccountAddress(s: string, bech32Prefix: string): Address {
  if (/^0x[0-9a-fA-F]{40}$/.test(s)) return new Address(Buffer.from(s.slice(2), 'hex'));
  if (s.startsWith(`${bech32Prefix}1`)) {
    let decoded: { prefix: string; bytes: Uint8Array } | undefined;
    try {
      decoded = fromBech32(s);
    } catch {
      decoded = undefined;
    }
    if (decoded !== undefined && decoded.prefix === bech32Prefix && decoded.bytes.length === 20) return new Address(decoded.bytes);
  }
  throw new QueryError(INVALID_ADDRESS, 'sdk', `invalid address ${JSON.stringify(s)}: expected 0x hex or ${bech32Prefix}1… bech32: invalid address`);
}

/** Address given as 20 raw bytes (query `data`). */
export function addressFromBytes(b: Uint8Array): Address {
  if (b.length !== 20) throw new QueryError(INVALID_ADDRESS, 'sdk', `invalid address: expected 20 bytes, got ${b.length}: invalid address`);
  return new Address(Uint8Array.from(b));
}
