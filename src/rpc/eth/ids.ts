/** Filter and subscription ids as geth makes them. */
import { randomBytes } from 'node:crypto';

/** geth's rpc.NewID: 16 random bytes, hex, leading zeros trimmed. */
export function newId(): string {
  const hex = randomBytes(16).toString('hex').replace(/^0+/, '');
  return `0x${hex || '0'}`;
}
