/**
 * What devnet control (src/devnet) may do to the EVM app, between blocks only: edit accounts of the
 * latest state and the meta, set the coinbase of the next blocks and a sender override
 * (impersonation), and read everything again after the database was rewritten underneath
 * (revert, state load). The app exposes it as `EvmApp.admin`; nothing else reaches the app's parts.
 *
 *   editAccount   live state ── edit ──> new root ── trie nodes + meta (one batch) ──> committed state advanced
 *   reload        meta, live and check states at the committed root, BLOCKHASH hashes, IBC store, caches
 */
import { Address, createAccount } from '@ethereumjs/util';
import { toPrefixedHex as hex } from '../../crypto/encoding.js';
import type { AppMeta, AppStore } from '../stores/app-store.js';
import type { ChainView } from '../views/chain-view.js';
import type { AuthRegistry } from '../cosmos/auth-registry.js';
import { EvmAppError } from '../errors.js';
import type { EvmRuntime } from '../execution/evm-runtime.js';
import type { DecodedTx } from '../execution/tx-decode.js';
import type { LevelTrieDB } from '../stores/trie-db.js';

export interface AccountEdit {
  balance?: bigint;
  nonce?: bigint;
  code?: Uint8Array;
  /** Slot (32 bytes) → value (up to 32 bytes; all-zero clears the slot). */
  storage?: readonly [Uint8Array, Uint8Array][];
}

/** Rewrites the sender of a decoded tx (impersonation), or returns it as it is. */
export type SenderOverride = (d: DecodedTx) => DecodedTx;

export interface AppAdmin {
  meta(): AppMeta | undefined;
  /**
   * Applies `edit` to `address` in the latest state, at once (no block is mined): eth_getBalance at
   * `latest`, eth_call and the next CheckTx see it, the next block builds on it. Returns the new
   * state root (the caller moves the next header's app hash to it).
   */
  editAccount(address: Address, edit: AccountEdit): Promise<Uint8Array>;
  /** Rewrites the meta (minimum gas price, next base fee, block gas limit); returns the new one. */
  editMeta(fn: (m: AppMeta) => AppMeta): Promise<AppMeta>;
  /** The EVM coinbase of the next blocks; undefined = each block's proposer. */
  setCoinbase(address: Address | undefined): void;
  /** Applied to every decoded tx (CheckTx, proposals, FinalizeBlock); undefined: none. */
  setSenderOverride(override: SenderOverride | undefined): void;
  /** Reads everything again from the db (it was rewritten underneath: revert, state load). */
  reload(): Promise<void>;
  /** Key prefix of the state trie's nodes: content-addressed and only ever added, so a revert may leave them. */
  trieKeyPrefix(): Uint8Array;
}

/** The app's parts the admin works on (handed over by EvmApp, never outside src/app). */
export interface AdminParts {
  readonly store: AppStore;
  readonly trieDb: LevelTrieDB;
  readonly view: ChainView;
  readonly auth: AuthRegistry;
  runtime(): EvmRuntime;
  meta(): AppMeta | undefined;
  /** Replaces the in-memory meta (written already) and drops a finalized-but-uncommitted block. */
  setMeta(meta: AppMeta): void;
  setSenderOverride(override: SenderOverride | undefined): void;
  /** Drops the decoded-tx cache. */
  clearTxCache(): void;
  reloadIbc(): Promise<void>;
}

export function createAppAdmin(p: AdminParts): AppAdmin {
  return {
    meta: () => p.meta(),
    editAccount: (address, edit) => editLatestState(p, address, edit),
    async editMeta(fn) {
      const meta = p.meta();
      if (meta === undefined) throw new EvmAppError('the app has no chain yet: InitChain first');
      const next = fn(meta);
      await p.store.commit([], next);
      p.setMeta(next);
      return next;
    },
    setCoinbase: (address) => p.view.setCoinbase(address),
    setSenderOverride: (o) => p.setSenderOverride(o),
    reload: () => reloadApp(p),
    trieKeyPrefix: () => new Uint8Array(Buffer.from((p.store.trie as unknown as { prefix: string }).prefix, 'utf8')),
  };
}

async function editLatestState(p: AdminParts, address: Address, edit: AccountEdit): Promise<Uint8Array> {
  const meta = p.meta();
  if (meta === undefined) throw new EvmAppError('the app has no chain yet: InitChain first');
  const rt = p.runtime();
  const state = rt.state;
  rt.accountWrites.take(); // only this edit's writes reach the committed state
  const account = (await state.getAccount(address)) ?? createAccount({});
  if (edit.balance !== undefined) account.balance = edit.balance;
  if (edit.nonce !== undefined) account.nonce = edit.nonce;
  await state.putAccount(address, account);
  if (edit.code !== undefined) await state.putCode(address, edit.code);
  for (const [slot, value] of edit.storage ?? []) await state.putStorage(address, slot, stripZeros(value));

  const root = await state.getStateRoot();
  const writes = rt.accountWrites.take();
  const ops = p.trieDb.takeReachable(root);
  const next = meta.lastHeight > 0 ? { ...meta, lastAppHash: hex(root) } : { ...meta, genesisRoot: hex(root) };
  try {
    await p.store.commit(ops, next);
  } catch (e) {
    p.trieDb.restorePending(ops);
    await state.setStateRoot(committedRoot(meta));
    throw e;
  }
  p.setMeta(next);
  rt.committed.advance(root, writes);
  return root;
}

async function reloadApp(p: AdminParts): Promise<void> {
  const meta = await p.store.loadMeta();
  if (meta === undefined) throw new EvmAppError('the reloaded db holds no chain');
  p.setMeta(meta);
  p.store.clearCache();
  p.view.clearCache();
  p.clearTxCache();
  p.auth.reset();
  await p.reloadIbc();
  const root = committedRoot(meta);
  const rt = p.runtime();
  rt.state.clearCaches();
  await rt.state.setStateRoot(root);
  rt.accountWrites.take();
  rt.committed.reset(root);
  if (meta.lastHeight > 0) {
    for (const { height, hash } of await p.store.recentHashes(meta.lastHeight, 256)) rt.blockHashes.add(height, hash);
  }
}

/** The state root after the last committed block (the genesis root before the first). */
export function committedRoot(meta: { lastHeight: number; lastAppHash: string; genesisRoot: string }): Uint8Array {
  const h = meta.lastHeight > 0 ? meta.lastAppHash : meta.genesisRoot;
  return new Uint8Array(Buffer.from(h.startsWith('0x') ? h.slice(2) : h, 'hex'));
}

function stripZeros(b: Uint8Array): Uint8Array {
  let i = 0;
  while (i < b.length && b[i] === 0) i++;
  return b.subarray(i);
}
