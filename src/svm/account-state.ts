/** Account states as LiteSVM returns them, compared the way an account notification sees them. */
import type { LiteSVM } from 'litesvm';

export type MaybeAccount = ReturnType<LiteSVM['getAccount']>;

/** An account as read around a tx: the whole account when writable, its balance alone when read-only. */
export type AccountRead = MaybeAccount | bigint;

export function lamportsOf(a: AccountRead): bigint {
  if (typeof a === 'bigint') return a;
  return a.exists ? a.lamports : 0n;
}

/** Same lamports, owner, executable flag and data (what an account notification reports); a read-only account cannot change. */
export function sameAccount(a: AccountRead, b: AccountRead): boolean {
  if (typeof a === 'bigint' || typeof b === 'bigint') return true;
  if (!a.exists || !b.exists) return a.exists === b.exists;
  if (a.lamports !== b.lamports || a.programAddress !== b.programAddress || a.executable !== b.executable || a.data.length !== b.data.length) return false;
  return Buffer.from(a.data.buffer, a.data.byteOffset, a.data.byteLength).equals(Buffer.from(b.data.buffer, b.data.byteOffset, b.data.byteLength));
}
