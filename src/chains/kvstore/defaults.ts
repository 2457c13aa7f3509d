export const DEFAULT_KVSTORE_CHAIN_ID = 'kvstore-1';
/** The kvstore chain's node RPC, next to the EVM chain's 26657. */
export const DEFAULT_KVSTORE_RPC_LADDR = 'tcp://127.0.0.1:26767';
