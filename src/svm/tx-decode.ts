/** Signed wire bytes to what the ledger checks and records: the tx, its signature, blockhash and accounts. */
import { getBase58Codec, getCompiledTransactionMessageDecoder, getTransactionDecoder, type Transaction } from '@solana/kit';
import { SvmTxError } from './tx-errors.js';

const b58 = getBase58Codec();

interface CompiledMessage {
  staticAccounts: readonly string[];
  lifetimeToken: string;
  header: { numSignerAccounts: number; numReadonlySignerAccounts: number; numReadonlyNonSignerAccounts: number };
}

/** Decodes `wire` (SanitizeFailure / MissingSignatureForFee when it is no signed tx). */
export function decodeTx(wire: Uint8Array): { tx: Transaction; signature: string; blockhash: string; accountKeys: string[]; writable: boolean[] } {
  let tx: Transaction;
  let msg: CompiledMessage;
  try {
    tx = getTransactionDecoder().decode(wire);
    msg = getCompiledTransactionMessageDecoder().decode(tx.messageBytes) as unknown as CompiledMessage;
  } catch (e) {
    throw new SvmTxError('SanitizeFailure', `failed to deserialize the transaction: ${(e as Error).message}`);
  }
  const first = Object.values(tx.signatures)[0];
  if (!first) throw new SvmTxError('MissingSignatureForFee', 'Transaction simulation failed: Transaction did not pass signature verification');
  const h = msg.header;
  const n = msg.staticAccounts.length;
  // The header's ranges: writable signers, read-only signers, writable non-signers, read-only non-signers.
  const writable = msg.staticAccounts.map((_, i) =>
    i < h.numSignerAccounts ? i < h.numSignerAccounts - h.numReadonlySignerAccounts : i < n - h.numReadonlyNonSignerAccounts,
  );
  return { tx, signature: b58.decode(first), blockhash: msg.lifetimeToken, accountKeys: [...msg.staticAccounts], writable };
}
