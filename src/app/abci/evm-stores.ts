/**
 * The EVM app's committed stores as it opens them: the multistore (the `ibc` IAVL tree, `evm` the
 * state root of each height), the IBC store loaded from the db, and the roots the meta records.
 */
import { IbcStore } from '../../ibc/ibc-store.js';
import { AppStores, evmAppHash, EVM_STORE } from '../../ibc/app-stores.js';
import { IBC_STORE_KEY } from '../../ibc/keys.js';
import { levelNodeDb } from '../../store/iavl/index.js';
import type { AppMeta, AppStore } from '../stores/app-store.js';
import { EMPTY_TRIE_ROOT } from '../stores/ordered-trie.js';

export const ZERO_HASH = new Uint8Array(32);

/** The EVM chain's multistore: the `ibc` tree on the app's db, `evm` the state root of each height. */
export function openEvmStores(store: AppStore, keepRecent = 0): Promise<AppStores> {
  return AppStores.open(
    new Map([[IBC_STORE_KEY, levelNodeDb(store.ibcTree)]]),
    store.ibcHeights,
    async (h) => {
      const root = await store.rootAt(h);
      return root && new Map([[EVM_STORE, root]]);
    },
    { keepRecent },
  );
}

/** The committed IBC store (clients, channels, packets, vouchers), read whole from the db. */
export async function loadIbcStore(store: AppStore): Promise<IbcStore> {
  const map = new Map<string, Uint8Array>();
  for await (const [k, v] of store.ibc.iterator()) map.set(k, v);
  return new IbcStore(map);
}

/** The EVM state root of the last commit point (the genesis root before height 1). */
export function committedRoot(m: AppMeta | undefined): Uint8Array {
  if (m === undefined) return EMPTY_TRIE_ROOT;
  return metaHex(m.lastHeight > 0 ? m.lastAppHash : m.genesisRoot);
}

/** The consensus app hash of a state root: the multistore root over `evm` (the state root) and `ibc`. */
export function metaAppHash(m: AppMeta, stateRoot: Uint8Array): Uint8Array {
  return evmAppHash(stateRoot, m.lastIbcRoot ? metaHex(m.lastIbcRoot) : undefined);
}

/** The CometBFT hash of the last block (the zero hash before height 1). */
export function parentHashOf(m: AppMeta): Uint8Array {
  return m.lastBlockHash === '' ? ZERO_HASH : metaHex(m.lastBlockHash);
}

/** Hex the meta stores (written by the app, with or without 0x). */
export function metaHex(h: string): Uint8Array {
  return new Uint8Array(Buffer.from(h.startsWith('0x') ? h.slice(2) : h, 'hex'));
}
