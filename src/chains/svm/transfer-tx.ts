/**
 * An unsigned SVM transfer for the routing API's /v2/fungible/msgs: SOL by the system program, or
 * an SPL token by `TransferChecked` between the owners' associated token accounts (the recipient's
 * created if missing, paid by the sender), with the chain's latest blockhash. The sender signs the
 * base64 wire transaction and submits it (`/v2/tx/submit` or `sendTransaction`).
 */
import {
  address,
  appendTransactionMessageInstructions,
  compileTransaction,
  createNoopSigner,
  createTransactionMessage,
  getBase64EncodedWireTransaction,
  pipe,
  setTransactionMessageFeePayer,
  setTransactionMessageLifetimeUsingBlockhash,
  type Instruction,
} from '@solana/kit';
import { getTransferSolInstruction } from '@solana-program/system';
import {
  findAssociatedTokenPda,
  getCreateAssociatedTokenIdempotentInstruction,
  getTransferCheckedInstruction,
  TOKEN_PROGRAM_ADDRESS,
} from '@solana-program/token';

export interface SvmTransferArgs {
  from: string;
  to: string;
  amount: bigint;
  blockhash: { blockhash: string; lastValidBlockHeight: bigint };
  /** An SPL mint; absent for SOL. */
  mint?: { address: string; decimals: number };
}

export async function unsignedSvmTransfer(a: SvmTransferArgs): Promise<string> {
  const from = address(a.from);
  const to = address(a.to);
  const payer = createNoopSigner(from);
  let ixs: Instruction[];
  if (!a.mint) ixs = [getTransferSolInstruction({ source: payer, destination: to, amount: a.amount })];
  else {
    const mint = address(a.mint.address);
    const [source] = await findAssociatedTokenPda({ mint, owner: from, tokenProgram: TOKEN_PROGRAM_ADDRESS });
    const [destination] = await findAssociatedTokenPda({ mint, owner: to, tokenProgram: TOKEN_PROGRAM_ADDRESS });
    ixs = [
      getCreateAssociatedTokenIdempotentInstruction({ payer, ata: destination, owner: to, mint }),
      getTransferCheckedInstruction({ source, mint, destination, authority: payer, amount: a.amount, decimals: a.mint.decimals }),
    ];
  }
  const message = pipe(
    createTransactionMessage({ version: 0 }),
    (m) => setTransactionMessageFeePayer(from, m),
    (m) => setTransactionMessageLifetimeUsingBlockhash(a.blockhash as never, m),
    (m) => appendTransactionMessageInstructions(ixs, m),
  );
  return getBase64EncodedWireTransaction(compileTransaction(message));
}
