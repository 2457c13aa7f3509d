/**
 * One tx on LiteSVM and the record of what it did, as getTransaction and the history keep it: the
 * fee, pre/post balances, logs, compute units, error and the accounts it really changed. The ledger
 * (ledger.ts) checks replay and the blockhash before and remembers the record after. A faucet credit
 * (requestAirdrop) is recorded the same way, under a signature that names the credit.
 */
import type { LiteSVM } from 'litesvm';
import { address as toAddress, getBase58Codec, lamports, type Address } from '@solana/kit';
import { createHash } from 'node:crypto';
import { SvmTxError, txErrorJson } from './tx-errors.js';
import type { decodeTx } from './tx-decode.js';
import type { SvmTxRecord } from './history.js';
import { lamportsOf, sameAccount, type AccountRead } from './account-state.js';

export const LAMPORTS_PER_SIGNATURE = 5000n;
export const SYSTEM_PROGRAM = '11111111111111111111111111111111';

const b58 = getBase58Codec();

const balanceOf = (svm: LiteSVM, addr: string): bigint => svm.getBalance(addr as Address) ?? 0n;

/**
 * Executes a decoded tx in `slot`; a tx that fails on chain is recorded (it paid its fee), one that
 * fails before execution (signature, fee payer funds) throws `SvmTxError` and charges nothing.
 */
export function runTx(svm: LiteSVM, decoded: ReturnType<typeof decodeTx>, wire: Uint8Array, slot: bigint, now: () => number): SvmTxRecord {
  const { tx, signature, accountKeys, writable } = decoded;
  // Only writable accounts can change: read-only ones (program code included) are not copied twice.
  const snapshot = (): AccountRead[] => accountKeys.map((k, i) => (writable[i] ? svm.getAccount(k as Address) : balanceOf(svm, k)));
  const before = snapshot();
  const result = svm.sendTransaction(tx);
  const failed = 'err' in result;
  if (failed) {
    const err = txErrorJson(result.err());
    // Errors before execution (signature, fee payer funds) charge nothing and are not recorded.
    if (typeof err === 'string' && err !== 'InsufficientFundsForRent') throw new SvmTxError(err, `Transaction simulation failed: ${err}`);
  }
  const meta = failed ? result.meta() : result;
  const after = snapshot();
  const pre = before.map(lamportsOf);
  const post = after.map(lamportsOf);
  const signatures = Object.keys(tx.signatures).length;
  const rec: SvmTxRecord = {
    signature,
    slot,
    blockTime: BigInt(Math.floor(now() / 1000)),
    wire,
    fee: LAMPORTS_PER_SIGNATURE * BigInt(signatures),
    accountKeys,
    preBalances: pre,
    postBalances: post,
    logs: meta.logs(),
    computeUnits: meta.computeUnitsConsumed(),
    err: failed ? txErrorJson(result.err()) : null,
    // Only real changes: a failed tx that merely named an account writable leaves it as it was.
    changed: accountKeys.filter((_, i) => !sameAccount(before[i]!, after[i]!)),
  };
  // The fee is what the fee payer paid beyond what the tx moved (priority fees included).
  const payerDelta = pre[0]! - post[0]!;
  if (payerDelta >= rec.fee && failed) rec.fee = payerDelta;
  return rec;
}

/** Credits `to` with `amount` lamports in `slot`; `seq` (the history's size) keeps two equal credits apart. */
export function creditAirdrop(svm: LiteSVM, to: string, amount: bigint, slot: bigint, seq: number, now: () => number): SvmTxRecord {
  const before = balanceOf(svm, to);
  const acct = svm.getAccount(toAddress(to));
  svm.setAccount({
    address: to as Address,
    lamports: lamports(before + amount),
    programAddress: (acct.exists ? acct.programAddress : SYSTEM_PROGRAM) as Address,
    executable: acct.exists ? acct.executable : false,
    space: acct.exists ? BigInt(acct.data.length) : 0n,
    data: acct.exists ? acct.data : new Uint8Array(0),
  });
  // A faucet credit has no transaction of its own here: its "signature" names the credit.
  const signature = b58.decode(createHash('sha512').update(`airdrop ${to} ${amount} ${slot} ${seq} ${now()}`).digest());
  return {
    signature,
    slot,
    blockTime: BigInt(Math.floor(now() / 1000)),
    wire: new Uint8Array(0),
    fee: 0n,
    accountKeys: [to],
    preBalances: [before],
    postBalances: [before + amount],
    logs: [],
    computeUnits: 0n,
    err: null,
    changed: amount > 0n ? [to] : [],
  };
}
