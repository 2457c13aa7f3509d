/**
 * Blocks, as solana-test-validator serves them: getBlock, getBlocks, getBlocksWithLimit,
 * getBlockTime, getFirstAvailableBlock. A slot's block exists once the slot has closed (the open
 * slot's txs are not a block yet); `confirmed` reads up to the last closed slot, `finalized` 32
 * slots behind it. Errors are agave's: -32004 for a slot not produced yet, -32001 for one older
 * than the kept history.
 */
import type { SvmBlock, SvmTxRecord } from '../../svm/ledger.js';
import type { SolanaEnv } from './env.js';
import { invalidParams, SolanaRpcError } from './errors.js';
import type { Method } from './methods.js';
import { commitment, config, FINALITY_DEPTH, u64 } from './params.js';
import { encodeTx, encodeTxAccounts, maxVersion, txEncoding } from './tx-json.js';

/** agave's MAX_GET_CONFIRMED_BLOCKS_RANGE. */
export const MAX_BLOCKS_RANGE = 500_000n;
const DEFAULT_BLOCKHASH = '11111111111111111111111111111111';

const blockNotAvailable = (slot: bigint) => new SolanaRpcError(-32004, `Block not available for slot ${slot}`);
const cleanedUp = (slot: bigint, first: bigint) =>
  new SolanaRpcError(-32001, `Block ${slot} cleaned up, does not exist on node. First available block: ${first}`);

/** The newest slot whose block a read at `cfg`'s commitment sees (-1 when none). */
function newestBlock(env: SolanaEnv, cfg: Record<string, unknown>): bigint {
  const c = commitment(cfg);
  if (c === 'processed') throw invalidParams('Method does not support commitment below `confirmed`');
  const lastClosed = env.ledger.slot - 1n;
  return c === 'finalized' ? lastClosed - FINALITY_DEPTH : lastClosed;
}

function firstAvailable(env: SolanaEnv): bigint {
  return env.ledger.history.firstAvailableBlock() ?? env.ledger.slot;
}

function blockAt(env: SolanaEnv, slot: bigint, cfg: Record<string, unknown>): { block: SvmBlock; parent: SvmBlock | undefined; txs: SvmTxRecord[] } {
  if (slot > newestBlock(env, cfg)) throw blockNotAvailable(slot);
  const found = env.ledger.history.block(slot);
  if (!found) {
    const first = env.ledger.history.firstAvailableBlock();
    throw first === undefined || slot > first ? blockNotAvailable(slot) : cleanedUp(slot, first);
  }
  return found;
}

function transactionDetails(v: unknown): 'full' | 'signatures' | 'accounts' | 'none' {
  const d = v ?? 'full';
  if (d === 'full' || d === 'signatures' || d === 'accounts' || d === 'none') return d;
  throw invalidParams(`unknown variant \`${String(d)}\`, expected one of \`full\`, \`signatures\`, \`none\`, \`accounts\``);
}

/** The end slot and the config of getBlocks' `[start, end?, config?]` / `[start, config?]`. */
function rangeParams(p: unknown[]): { end: bigint | undefined; cfg: Record<string, unknown> } {
  if (typeof p[1] === 'object' && p[1] !== null) return { end: undefined, cfg: config(p[1]) };
  return { end: p[1] === undefined || p[1] === null ? undefined : u64(p[1], 'end slot'), cfg: config(p[2]) };
}

function slotsFrom(start: bigint, last: bigint): bigint[] {
  const out: bigint[] = [];
  for (let s = start; s <= last; s++) out.push(s);
  return out;
}

export const BLOCK_METHODS: Readonly<Record<string, Method>> = {
  getBlock: (env, p) => {
    const slot = u64(p[0], 'slot');
    const cfg = typeof p[1] === 'string' ? { encoding: p[1] } : config(p[1]);
    const encoding = txEncoding(cfg['encoding']);
    const details = transactionDetails(cfg['transactionDetails']);
    const rewards = cfg['rewards'] === undefined ? true : cfg['rewards'] === true;
    const max = maxVersion(cfg['maxSupportedTransactionVersion']);
    const { block, parent, txs } = blockAt(env, slot, cfg);
    const out: Record<string, unknown> = {
      blockHeight: block.blockHeight,
      blockTime: BigInt(Math.floor(block.timeMs / 1000)),
      blockhash: block.blockhash,
      parentSlot: slot === 0n ? 0n : slot - 1n,
      previousBlockhash: parent?.blockhash ?? DEFAULT_BLOCKHASH,
    };
    if (details === 'full') out['transactions'] = txs.map((r) => encodeTx(r, { encoding, maxVersion: max, rewards }));
    else if (details === 'accounts') out['transactions'] = txs.map((r) => encodeTxAccounts(r, { maxVersion: max, rewards }));
    else if (details === 'signatures') out['signatures'] = txs.map((r) => r.signature);
    if (rewards) out['rewards'] = [];
    return out;
  },
  getBlocks: (env, p) => {
    const start = u64(p[0], 'start slot');
    const { end, cfg } = rangeParams(p);
    const newest = newestBlock(env, cfg);
    const last = end === undefined || end > newest ? newest : end;
    if (end !== undefined && end - start > MAX_BLOCKS_RANGE) throw invalidParams(`Slot range too large; max ${MAX_BLOCKS_RANGE}`);
    const first = firstAvailable(env);
    const from = start > first ? start : first;
    if (last - from > MAX_BLOCKS_RANGE) throw invalidParams(`Slot range too large; max ${MAX_BLOCKS_RANGE}`);
    return slotsFrom(from, last);
  },
  getBlocksWithLimit: (env, p) => {
    const start = u64(p[0], 'start slot');
    const limit = u64(p[1], 'limit');
    if (limit > MAX_BLOCKS_RANGE) throw invalidParams(`Limit too large; max ${MAX_BLOCKS_RANGE}`);
    const newest = newestBlock(env, config(p[2]));
    const first = firstAvailable(env);
    const from = start > first ? start : first;
    const last = from + limit - 1n < newest ? from + limit - 1n : newest;
    return slotsFrom(from, last);
  },
  getBlockTime: (env, p) => {
    const slot = u64(p[0], 'slot');
    return BigInt(Math.floor(blockAt(env, slot, { commitment: 'confirmed' }).block.timeMs / 1000));
  },
  getFirstAvailableBlock: (env) => firstAvailable(env),
};
