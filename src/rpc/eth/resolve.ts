/**
 * Block parameters → heights and blocks. The shared rules of every handler (as CometBFT's
 * `getHeight` beside its Environment):
 * - `latest`, `pending`, `safe`, `finalized` → the last committed height (instant finality); calls
 *   at `pending` run in the next block's environment (`executionPoint`);
 * - `earliest` → block 0, the synthesized genesis block (genesis-block.ts);
 * - a number above the head: `null` for block lookups, geth's "header not found" for state;
 * - a hash: the block with that CometBFT hash, else null / "header not found".
 */
import type { EvmBlock } from '../../app/views/evm-view.js';
import type { BlockRef } from './block-param.js';
import type { EthEnv } from './env.js';
import type { ExecutionPoint } from '../../app/evm/offchain.js';
import { GethText, ServerError } from './errors.js';

/** The height whose state a state method reads. */
export async function stateHeight(env: EthEnv, ref: BlockRef): Promise<number> {
  const latest = env.view.latestHeight();
  switch (ref.kind) {
    case 'tag':
      return ref.tag === 'earliest' ? 0 : latest;
    case 'number':
      if (ref.number > latest) throw new ServerError(GethText.headerNotFound);
      return ref.number;
    case 'hash': {
      const b = await env.view.getBlockByHash(ref.hash);
      if (!b) throw new ServerError(GethText.headerNotFound);
      return b.number;
    }
  }
}

/**
 * Where a call, an estimate or a trace of a call executes: the state of `stateHeight`, and for
 * `pending` the environment of the next block as it would be proposed now (number, timestamp with
 * evm_setNextBlockTimestamp and time offsets, coinbase, gas limit, base fee), as Hardhat and geth do.
 */
export async function executionPoint(env: EthEnv, ref: BlockRef): Promise<ExecutionPoint> {
  const height = await stateHeight(env, ref);
  return ref.kind === 'tag' && ref.tag === 'pending' ? { height, pending: env.pendingHeader() } : { height };
}

/** The block a block method shows, or undefined (→ null on the wire). */
export async function findBlock(env: EthEnv, ref: BlockRef): Promise<EvmBlock | undefined> {
  const latest = env.view.latestHeight();
  switch (ref.kind) {
    case 'tag':
      return env.view.getBlock(ref.tag === 'earliest' ? 0 : latest);
    case 'number':
      return ref.number > latest ? undefined : env.view.getBlock(ref.number);
    case 'hash':
      return env.view.getBlockByHash(ref.hash);
  }
}

/** Latest block, if any block exists yet. */
export function latestBlock(env: EthEnv): Promise<EvmBlock | undefined> {
  const h = env.view.latestHeight();
  return h > 0 ? env.view.getBlock(h) : Promise.resolve(undefined);
}
