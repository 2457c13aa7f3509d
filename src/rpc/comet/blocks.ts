/**
 * Block queries (rpc/core/blocks.go): blockchain, block, block_by_hash, header, header_by_hash,
 * commit, block_results, block_search.
 */
import { encodeBlock, encodeBlockId, encodeBlockMeta, encodeCommit, encodeConsensusParams, encodeHeader, i64 } from '../../codec/json/comet-json.js';
import { encodeEvent, encodeExecTxResult, encodeValidatorUpdate } from '../../codec/json/comet-json-abci.js';
import { toBase64 } from '../../crypto/encoding.js';
import { EMPTY_BLOCK_ID, type Block, type BlockMeta } from '../../types/block.js';
import type { CometEnv } from './env.js';
import { IndexingDisabledError, MinMaxHeightError, NoStateForHeightError } from './errors.js';
import { parseQuery } from './query.js';
import type { ResultBlock, ResultBlockchainInfo, ResultBlockResults, ResultBlockSearch, ResultCommit, ResultHeader } from './results.js';
import { getHeight, orderBy, paginate } from './rules.js';

/** At most this many metas per `blockchain` call. */
const BLOCKCHAIN_LIMIT = 20;

/** rpc/core filterMinMax: defaults, clamping to [base, latest] and the 20-meta window. */
export function filterMinMax(base: number, height: number, min: number, max: number, limit: number): { min: number; max: number } {
  if (min < 0 || max < 0) throw new MinMaxHeightError('heights must be non-negative');
  let lo = min === 0 ? 1 : min;
  let hi = max === 0 ? height : max;
  hi = Math.min(height, hi);
  lo = Math.max(base, lo);
  lo = Math.max(lo, hi - limit + 1);
  if (lo > hi) throw new MinMaxHeightError(`min height ${lo} can't be greater than max height ${hi}`);
  return { min: lo, max: hi };
}

function resultBlock(block: Block | undefined, meta: BlockMeta | undefined): ResultBlock {
  return { block_id: encodeBlockId(meta?.blockId ?? EMPTY_BLOCK_ID), block: block ? encodeBlock(block) : null };
}

/** Metas from maxHeight down to minHeight. More: https://docs.cometbft.com/v0.38/rpc/#/Info/blockchain */
export async function blockchain(env: CometEnv, minHeight: number, maxHeight: number): Promise<ResultBlockchainInfo> {
  const bs = env.blockStore;
  const { min, max } = filterMinMax(bs.base(), bs.height(), minHeight, maxHeight, BLOCKCHAIN_LIMIT);
  const heights: number[] = [];
  for (let h = max; h >= min; h--) heights.push(h);
  const metas = await Promise.all(heights.map((h) => bs.loadBlockMeta(h)));
  return { last_height: i64(bs.height()), block_metas: metas.filter((m): m is BlockMeta => m !== undefined).map(encodeBlockMeta) };
}

/** More: https://docs.cometbft.com/v0.38/rpc/#/Info/block */
export async function block(env: CometEnv, height: number | undefined): Promise<ResultBlock> {
  const bs = env.blockStore;
  const h = getHeight(bs.height(), bs.base(), height);
  const [b, meta] = await Promise.all([bs.loadBlock(h), bs.loadBlockMeta(h)]);
  return resultBlock(b, meta);
}

/** Unknown hash → empty block id and a null block (no error). More: https://docs.cometbft.com/v0.38/rpc/#/Info/block_by_hash */
export async function blockByHash(env: CometEnv, hash: Uint8Array): Promise<ResultBlock> {
  const [b, meta] = await Promise.all([env.blockStore.loadBlockByHash(hash), env.blockStore.loadBlockMetaByHash(hash)]);
  return b ? resultBlock(b, meta) : resultBlock(undefined, undefined);
}

/** More: https://docs.cometbft.com/v0.38/rpc/#/Info/header */
export async function header(env: CometEnv, height: number | undefined): Promise<ResultHeader> {
  const bs = env.blockStore;
  const meta = await bs.loadBlockMeta(getHeight(bs.height(), bs.base(), height));
  return { header: meta ? encodeHeader(meta.header) : null };
}

/** More: https://docs.cometbft.com/v0.38/rpc/#/Info/header_by_hash */
export async function headerByHash(env: CometEnv, hash: Uint8Array): Promise<ResultHeader> {
  const meta = await env.blockStore.loadBlockMetaByHash(hash);
  return { header: meta ? encodeHeader(meta.header) : null };
}

/**
 * The signed header of a height: the seen commit (canonical: false) for the latest height, the
 * commit carried by the next block otherwise. More: https://docs.cometbft.com/v0.38/rpc/#/Info/commit
 */
export async function commit(env: CometEnv, height: number | undefined): Promise<ResultCommit | null> {
  const bs = env.blockStore;
  const latest = bs.height();
  const h = getHeight(latest, bs.base(), height);
  const meta = await bs.loadBlockMeta(h);
  if (!meta) return null;
  const canonical = h !== latest;
  const c = canonical ? await bs.loadBlockCommit(h) : await bs.loadSeenCommit(h);
  return { signed_header: { header: encodeHeader(meta.header), commit: c ? encodeCommit(c) : null }, canonical };
}

/** FinalizeBlock results of a height. More: https://docs.cometbft.com/v0.38/rpc/#/Info/block_results */
export async function blockResults(env: CometEnv, height: number | undefined): Promise<ResultBlockResults> {
  const bs = env.blockStore;
  const h = getHeight(bs.height(), bs.base(), height);
  const res = await env.stateStore.loadFinalizeBlockResponse(h);
  if (!res) throw new NoStateForHeightError('results', h);
  // Loaded from the state store, empty lists are nil in Go: null on the wire.
  return {
    height: i64(h),
    txs_results: res.txResults.length > 0 ? res.txResults.map(encodeExecTxResult) : null,
    finalize_block_events: res.events.length > 0 ? res.events.map(encodeEvent) : null,
    validator_updates: res.validatorUpdates.length > 0 ? res.validatorUpdates.map(encodeValidatorUpdate) : null,
    consensus_param_updates: res.consensusParamUpdates ? encodeConsensusParams(res.consensusParamUpdates) : null,
    app_hash: res.appHash.length > 0 ? toBase64(res.appHash) : null,
  };
}

/** Blocks whose FinalizeBlock events match; newest first by default. More: https://docs.cometbft.com/v0.38/rpc/#/Info/block_search */
export async function blockSearch(
  env: CometEnv,
  args: { query: string; page: number | undefined; perPage: number | undefined; orderBy: string },
): Promise<ResultBlockSearch> {
  if (!env.blockIndexer) throw new IndexingDisabledError('block');
  const q = parseQuery(args.query, false);
  const heights = await env.blockIndexer.search(q);
  const order = orderBy(args.orderBy, 'desc');
  heights.sort(order === 'desc' ? (a, b) => b - a : (a, b) => a - b);
  const page = paginate(heights, args.page, args.perPage);
  const loaded = await Promise.all(page.map(async (h) => ({ b: await env.blockStore.loadBlock(h), meta: await env.blockStore.loadBlockMeta(h) })));
  const blocks = loaded.filter((x) => x.b && x.meta).map((x) => resultBlock(x.b, x.meta));
  return { blocks, total_count: i64(heights.length) };
}
