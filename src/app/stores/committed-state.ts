/**
 * The last committed state as CheckTx and PrepareProposal read it: a sender's nonce, balance and
 * code hash (and, for delegated senders, code).
 *
 *   getAccount ── accounts (in memory, moved with every commit) ──miss──> trie at the committed root
 *
 * A cold trie read walks ~6 nodes (hash the key, fetch and decode each node): several times the
 * cost of all other CheckTx checks together. The live state already holds every account that the
 * genesis, a block or a devnet edit wrote (`AccountWriteLog`), so at each commit point the app hands
 * those accounts over (`advance`) and CheckTx finds them in memory. Accounts read from the trie are
 * remembered too, unless the committed root moved while the read was in flight.
 *
 * The entries always equal the committed state: `advance` takes every account the new root differs
 * in; `reset` (db reload, snapshot revert) forgets them all. Bounded: the oldest go first.
 */
import type { MerkleStateManager } from '@ethereumjs/statemanager';
import type { Account, Address } from '@ethereumjs/util';
import { accountFromRlp } from './fast-read-state.js';

/** Reads of the committed state (what CheckTx and PrepareProposal need). */
export interface CommittedReader {
  getAccount(address: Address): Promise<Account | undefined>;
  getCode(address: Address): Promise<Uint8Array>;
}

/** Account RLP by unprefixed lower-case hex address; undefined = no account. */
export type AccountWrites = ReadonlyMap<string, Uint8Array | undefined>;

/** Stands for "no account at this address" in the map. */
const NO_ACCOUNT = new Uint8Array(0);

export const DEFAULT_COMMITTED_ACCOUNTS = 100_000;

export class CommittedState implements CommittedReader {
  /** Opened on the first miss after the root moves: most commits need no trie read at all. */
  private trieAtRoot: MerkleStateManager | undefined;
  private root: Uint8Array | undefined;
  private readonly accounts = new Map<string, Uint8Array>();
  /** Moves with the committed root; a trie read started under another epoch is not remembered. */
  private epoch = 0;

  /** `open(root)` gives a read-only state manager at `root` (fresh caches). */
  constructor(
    private readonly open: (root: Uint8Array | undefined) => MerkleStateManager,
    root: Uint8Array | undefined,
    readonly maxAccounts = DEFAULT_COMMITTED_ACCOUNTS,
  ) {
    this.root = root;
  }

  private get trie(): MerkleStateManager {
    return (this.trieAtRoot ??= this.open(this.root));
  }

  get size(): number {
    return this.accounts.size;
  }

  async getAccount(address: Address): Promise<Account | undefined> {
    const key = addressKey(address);
    const rlp = this.accounts.get(key);
    if (rlp !== undefined) return rlp === NO_ACCOUNT ? undefined : accountFromRlp(rlp);
    const epoch = this.epoch;
    const account = await this.trie.getAccount(address);
    if (epoch === this.epoch) this.remember(key, account === undefined ? NO_ACCOUNT : account.serialize());
    return account;
  }

  /** Code is only read for senders with code (EIP-7702 delegations): straight from the trie. */
  getCode(address: Address): Promise<Uint8Array> {
    return this.trie.getCode(address);
  }

  /** The committed root moved to `root`; `writes` holds every account it differs in from the last one. */
  advance(root: Uint8Array, writes: AccountWrites): void {
    this.epoch++;
    this.root = root;
    this.trieAtRoot = undefined;
    for (const [key, rlp] of writes) this.remember(key, rlp === undefined || rlp.length === 0 ? NO_ACCOUNT : rlp);
  }

  /** The committed root moved with no record of what changed (db reload, revert): forget every account. */
  reset(root: Uint8Array | undefined): void {
    this.epoch++;
    this.accounts.clear();
    this.root = root;
    this.trieAtRoot = undefined;
  }

  private remember(key: string, rlp: Uint8Array): void {
    if (this.accounts.size >= this.maxAccounts && !this.accounts.has(key)) {
      // Map iteration is insertion order: drop the oldest tenth at once (amortised O(1)).
      let drop = Math.max(1, Math.floor(this.maxAccounts / 10));
      for (const k of this.accounts.keys()) {
        this.accounts.delete(k);
        if (--drop === 0) break;
      }
    }
    this.accounts.set(key, rlp);
  }
}

/** The ethereumjs account cache's key: unprefixed lower-case hex. */
export function addressKey(address: Address): string {
  const b = address.bytes;
  return Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('hex');
}
