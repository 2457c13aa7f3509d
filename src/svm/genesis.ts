/**
 * The SVM chain's genesis: each dev account holds SOL, and a USDC-like mint (6 decimals, authority
 * dev account 0) gives each of them tokens in its associated token account.
 */
import type { LiteSVM } from 'litesvm';
import { lamports, type Address } from '@solana/kit';
import { findAssociatedTokenPda, TOKEN_PROGRAM_ADDRESS } from '@solana-program/token';
import type { SolanaKeypair } from './keys.js';
import { MINT_SIZE, TOKEN_ACCOUNT_SIZE } from './spl.js';

const SYSTEM_PROGRAM = '11111111111111111111111111111111' as Address;

/** Writes the genesis accounts into `svm`; returns their addresses. */
export async function fundGenesis(
  svm: LiteSVM,
  devAccounts: SolanaKeypair[],
  mintKey: SolanaKeypair,
  o: { lamportsPerAccount?: bigint; tokensPerAccount?: bigint },
): Promise<string[]> {
  const written: string[] = [];
  const sol = o.lamportsPerAccount ?? 1000n * 1_000_000_000n;
  const tokens = o.tokensPerAccount ?? 1_000_000n * 1_000_000n;
  for (const a of devAccounts) {
    svm.setAccount({
      address: a.address as Address,
      lamports: lamports(sol),
      programAddress: SYSTEM_PROGRAM,
      executable: false,
      space: 0n,
      data: new Uint8Array(0),
    });
    written.push(a.address);
  }
  // The mint: authority = dev account 0, supply = what the dev accounts hold.
  const mint = new Uint8Array(MINT_SIZE);
  const dv = new DataView(mint.buffer);
  dv.setUint32(0, 1, true);
  mint.set(devAccounts[0]!.publicKey, 4);
  dv.setBigUint64(36, tokens * BigInt(devAccounts.length), true);
  mint[44] = 6;
  mint[45] = 1;
  svm.setAccount({
    address: mintKey.address as Address,
    lamports: lamports(svm.minimumBalanceForRentExemption(BigInt(MINT_SIZE))),
    programAddress: TOKEN_PROGRAM_ADDRESS,
    executable: false,
    space: BigInt(MINT_SIZE),
    data: mint,
  });
  written.push(mintKey.address);
  for (const a of devAccounts) {
    const [ata] = await findAssociatedTokenPda({ mint: mintKey.address as Address, owner: a.address as Address, tokenProgram: TOKEN_PROGRAM_ADDRESS });
    const acct = new Uint8Array(TOKEN_ACCOUNT_SIZE);
    acct.set(mintKey.publicKey, 0);
    acct.set(a.publicKey, 32);
    new DataView(acct.buffer).setBigUint64(64, tokens, true);
    acct[108] = 1; // AccountState::Initialized
    svm.setAccount({
      address: ata,
      lamports: lamports(svm.minimumBalanceForRentExemption(BigInt(TOKEN_ACCOUNT_SIZE))),
      programAddress: TOKEN_PROGRAM_ADDRESS,
      executable: false,
      space: BigInt(TOKEN_ACCOUNT_SIZE),
      data: acct,
    });
    written.push(ata);
  }
  return written;
}
