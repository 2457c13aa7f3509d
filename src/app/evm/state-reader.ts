/**
 * Read-only, memoised access to the state after one block. The state at a height never changes,
 * so every value read once is kept (as a promise, which also merges concurrent reads of the same
 * key) and shared by all calls at that height: the second eth_call of a contract reads no trie.
 *
 *   eth_call ─> OverlayState (private writes) ─> StateReader (memo, shared) ─> MerkleStateManager
 */
import type { MerkleStateManager } from '@ethereumjs/statemanager';
import { Account, type Address } from '@ethereumjs/util';

/** Keys are unprefixed lower-case hex (address; address + slot). */
export interface StateReader {
  account(address: Address, key: string): Promise<Account | undefined>;
  code(address: Address, key: string): Promise<Uint8Array>;
  storage(address: Address, key: string, slot: Uint8Array, slotKey: string): Promise<Uint8Array>;
}

/** Bounds the memo of the latest state on a busy node; clearing only costs re-reads. */
const MAX_ENTRIES = 200_000;

export class MemoStateReader implements StateReader {
  private readonly accounts = new Map<string, Promise<Account | undefined>>();
  private readonly codes = new Map<string, Promise<Uint8Array>>();
  private readonly slots = new Map<string, Promise<Uint8Array>>();

  constructor(private readonly sm: MerkleStateManager) {}

  /** The returned Account is shared: callers must copy before handing it to the EVM. */
  account(address: Address, key: string): Promise<Account | undefined> {
    let p = this.accounts.get(key);
    if (p === undefined) {
      if (this.accounts.size >= MAX_ENTRIES) this.accounts.clear();
      p = this.sm.getAccount(address);
      this.remember(this.accounts, key, p);
    }
    return p;
  }

  code(address: Address, key: string): Promise<Uint8Array> {
    let p = this.codes.get(key);
    if (p === undefined) {
      if (this.codes.size >= MAX_ENTRIES) this.codes.clear();
      p = this.sm.getCode(address);
      this.remember(this.codes, key, p);
    }
    return p;
  }

  storage(address: Address, key: string, slot: Uint8Array, slotKey: string): Promise<Uint8Array> {
    const k = key + slotKey;
    let p = this.slots.get(k);
    if (p === undefined) {
      if (this.slots.size >= MAX_ENTRIES) this.slots.clear();
      p = this.sm.getStorage(address, slot);
      this.remember(this.slots, k, p);
    }
    return p;
  }

  /** A failed read is not kept, so a transient error is retried next time. */
  private remember<T>(map: Map<string, Promise<T>>, key: string, p: Promise<T>): void {
    map.set(key, p);
    p.catch(() => {
      if (map.get(key) === p) map.delete(key);
    });
  }
}

export function copyAccount(a: Account): Account {
  return new Account(a.nonce, a.balance, a.storageRoot, a.codeHash);
}
