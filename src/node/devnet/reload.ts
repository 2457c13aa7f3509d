/**
 * After the database was rewritten underneath the running node (evm_revert, anvil_loadState):
 * every part that keeps something of it in memory reads it again, in dependency order.
 *
 *   ranges → block store (base, height) → app (meta, roots, caches) → consensus head
 *   → mempool (emptied; the caller re-admits what it wants) → listeners (e.g. eth caches)
 *
 * Runs inside `consensus.exclusive`.
 */
import { reloadApp } from '../../app/app-reload.js';
import { ConsensusError } from '../../consensus/errors.js';
import { rangeBlockId } from './empty-range.js';
import { appOf, type DevnetParts } from './parts.js';

export async function reloadFromDb(parts: DevnetParts): Promise<void> {
  await parts.ranges.reload();
  await parts.blockStore.reload();
  const app = appOf(parts);
  await reloadApp(app);
  addRangeBlockHashes(parts);
  const state = await parts.stateStore.loadState();
  if (state === undefined) throw new ConsensusError('the reloaded db holds no chain state');
  const lastCommit = state.lastBlockHeight > 0 ? await parts.blockStore.loadSeenCommit(state.lastBlockHeight) : undefined;
  parts.consensus.resetHead(state, lastCommit);
  parts.mempool.flush();
}

/** BLOCKHASH reads the last 256 hashes; those of range blocks are not in the app's own index. */
export function addRangeBlockHashes(parts: DevnetParts): void {
  const top = parts.ranges.all().at(-1);
  if (top === undefined) return;
  const hashes = appOf(parts).runtime().blockHashes;
  for (let h = Math.max(top.from, top.to - 255); h <= top.to; h++) hashes.add(h, rangeBlockId(top, h).hash);
}
