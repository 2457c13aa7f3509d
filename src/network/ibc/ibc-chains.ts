/**
 * The relayer's view of the network's chains: a RelayChain adapter for the hub chain and for the
 * EVM chain's Cosmos face (its relayer key is eth_secp256k1, so its address is an EVM account).
 */
import type { ChainletNode } from '../../node/node.js';
import type { BlockStore } from '../../store/block-store.js';
import type { ValidatorSet } from '../../types/validator-set.js';
import type { HubChain } from '../hub-chain.js';
import { formatRfc3339Nano, timestampToNs } from '../../types/time.js';
import type { IndexedChain } from './packet-index.js';
import { relayerKey } from './relayer-key.js';
import type { RelayChain } from './relayer.js';

function signedHeaderOf(blockStore: BlockStore, validators: () => ValidatorSet): RelayChain['signedHeader'] {
  return async (height) => {
    const meta = await blockStore.loadBlockMeta(height);
    const commit = (await blockStore.loadSeenCommit(height)) ?? (await blockStore.loadBlockCommit(height));
    return meta && commit ? { header: meta.header, commit, validators: validators() } : undefined;
  };
}

export function hubRelayChain(hub: HubChain): RelayChain {
  const c = hub.app.config!;
  return {
    chainId: hub.chainId,
    bech32Prefix: c.bech32Prefix,
    feeDenom: c.denom,
    key: relayerKey('secp256k1'),
    gasPrice: () => BigInt(c.minGasPrice),
    ibcStore: () => hub.app.ibcStore(),
    accountNumber: async (a) => (await hub.app.auth.get(Buffer.from(a).toString('hex'), true))!.accountNumber,
    accountSequence: async (a) => hub.app.sequence(a),
    broadcastTx: (tx) => hub.broadcastTx(tx),
    subscribe: (q, s) => hub.subscribe(q, s),
    height: () => hub.height,
    signedHeader: signedHeaderOf(hub.parts.blockStore, () => hub.validatorSet()),
  };
}

export function evmRelayChain(node: ChainletNode): RelayChain {
  const { app, blockStore, consensus } = node.internals;
  const view = app.evm;
  return {
    chainId: node.chainId,
    bech32Prefix: view.bech32Prefix,
    feeDenom: view.denom,
    key: relayerKey('eth_secp256k1'),
    // Twice the next base fee: a relayer tx stays valid while the base fee rises for a few blocks.
    gasPrice: () => {
      const base = view.nextBaseFee();
      const min = view.minGasPrice();
      return 2n * (base > min ? base : min);
    },
    ibcStore: () => app.ibcStore(),
    accountNumber: async (a) => (await app.auth.get(Buffer.from(a).toString('hex'), true))!.accountNumber,
    accountSequence: async () => 0n, // a fresh genesis account; a mismatch is corrected from CheckTx's answer
    broadcastTx: (tx) => node.broadcastTx(tx),
    subscribe: (q, s) => node.subscribe(q, s),
    height: () => node.height,
    signedHeader: signedHeaderOf(blockStore, () => consensus.state.lastValidators ?? consensus.state.validators),
  };
}

/** A chain as the packet index reads it: its tx events and block times. */
export function indexedChain(c: { chainId: string; height: number; subscribe: RelayChain['subscribe'] }, blockStore: BlockStore): IndexedChain {
  const timeOf = async (h: number) => (await blockStore.loadBlockMeta(h))?.header.time;
  return {
    chainId: c.chainId,
    subscribe: (q, s) => c.subscribe(q, s),
    height: () => c.height,
    blockTime: async (h) => {
      const t = await timeOf(h);
      return t && formatRfc3339Nano(t);
    },
    latestTimeNs: async () => {
      const t = await timeOf(c.height);
      return t ? timestampToNs(t) : 0n;
    },
  };
}
