/**
 * The live state's account cache, recording what each flush writes into the trie.
 *
 * ethereumjs keeps account changes in its cache and writes them into the trie on flush (state root,
 * end of the block's journal). Those writes are exactly the accounts in which the new state differs
 * from the previous one (plus accounts only read, written back unchanged), so the app hands them to
 * CommittedState at each commit point instead of re-reading the trie for CheckTx.
 *
 *   FinalizeBlock / genesis / devnet edit ── flush ──> trie
 *                                             └──────> log ── take() at the commit point ──> CommittedState
 */
import { AccountCache, type Caches } from '@ethereumjs/statemanager';
import type { AccountWrites } from './committed-state.js';

type FlushedItems = ReturnType<AccountCache['flush']>;

export class AccountWriteLog extends AccountCache {
  private writes = new Map<string, Uint8Array | undefined>();
  private deferred: FlushedItems = [];
  /**
   * While set, a flush hands the state manager no accounts and keeps them for `takeDeferred`
   * (LiveStateManager writes them into the trie itself, in one bulk update).
   */
  deferTrieWrites = false;

  override flush(): FlushedItems {
    const items = super.flush();
    for (const [key, elem] of items) this.writes.set(key, elem.accountRLP);
    if (!this.deferTrieWrites) return items;
    for (const item of items) this.deferred.push(item);
    return [];
  }

  /** The accounts deferred by flushes since the last call (address hex, cache element). */
  takeDeferred(): FlushedItems {
    const d = this.deferred;
    this.deferred = [];
    return d;
  }

  /** The accounts flushed since the last take (the latest value per address), and forgets them. */
  take(): AccountWrites {
    const w = this.writes;
    this.writes = new Map();
    return w;
  }
}

/** Replaces the account cache of `caches` (before any use) by a logging one with the same settings. */
export function logAccountWrites(caches: Caches): AccountWriteLog {
  const log = new AccountWriteLog(caches.settings.account);
  caches.account = log;
  return log;
}
