/**
 * The state manager FinalizeBlock runs on: a MerkleStateManager whose flush writes the accounts
 * into the account trie with one bulk update (bulk-trie.ts) instead of one `put` per account.
 * Code and storage are flushed as ethereumjs does; the account writes are the same, and so is the
 * root (checked against one `put` per key in bulk-trie.test.ts).
 */
import { MerkleStateManager, type MerkleStateManagerOpts } from '@ethereumjs/statemanager';
import { unprefixedHexToBytes } from '@ethereumjs/util';
import { keccak256 } from '../crypto/keccak.js';
import type { AccountWriteLog } from './account-write-log.js';
import { bulkUpdate, bytesToNibbles, compareNibbles, UnsupportedTrieShape, type TrieWrite } from './bulk-trie.js';

type Deferred = ReturnType<AccountWriteLog['takeDeferred']>;

export class LiveStateManager extends MerkleStateManager {
  /** `accounts` must be the account cache of `opts.caches`. */
  constructor(
    opts: MerkleStateManagerOpts,
    private readonly accounts: AccountWriteLog,
  ) {
    super(opts);
  }

  override async flush(): Promise<void> {
    // Within a trie checkpoint the writes must go through the trie's own journal.
    if (this._trie.hasCheckpoints()) return super.flush();
    this.accounts.deferTrieWrites = true;
    try {
      await super.flush();
    } finally {
      this.accounts.deferTrieWrites = false;
    }
    const items = this.accounts.takeDeferred();
    if (items.length > 0) await this.writeAccounts(items);
  }

  private async writeAccounts(items: Deferred): Promise<void> {
    const trie = this._trie;
    // The trie's own hashing (of keys and nodes), as MerklePatriciaTrie picks it from the Common.
    const keccak = this.common.customCrypto.keccak256 ?? keccak256;
    const writes: TrieWrite[] = items.map(([addressHex, elem]) => ({
      nibbles: bytesToNibbles(keccak(unprefixedHexToBytes(addressHex))),
      value: elem.accountRLP,
    }));
    writes.sort((a, b) => compareNibbles(a.nibbles, b.nibbles));
    const db = trie.database();
    const store = {
      get: (hash: Uint8Array) => db.get(hash),
      putMany: (nodes: { key: Uint8Array; value: Uint8Array }[]) => db.batch(nodes.map(({ key, value }) => ({ type: 'put' as const, key, value }))),
    };
    let root: Uint8Array;
    try {
      root = await bulkUpdate(trie.root(), trie.EMPTY_TRIE_ROOT, writes, store, keccak);
    } catch (e) {
      // Nothing was written yet: a trie shape this does not handle takes the usual path.
      if (e instanceof UnsupportedTrieShape) return this.putEach(items);
      throw e;
    }
    trie.root(root);
  }

  /** What MerkleStateManager.flush does with the accounts. */
  private async putEach(items: Deferred): Promise<void> {
    for (const [addressHex, elem] of items) {
      const address = unprefixedHexToBytes(addressHex);
      if (elem.accountRLP === undefined) await this._trie.del(address);
      else await this._trie.put(address, elem.accountRLP);
    }
  }
}
