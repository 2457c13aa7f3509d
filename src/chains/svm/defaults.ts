/** How the Skip Go API names a Solana devnet chain. */
export const DEFAULT_SVM_CHAIN_ID = 'solana-devnet';
/** solana-test-validator's JSON-RPC and WebSocket addresses. */
export const DEFAULT_SVM_RPC = '127.0.0.1:8899';
export const DEFAULT_SVM_WS = '127.0.0.1:8900';
/** Milliseconds per slot, as on Solana. */
export const DEFAULT_SLOT_MS = 400;
