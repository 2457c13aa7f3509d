/** Signed Solana transactions for tests, built with @solana/kit as a dapp builds them. */
import {
  appendTransactionMessageInstructions,
  createTransactionMessage,
  getBase64EncodedWireTransaction,
  pipe,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
  signTransactionMessageWithSigners,
  type Instruction,
  type KeyPairSigner,
} from '@solana/kit';

/** A v0 transaction of `instructions`, paid and signed by `signer`, on `blockhash`; as base64 wire bytes. */
export async function signedWire(
  signer: KeyPairSigner,
  instructions: Instruction[],
  blockhash: { blockhash: string; lastValidBlockHeight: bigint },
): Promise<string> {
  const msg = pipe(
    createTransactionMessage({ version: 0 }),
    (m) => setTransactionMessageFeePayerSigner(signer, m),
    (m) => setTransactionMessageLifetimeUsingBlockhash(blockhash as never, m),
    (m) => appendTransactionMessageInstructions(instructions, m),
  );
  return getBase64EncodedWireTransaction(await signTransactionMessageWithSigners(msg));
}

/** What @solana/kit's JSON-RPC error carries: the error code and the server's message. */
export async function rpcError(p: Promise<unknown>): Promise<{ code: number; message: string }> {
  try {
    await p;
  } catch (e) {
    const c = (e as { context?: { __code?: number; __serverMessage?: string } }).context;
    return { code: c?.__code ?? NaN, message: c?.__serverMessage ?? (e as Error).message };
  }
  throw new Error('expected a JSON-RPC error');
}
