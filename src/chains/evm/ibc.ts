/**
 * The EVM chain's IBC endpoint: its Cosmos face as a relayer and the packet index see it (its relayer
 * keys are eth_secp256k1, so a relayer's address is an EVM account).
 */
import type { ChainletNode } from '../../node/node.js';
import { slowBlockReasons } from '../../node/chain-core.js';
import { indexedChain, signedHeaderOf, txEventsOf } from '../../network/ibc/ibc-chains.js';
import { relayerKey, type RelayerKey } from '../../network/ibc/relayer-key.js';
import type { RelayChain } from '../../network/ibc/relay-types.js';
import type { IbcEndpoint } from '../types.js';

export function evmIbcEndpoint(node: ChainletNode): IbcEndpoint {
  return {
    relayChain: (privateKey, tag) => evmRelayChain(node, relayerKey('eth_secp256k1', privateKey), tag),
    indexed: () => indexedChain(node, node.internals.blockStore, node.internals.txIndexer),
    slowBlocks: () => slowBlockReasons(node.config.consensus, node.internals.validators),
  };
}

function evmRelayChain(node: ChainletNode, key: RelayerKey, tag?: string): RelayChain {
  const { app, blockStore, consensus } = node.internals;
  const view = app.evm;
  return {
    chainId: node.chainId,
    bech32Prefix: view.bech32Prefix,
    feeDenom: view.denom,
    key,
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
    // Each relayer of the chain (one per channel) subscribes under its own name.
    subscribe: (q, s) => node.subscribe(q, s !== undefined && tag !== undefined ? `${s}-${tag}` : s),
    height: () => node.height,
    signedHeader: signedHeaderOf(blockStore, () => consensus.state.lastValidators ?? consensus.state.validators),
    txEvents: txEventsOf(node.internals.txIndexer),
    query: (req) => app.query(req),
    mine: async () => void (await consensus.mine(1)),
  };
}
