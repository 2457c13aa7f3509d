/** Chainlet's public API. */
export { startNode } from './node/node.js';
export type { ChainletNode, StartNodeOptions, NodeInternals } from './node/node.js';
export type { ServerUrls } from './node/servers.js';
export { defaultConfig } from './config/defaults.js';
export type { NodeConfig, DeepPartial } from './config/types.js';
export { createDevnetGenesis, DEFAULT_CHAIN_ID, DEFAULT_EVM_CHAIN_ID } from './genesis/devnet.js';
export { deriveDevAccounts, DEV_MNEMONIC } from './genesis/dev-accounts.js';
export type { DevAccount } from './genesis/dev-accounts.js';
export { genesisFromJson, genesisToJson } from './genesis/genesis-doc.js';
export type { GenesisDoc } from './genesis/genesis-doc.js';
export { initHome } from './genesis/home.js';
export { VERSION } from './version.js';
export { createApiKey, getApiKeyStore } from './rpc/routing/api-keys.js';
export { createEip1193Provider } from './node/rpc-wiring.js';
export type { Eip1193Provider } from './rpc/eth/provider.js';
export { startNetwork } from './network/network.js';
export type { Network, NetworkChain, ChainSpec, EvmChainSpec } from './network/network.js';
export type { KvStoreChain, KvStoreChainSpec } from './network/kvstore-chain.js';
