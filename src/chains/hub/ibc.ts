/** The hub's IBC endpoint: the chain as a relayer and the packet index see it (its relayer keys are secp256k1). */
import { indexedChain, signedHeaderOf, txEventsOf } from '../../network/ibc/ibc-chains.js';
import { relayerKey, type RelayerKey } from '../../network/ibc/relayer-key.js';
import type { RelayChain } from '../../network/ibc/relay-types.js';
import type { IbcEndpoint } from '../types.js';
import type { HubChain } from './start.js';

export function hubIbcEndpoint(hub: Omit<HubChain, 'capabilities'>): IbcEndpoint {
  return {
    relayChain: (privateKey, tag) => hubRelayChain(hub, relayerKey('secp256k1', privateKey), tag),
    indexed: () => indexedChain(hub, hub.parts.blockStore, hub.parts.txIndexer),
  };
}

function hubRelayChain(hub: Omit<HubChain, 'capabilities'>, key: RelayerKey, tag?: string): RelayChain {
  const c = hub.app.config!;
  return {
    chainId: hub.chainId,
    bech32Prefix: c.bech32Prefix,
    feeDenom: c.denom,
    key,
    gasPrice: () => BigInt(c.minGasPrice),
    ibcStore: () => hub.app.ibcStore(),
    accountNumber: async (a) => (await hub.app.auth.get(Buffer.from(a).toString('hex'), true))!.accountNumber,
    accountSequence: async (a) => hub.app.sequence(a),
    broadcastTx: (tx) => hub.broadcastTx(tx),
    // Each relayer of the chain (one per channel) subscribes under its own name.
    subscribe: (q, s) => hub.subscribe(q, s !== undefined && tag !== undefined ? `${s}-${tag}` : s),
    height: () => hub.height,
    signedHeader: signedHeaderOf(hub.parts.blockStore, () => hub.validatorSet()),
    txEvents: txEventsOf(hub.parts.txIndexer),
    query: (req) => hub.app.query(req),
    mine: async () => void (await hub.mine(1)),
  };
}
