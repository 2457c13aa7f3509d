/**
 * What devnet control (src/node/devnet, src/app/state-surgery.ts, src/app/app-reload.ts) may touch
 * inside the EVM app, and only between blocks: the stores, the runtime and the meta. Reached
 * through `EvmApp.devnetAccess()`; the app's own code never uses this.
 */
import type { AppMeta, AppStore } from './app-store.js';
import type { ChainView } from './chain-view.js';
import type { EvmRuntime } from './evm-runtime.js';
import type { LevelTrieDB } from './trie-db.js';
import type { DecodedTxCache } from './tx-cache.js';
import type { AuthRegistry } from './cosmos/auth-registry.js';

export interface AppInternals {
  readonly store: AppStore;
  readonly trieDb: LevelTrieDB;
  readonly view: ChainView;
  readonly txCache: DecodedTxCache;
  readonly auth: AuthRegistry;
  runtime(): EvmRuntime;
  meta(): AppMeta | undefined;
  /** Replaces the in-memory meta (the caller has written it) and drops a finalized-but-uncommitted block. */
  setMeta(meta: AppMeta): void;
  /** Re-reads the IBC store from the db (after devnet control rewrote it). */
  reloadIbc?(): Promise<void>;
}
