/**
 * The ethereumjs objects of one chain: the Common, the VM over the live state, the read-only
 * check-state at the last committed root (CheckTx, PrepareProposal), and factories for
 * independent state managers at any stored root.
 *
 *   live state      ── VM, FinalizeBlock ─┐
 *   committed state ── CheckTx (reads)  ──┼── LevelTrieDB (shared nodes) ── level
 *   stateAt(h)      ── Query, calls   ────┘     (copies write to a private overlay; calls and
 *                      and traces                traces read them through app/evm's memo)
 *
 * The live state's account writes are logged (AccountWriteLog) so that the committed state can
 * keep the accounts of each commit in memory (CommittedState).
 *
 * The block VM comes from the chain's EVM factory (src/app/evm/factory.ts), as the trace VMs and
 * the call EVMs do, with BLOCKHASH from the last 256 committed hashes (`RecentBlockHashes`).
 */
import type { Common } from '@ethereumjs/common';
import type { EVM } from '@ethereumjs/evm';
import { MerklePatriciaTrie } from '@ethereumjs/mpt';
import { Caches, MerkleStateManager } from '@ethereumjs/statemanager';
import { ValueEncoding, type BatchDBOp, type DB } from '@ethereumjs/util';
import type { VM } from '@ethereumjs/vm';
import type { Ics20Context } from '../../ibc/ics20-precompile.js';
import { createChainCommon, sharedTxCommon, type ChainCommonOpts } from '../chain-common.js';
import { RecentBlockHashes } from '../evm/block-hashes.js';
import { createChainVm } from '../evm/factory.js';
import { EMPTY_TRIE_ROOT } from '../stores/ordered-trie.js';
import type { LevelTrieDB } from '../stores/trie-db.js';
import { logAccountWrites, type AccountWriteLog } from '../stores/account-write-log.js';
import { CommittedState } from '../stores/committed-state.js';
import { LiveStateManager } from '../stores/live-state.js';
import { FastReadStateManager } from '../stores/fast-read-state.js';
import { hashCaches, useHashMaps } from './hash-caches.js';
import { speedUpEvm } from '../interpreter/fast-evm.js';

export interface EvmRuntime {
  readonly common: Common;
  /** `common` for decoding txs without per-tx copies (see sharedTxCommon). */
  readonly txCommon: Common;
  readonly vm: VM;
  /** The state the VM executes blocks on. */
  readonly state: MerkleStateManager;
  /** The live state's caches (write-back: flushed into the trie once per block). */
  readonly caches: Caches;
  /** What the live state's flushes wrote since the last commit point (taken by the app there). */
  readonly accountWrites: AccountWriteLog;
  /** Committed state for CheckTx / PrepareProposal; moved (`advance`/`reset`) at each commit point. */
  readonly committed: CommittedState;
  readonly blockHashes: RecentBlockHashes;
  /** What the ICS-20 precompile works on while the block executor runs a tx (undefined otherwise). */
  readonly ics20: { ctx: Ics20Context | undefined };
}

/**
 * `reference`: the block VM keeps ethereumjs's own interpreter loop (interpreter/fast-evm.ts) and
 * storage is flushed one slot at a time (live-state.ts).
 */
export async function createRuntime(
  trieDb: LevelTrieDB,
  chain: ChainCommonOpts,
  root: Uint8Array | undefined,
  committedAccounts?: number,
  reference = false,
): Promise<EvmRuntime> {
  const common = createChainCommon(chain);
  const caches = new Caches();
  const accountWrites = logAccountWrites(caches);
  useHashMaps(caches); // after the account cache became the logging one

  const state = new LiveStateManager({ common, trie: openTrie(trieDb, common, root), caches }, accountWrites, !reference);
  const committed = new CommittedState((r) => checkStateAt(trieDb, common, r), root, committedAccounts);
  const blockHashes = new RecentBlockHashes();
  const ics20: EvmRuntime['ics20'] = { ctx: undefined };
  const vm = await createChainVm(common, state, blockHashes, ics20);
  if (!reference) speedUpEvm(vm.evm as EVM);
  return { common, txCommon: sharedTxCommon(common), vm, state, caches, accountWrites, committed, blockHashes, ics20 };
}

/**
 * A fresh read-only state manager at a committed root (CommittedState's fallback). Replaced rather
 * than re-rooted at each Commit: the ethereumjs caches record reads as changes, and re-rooting would
 * first flush them into the trie.
 */
export function checkStateAt(trieDb: LevelTrieDB, common: Common, root: Uint8Array | undefined): MerkleStateManager {
  return new FastReadStateManager({ common, trie: openTrie(trieDb, common, root), caches: hashCaches({ storage: { size: 0 } }) });
}

/** An independent state manager at `root`: it reads the shared nodes and keeps its writes private. */
export function stateManagerAt(trieDb: LevelTrieDB, common: Common, root: Uint8Array): MerkleStateManager {
  return new FastReadStateManager({ common, trie: openTrie(new OverlayTrieDB(trieDb), common, root), caches: hashCaches() });
}

function openTrie(db: DB<string, Uint8Array>, common: Common, root: Uint8Array | undefined): MerklePatriciaTrie {
  // The constructor is synchronous (createMPT is async only for root persistence, unused here).
  return new MerklePatriciaTrie({
    db: db as DB<string, string | Uint8Array>,
    useKeyHashing: true,
    valueEncoding: ValueEncoding.Bytes,
    common,
    root: root ?? EMPTY_TRIE_ROOT,
  });
}

/** Reads through to the shared trie db; writes stay in this copy. */
class OverlayTrieDB implements DB<string, Uint8Array> {
  private readonly own = new Map<string, Uint8Array>();
  constructor(private readonly base: DB<string, Uint8Array>) {}
  async get(key: string): Promise<Uint8Array | undefined> {
    return this.own.get(key) ?? this.base.get(key);
  }
  async put(key: string, value: Uint8Array): Promise<void> {
    this.own.set(key, value);
  }
  async del(_key: string): Promise<void> {}
  async batch(ops: BatchDBOp<string, Uint8Array>[]): Promise<void> {
    for (const op of ops) if (op.type === 'put') this.own.set(op.key, op.value);
  }
  shallowCopy(): DB<string, Uint8Array> {
    return this;
  }
  async open(): Promise<void> {}
}
