/** The hub chain's defaults that the CLI and a network need before (or without) loading the hub and its Cosmos codecs. */
export const DEFAULT_HUB_RPC_LADDR = 'tcp://127.0.0.1:26757';
export const HUB_PREFIX = 'hub';
export const DEFAULT_HUB_CHAIN_ID = 'chainlethub-1';
export const HUB_DENOM = 'uhub';
