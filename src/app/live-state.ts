/**
 * The state manager FinalizeBlock runs on: a MerkleStateManager whose flush writes the accounts
 * into the account trie, and each contract's changed slots into its storage trie, with one bulk
 * update per trie (bulk-trie.ts) instead of one `put` per key. Code is flushed as ethereumjs does;
 * the writes are the same, and so are the roots (checked against one `put` per key in
 * bulk-trie.test.ts, and block by block against a reference app in fast-execution.test.ts).
 */
import { MerkleStateManager, type MerkleStateManagerOpts } from '@ethereumjs/statemanager';
import { RLP } from '@ethereumjs/rlp';
import { createAddressFromString, unprefixedHexToBytes } from '@ethereumjs/util';
import { keccak256 } from '../crypto/keccak.js';
import type { AccountWriteLog } from './account-write-log.js';
import { bulkUpdate, bytesToNibbles, compareNibbles, UnsupportedTrieShape, type TrieWrite } from './bulk-trie.js';

type Deferred = ReturnType<AccountWriteLog['takeDeferred']>;

export class LiveStateManager extends MerkleStateManager {
  /**
   * `accounts` must be the account cache of `opts.caches`. `bulkStorage: false` flushes storage as
   * ethereumjs does (one `put` per slot): the reference the tests compare with.
   */
  constructor(
    opts: MerkleStateManagerOpts,
    private readonly accounts: AccountWriteLog,
    private readonly bulkStorage = true,
  ) {
    super(opts);
  }

  override async flush(): Promise<void> {
    // Within a trie checkpoint the writes must go through the trie's own journal.
    if (this._trie.hasCheckpoints()) return super.flush();
    // Storage first, as ethereumjs does: each contract's new storage root goes into its account,
    // which the account flush below then writes.
    if (this.bulkStorage) await this.writeStorage();
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

  /** The storage cache's changed slots, one bulk update of each contract's storage trie. */
  private async writeStorage(): Promise<void> {
    const items = this._caches?.storage?.flush() ?? [];
    if (items.length === 0) return;
    const keccak = this.common.customCrypto.keccak256 ?? keccak256;
    const byContract = new Map<string, TrieWrite[]>();
    for (const [addressHex, keyHex, value] of items) {
      // What ethereumjs writes for the cached value: its RLP re-encoded, or a delete when empty.
      const decoded = RLP.decode(value ?? EMPTY) as Uint8Array;
      let writes = byContract.get(addressHex);
      if (writes === undefined) byContract.set(addressHex, (writes = []));
      writes.push({ nibbles: bytesToNibbles(keccak(unprefixedHexToBytes(keyHex))), value: decoded.length > 0 ? RLP.encode(decoded) : undefined });
    }
    const db = this._trie.database();
    const store = {
      get: (hash: Uint8Array) => db.get(hash),
      putMany: (nodes: { key: Uint8Array; value: Uint8Array }[]) => db.batch(nodes.map(({ key, value }) => ({ type: 'put' as const, key, value }))),
    };
    for (const [addressHex, writes] of byContract) {
      const address = createAddressFromString(`0x${addressHex}`);
      const account = await this.getAccount(address);
      if (account === undefined) continue; // as ethereumjs: no account, no storage
      writes.sort((a, b) => compareNibbles(a.nibbles, b.nibbles));
      const unique = lastPerKey(writes);
      let root: Uint8Array;
      try {
        root = await bulkUpdate(account.storageRoot, this._trie.EMPTY_TRIE_ROOT, unique, store, keccak);
      } catch (e) {
        if (!(e instanceof UnsupportedTrieShape)) throw e;
        // Nothing was written yet: this trie takes ethereumjs's path.
        for (const [a, keyHex, value] of items) {
          if (a === addressHex) await this._writeContractStorage(address, account, unprefixedHexToBytes(keyHex), RLP.decode(value ?? EMPTY) as Uint8Array);
        }
        continue;
      }
      account.storageRoot = root;
      // The storage trie ethereumjs keeps per contract must read from the new root.
      this._getStorageTrie(address, account).root(root);
      await this.putAccount(address, account);
    }
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

const EMPTY = new Uint8Array(0);

/** Sorted writes with one entry per key: the last one (a cache flush names each slot once anyway). */
function lastPerKey(sorted: TrieWrite[]): TrieWrite[] {
  const out: TrieWrite[] = [];
  for (const w of sorted) {
    const prev = out[out.length - 1];
    if (prev !== undefined && compareNibbles(prev.nibbles, w.nibbles) === 0) out[out.length - 1] = w;
    else out.push(w);
  }
  return out;
}
