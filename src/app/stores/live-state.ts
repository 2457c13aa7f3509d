/**
 * The state manager FinalizeBlock runs on: a MerkleStateManager whose flush writes the accounts
 * into the account trie, and each contract's changed slots into its storage trie, with one bulk
 * update per trie (bulk-trie.ts) instead of one `put` per key. Code is flushed as ethereumjs does;
 * the writes are the same, and so are the roots (checked against one `put` per key in
 * bulk-trie.test.ts, and block by block against a reference app in fast-execution.test.ts).
 */
import type { MerkleStateManagerOpts } from '@ethereumjs/statemanager';
import { RLP } from '@ethereumjs/rlp';
import { createAddressFromString, EthereumJSErrorWithoutCode, unpadBytes, unprefixedHexToBytes, type Address } from '@ethereumjs/util';
import { keccak256 } from '../../crypto/keccak.js';
import type { AccountWriteLog } from './account-write-log.js';
import { bulkUpdate, bytesToNibbles, compareNibbles, UnsupportedTrieShape, type TrieWrite } from './bulk-trie.js';
import { FastReadStateManager } from './fast-read-state.js';

type Deferred = ReturnType<AccountWriteLog['takeDeferred']>;

export class LiveStateManager extends FastReadStateManager {
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

  /**
   * MerkleStateManager.putStorage with a storage cache, minus the trie write: upstream (10.1.3) ends
   * with `cache.put(...) ?? await this._writeContractStorage(...)`, and `put` returns nothing, so
   * every SSTORE also wrote its slot into the storage trie at once (one trie `put`, hashing the
   * path), a write the flush then makes again. Here the slot goes to the cache only, as the cache
   * is there for; the flush writes it (the roots are the same: fast-execution.test.ts).
   */
  override async putStorage(address: Address, key: Uint8Array, value: Uint8Array): Promise<void> {
    const storage = this._caches?.storage;
    if (storage === undefined) return super.putStorage(address, key, value);
    if (key.length !== 32) throw EthereumJSErrorWithoutCode('Storage key must be 32 bytes long');
    if (value.length > 32) throw EthereumJSErrorWithoutCode('Storage value cannot be longer than 32 bytes');
    const account = await this.getAccount(address);
    if (!account) throw EthereumJSErrorWithoutCode('putStorage() called on non-existing account');
    storage.put(address, key, RLP.encode(unpadBytes(value)));
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
    const writes = items.map(([addressHex, elem]) => this.write(unprefixedHexToBytes(addressHex), elem.accountRLP));
    let root: Uint8Array;
    try {
      root = await this.bulkRoot(this._trie.root(), writes);
    } catch (e) {
      // Nothing was written yet: a trie shape this does not handle takes the usual path.
      if (e instanceof UnsupportedTrieShape) return this.putEach(items);
      throw e;
    }
    this._trie.root(root);
  }

  /** One trie write: the key hashed as the trie hashes it (keccak from the Common), the value or a delete. */
  private write(key: Uint8Array, value: Uint8Array | undefined): TrieWrite {
    return { nibbles: bytesToNibbles(this.keccak(key)), value };
  }

  private get keccak(): (data: Uint8Array) => Uint8Array {
    return this.common.customCrypto.keccak256 ?? keccak256;
  }

  /** The root of the trie at `root` after `writes` (one per key), its new nodes written to the db. */
  private bulkRoot(root: Uint8Array, writes: TrieWrite[]): Promise<Uint8Array> {
    writes.sort((a, b) => compareNibbles(a.nibbles, b.nibbles));
    const db = this._trie.database();
    const store = {
      get: (hash: Uint8Array) => db.get(hash),
      putMany: (nodes: { key: Uint8Array; value: Uint8Array }[]) => db.batch(nodes.map(({ key, value }) => ({ type: 'put' as const, key, value }))),
    };
    return bulkUpdate(root, this._trie.EMPTY_TRIE_ROOT, writes, store, this.keccak);
  }

  /** The storage cache's changed slots, one bulk update of each contract's storage trie. */
  private async writeStorage(): Promise<void> {
    const items = this._caches?.storage?.flush() ?? [];
    if (items.length === 0) return;
    // Each (contract, slot) once, its value as the cache holds it: RLP-encoded, as the trie stores it;
    // absent or the encoded empty value (0x80) meaning a delete.
    const byContract = new Map<string, { key: Uint8Array; value: Uint8Array | undefined }[]>();
    for (const [addressHex, keyHex, value] of items) {
      let slots = byContract.get(addressHex);
      if (slots === undefined) byContract.set(addressHex, (slots = []));
      slots.push({ key: unprefixedHexToBytes(keyHex), value: value === undefined || (value.length === 1 && value[0] === RLP_EMPTY) ? undefined : value });
    }
    for (const [addressHex, slots] of byContract) {
      const address = createAddressFromString(`0x${addressHex}`);
      const account = await this.getAccount(address);
      if (account === undefined) continue; // as ethereumjs: no account, no storage
      let root: Uint8Array;
      try {
        root = await this.bulkRoot(
          account.storageRoot,
          slots.map((s) => this.write(s.key, s.value)),
        );
      } catch (e) {
        if (!(e instanceof UnsupportedTrieShape)) throw e;
        // Nothing was written yet: this trie takes ethereumjs's path.
        for (const s of slots) await this._writeContractStorage(address, account, s.key, s.value === undefined ? EMPTY : (RLP.decode(s.value) as Uint8Array));
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
/** RLP of the empty byte string: a slot the storage cache holds as zero. */
const RLP_EMPTY = 0x80;
