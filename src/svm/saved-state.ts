/** The SVM ledger's saved form (a snapshot, journal entries) and how an account is put back from it. */
import type { LiteSVM } from 'litesvm';
import { lamports, type Address } from '@solana/kit';
import type { SavedRecord } from './record-json.js';
import type { SvmBlock } from './history.js';

export interface SvmSavedAccount {
  address: string;
  lamports: string;
  owner: string;
  executable: boolean;
  /** base64 */
  data: string;
}

/** A saved chain (JSON): accounts, slot, the blockhash window and the window's signatures. */
export interface SvmLedgerState {
  genesisHash: string;
  mint: string;
  slot: string;
  blockHeight: string;
  /** [blockhash, slot, ms] of the window, oldest first. */
  blockhashes: [string, string, number][];
  accounts: SvmSavedAccount[];
  /** [signature, slot] */
  seen: [string, string][];
  /** The kept tx records, oldest first (absent in states saved before they were kept). */
  records?: SavedRecord[];
  /** [slot, blockhash, ms, blockHeight] of the kept blocks, oldest first. */
  blocks?: [string, string, number, string][];
}

/** Writes an account in its saved form (`save()`, the journal) into a LiteSVM. */
export function putSavedAccount(svm: LiteSVM, a: SvmSavedAccount): void {
  const data = Uint8Array.from(Buffer.from(a.data, 'base64'));
  svm.setAccount({
    address: a.address as Address,
    lamports: lamports(BigInt(a.lamports)),
    programAddress: a.owner as Address,
    executable: a.executable,
    space: BigInt(data.length),
    data,
  });
}

/** An account's saved form. */
export function toSavedAccount(address: string, a: { lamports: bigint; owner: string; executable: boolean; data: Uint8Array }): SvmSavedAccount {
  return { address, lamports: a.lamports.toString(), owner: a.owner, executable: a.executable, data: Buffer.from(a.data).toString('base64') };
}

export function blockToSaved(b: SvmBlock): [string, string, number, string] {
  return [b.slot.toString(), b.blockhash, b.timeMs, b.blockHeight.toString()];
}

export function blockFromSaved([s, h, t, height]: [string, string, number, string]): SvmBlock {
  return { slot: BigInt(s), blockhash: h, timeMs: t, blockHeight: BigInt(height) };
}
