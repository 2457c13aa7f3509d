/** Solana JSON-RPC errors, with the codes and texts solana-test-validator uses. */
export class SolanaRpcError extends Error {
  override name = 'SolanaRpcError';
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
  }
}

export const invalidParams = (what: string) => new SolanaRpcError(-32602, `Invalid params: ${what}`);
export const invalidParam = (what: string) => new SolanaRpcError(-32602, `Invalid param: ${what}`);
export const methodNotFound = () => new SolanaRpcError(-32601, 'Method not found');
/** sendTransaction's preflight failure: kit throws "Transaction simulation failed". */
export const SEND_TRANSACTION_PREFLIGHT_FAILURE = -32002;
export const TRANSACTION_SIGNATURE_VERIFICATION_FAILURE = -32003;
