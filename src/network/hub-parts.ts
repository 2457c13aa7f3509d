/**
 * What a network with a hub chain loads (network.ts imports this module on demand): the hub, its
 * routing adapter and IBC between it and the EVM chain, with the cosmjs-types codecs they use.
 */
export { startHubChain } from './hub-chain.js';
export { hubRoutingChain } from './hub-routing.js';
export { evmRelayChain, hubRelayChain, indexedChain } from './ibc/ibc-chains.js';
export { PacketIndex } from './ibc/packet-index.js';
export { Relayer } from './ibc/relayer.js';
