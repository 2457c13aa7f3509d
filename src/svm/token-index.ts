/** An owner → SPL token accounts index, kept as txs write them (getTokenAccountsByOwner). */
import type { LiteSVM } from 'litesvm';
import { getBase58Codec, type Address } from '@solana/kit';
import { TOKEN_PROGRAM_ADDRESS } from '@solana-program/token';
import { TOKEN_ACCOUNT_SIZE } from './spl.js';

const b58 = getBase58Codec();

export class TokenIndex {
  private readonly owners = new Map<string, Set<string>>();

  constructor(private readonly svm: LiteSVM) {}

  /** Adds `addr` under its owner if it is a token account now. */
  index(addr: string): void {
    const a = this.svm.getAccount(addr as Address);
    if (!a.exists || a.programAddress !== TOKEN_PROGRAM_ADDRESS || a.data.length !== TOKEN_ACCOUNT_SIZE) return;
    const owner = b58.decode(a.data.subarray(32, 64));
    let set = this.owners.get(owner);
    if (!set) this.owners.set(owner, (set = new Set()));
    set.add(addr);
  }

  /** `owner`'s accounts that are still token accounts (one closed since stays indexed but is left out). */
  accountsOf(owner: string): string[] {
    return [...(this.owners.get(owner) ?? [])].filter((k) => {
      const a = this.svm.getAccount(k as Address);
      return a.exists && a.programAddress === TOKEN_PROGRAM_ADDRESS;
    });
  }
}
