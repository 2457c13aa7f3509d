/**
 * A MerkleStateManager whose account and storage reads that miss its caches walk the trie with
 * bulk-trie.ts's `readTrie`, one node read and decode a step, instead of MerklePatriciaTrie.get
 * (a WalkController with a promise, a task queue and a node object a step). A block of transfers to
 * new addresses looks up each one: upstream's walk was a quarter of such a block.
 *
 * getAccount and getStorage are upstream's (@ethereumjs/statemanager 10.1.3) line by line but for
 * the trie read: same cache reads and writes, same values. A trie shape readTrie does not take goes
 * to the trie's own `get`. Accounts decode with the view decoder (accountFromRlp).
 */
import type { MerklePatriciaTrie } from '@ethereumjs/mpt';
import { RLP } from '@ethereumjs/rlp';
import { MerkleStateManager } from '@ethereumjs/statemanager';
import { Account, bytesToBigInt, EthereumJSErrorWithoutCode, type Address } from '@ethereumjs/util';
import { bytesToNibbles, readTrie, UnsupportedTrieShape } from './bulk-trie.js';
import { rlpDecodeView } from '../views/rlp-view.js';

export class FastReadStateManager extends MerkleStateManager {
  /** Open checkpoints (the block executor unwinds what a throwing runTx left open). */
  get checkpointDepth(): number {
    return this._checkpointCount;
  }

  override async getAccount(address: Address): Promise<Account | undefined> {
    const elem = this._caches?.account?.get(address);
    if (elem !== undefined) return elem.accountRLP !== undefined ? accountFromRlp(elem.accountRLP) : undefined;
    const rlp = await trieGet(this._trie, address.bytes);
    const account = rlp !== null ? accountFromRlp(rlp) : undefined;
    this._caches?.account?.put(address, account);
    return account;
  }

  override async getStorage(address: Address, key: Uint8Array): Promise<Uint8Array> {
    if (key.length !== 32) throw EthereumJSErrorWithoutCode('Storage key must be 32 bytes long');
    const cached = this._caches?.storage?.get(address, key);
    if (cached !== undefined) return RLP.decode(cached ?? new Uint8Array(0)) as Uint8Array;
    const account = await this.getAccount(address);
    if (!account) return new Uint8Array();
    const value = await trieGet(this._getStorageTrie(address, account), key);
    this._caches?.storage?.put(address, key, value ?? Uint8Array.of(0x80));
    return RLP.decode(value ?? new Uint8Array(0)) as Uint8Array;
  }
}

/**
 * createAccountFromRLP (@ethereumjs/util) with the view decoder: the account cache hands out each
 * account this way on every read. The two hashes are copied (an Account owns its arrays).
 */
export function accountFromRlp(rlp: Uint8Array): Account {
  const values = rlpDecodeView(rlp);
  if (!Array.isArray(values)) throw EthereumJSErrorWithoutCode('Invalid serialized account input. Must be array');
  const [nonce, balance, storageRoot, codeHash] = values as Uint8Array[];
  return new Account(bytesToBigInt(nonce!), bytesToBigInt(balance!), storageRoot?.slice(), codeHash?.slice());
}

/** `trie.get(key)` by readTrie, the key hashed as the trie hashes it. */
async function trieGet(trie: MerklePatriciaTrie, key: Uint8Array): Promise<Uint8Array | null> {
  const applied = (trie as unknown as { appliedKey(k: Uint8Array): Uint8Array }).appliedKey(key);
  const db = trie.database();
  try {
    return await readTrie({ get: (hash) => db.get(hash) as Promise<Uint8Array | undefined> }, trie.root(), trie.EMPTY_TRIE_ROOT, bytesToNibbles(applied));
  } catch (e) {
    if (e instanceof UnsupportedTrieShape) return trie.get(key);
    throw e;
  }
}
