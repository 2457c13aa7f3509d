/**
 * What every CometBFT-style chain gives the relayer and the packet index alike, from its block
 * store: signed headers, and tx events with block times. Each kind's IBC endpoint
 * (src/chains/<kind>/ibc.ts) builds its RelayChain with these.
 */
import type { BlockStore } from '../../store/block-store.js';
import type { TxIndexer } from '../../store/tx-indexer.js';
import { Query } from '../../events/query/query.js';
import type { ValidatorSet } from '../../types/validator-set.js';
import { formatRfc3339Nano, timestampToNs } from '../../types/time.js';
import type { IndexedChain } from './packet-index.js';
import type { RelayChain } from './relay-types.js';

export function signedHeaderOf(blockStore: BlockStore, validators: () => ValidatorSet): RelayChain['signedHeader'] {
  return async (height) => {
    const meta = await blockStore.loadBlockMeta(height);
    const commit = (await blockStore.loadSeenCommit(height)) ?? (await blockStore.loadBlockCommit(height));
    return meta && commit ? { header: meta.header, commit, validators: validators() } : undefined;
  };
}

/** tx_search over a chain's tx index (none with `[tx_index] indexer = "null"`: a restarted relayer then finds no packets in flight). */
export function txEventsOf(txIndexer: TxIndexer | undefined): RelayChain['txEvents'] {
  return txIndexer && (async (query) => (await txIndexer.search(Query.parse(query))).map((r) => r.result.events));
}

/**
 * A chain as the packet index reads it: its tx events (live, and from its tx index for what came
 * before: none with `[tx_index] indexer = "null"`) and block times.
 */
export function indexedChain(
  c: { chainId: string; height: number; subscribe: RelayChain['subscribe'] },
  blockStore: BlockStore,
  txIndexer?: TxIndexer,
): IndexedChain {
  const timeOf = async (h: number) => (await blockStore.loadBlockMeta(h))?.header.time;
  return {
    chainId: c.chainId,
    subscribe: (q, s) => c.subscribe(q, s),
    ...(txIndexer ? { txs: { get: (hash) => txIndexer.get(hash), search: (query) => txIndexer.search(Query.parse(query)) } } : {}),
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
