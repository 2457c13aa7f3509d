/**
 * Account surgery on the latest state, as Anvil's anvil_setBalance / setCode / setNonce /
 * setStorageAt: the change is applied at once to the committed state (no block is mined), so
 * eth_getBalance at `latest`, eth_call and the next CheckTx all see it, and the next block builds
 * on it. The committed root moves:
 *
 *   live state ── edit ──> new root ── trie nodes + meta (one batch) ──> committed state advanced
 *
 * The caller (devnet control) moves the consensus app hash to the returned root, so the next
 * header's app_hash names the state it builds on. Runs between blocks only.
 */
import { Address, createAccount } from '@ethereumjs/util';
import type { AppInternals } from './app-internals.js';
import { committedRoot } from './app-reload.js';
import { EvmAppError } from './errors.js';
import { toPrefixedHex as hex } from '../crypto/encoding.js';

export interface AccountEdit {
  balance?: bigint;
  nonce?: bigint;
  code?: Uint8Array;
  /** Slot (32 bytes) → value (up to 32 bytes; all-zero clears the slot). */
  storage?: readonly [Uint8Array, Uint8Array][];
}

/** Applies `edit` to `address` in the latest state; returns the new state root. */
export async function editLatestState(app: AppInternals, address: Address, edit: AccountEdit): Promise<Uint8Array> {
  const meta = app.meta();
  if (meta === undefined) throw new EvmAppError('the app has no chain yet: InitChain first');
  const rt = app.runtime();
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
  const ops = app.trieDb.takeReachable(root);
  const next = meta.lastHeight > 0 ? { ...meta, lastAppHash: hex(root) } : { ...meta, genesisRoot: hex(root) };
  try {
    await app.store.commit(ops, next);
  } catch (e) {
    app.trieDb.restorePending(ops);
    await state.setStateRoot(committedRoot(meta));
    throw e;
  }
  app.setMeta(next);
  rt.committed.advance(root, writes);
  return root;
}

function stripZeros(b: Uint8Array): Uint8Array {
  let i = 0;
  while (i < b.length && b[i] === 0) i++;
  return b.subarray(i);
}
