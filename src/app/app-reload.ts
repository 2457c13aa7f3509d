/**
 * Re-reads the app from its db after devnet control rewrote the db underneath (evm_revert,
 * anvil_loadState): the meta, the live and check states at the committed root, the block hashes
 * BLOCKHASH reads, the IBC store, and no stale cached blocks. Runs between blocks only.
 */
import type { AppInternals } from './app-internals.js';
import { EvmAppError } from './errors.js';

export async function reloadApp(app: AppInternals): Promise<void> {
  const meta = await app.store.loadMeta();
  if (meta === undefined) throw new EvmAppError('the reloaded db holds no chain');
  app.setMeta(meta);
  app.store.clearCache();
  app.view.clearCache();
  app.txCache.clear();
  app.auth.reset();
  await app.reloadIbc?.();
  const root = committedRoot(meta);
  const rt = app.runtime();
  rt.state.clearCaches();
  await rt.state.setStateRoot(root);
  rt.accountWrites.take();
  rt.committed.reset(root);
  if (meta.lastHeight > 0) {
    for (const { height, hash } of await app.store.recentHashes(meta.lastHeight, 256)) rt.blockHashes.add(height, hash);
  }
}

/** The state root after the last committed block (the genesis root before the first). */
export function committedRoot(meta: { lastHeight: number; lastAppHash: string; genesisRoot: string }): Uint8Array {
  const h = meta.lastHeight > 0 ? meta.lastAppHash : meta.genesisRoot;
  return new Uint8Array(Buffer.from(h.startsWith('0x') ? h.slice(2) : h, 'hex'));
}
