/** tx and tx_search (rpc/core/tx.go): lookups in the tx index, with optional inclusion proofs. */
import { hex, i64 } from '../../codec/json/comet-json.js';
import { encodeExecTxResult } from '../../codec/json/comet-json-abci.js';
import { encodeTxProof } from '../../codec/json/comet-json-events.js';
import { toBase64, toHexUpper } from '../../crypto/encoding.js';
import type { TxResult } from '../../events/types.js';
import { txHash, txProof } from '../../types/txs.js';
import type { CometEnv } from './env.js';
import { IndexingDisabledError, TxNotFoundError } from './errors.js';
import { parseQuery } from './query.js';
import type { ResultTx, ResultTxSearch } from './results.js';
import { checkQueryLength, orderBy, paginate } from './rules.js';

async function resultTx(env: CometEnv, r: TxResult, hash: Uint8Array, prove: boolean): Promise<ResultTx> {
  const out: ResultTx = {
    hash: hex(hash),
    height: i64(r.height),
    index: r.index,
    tx_result: encodeExecTxResult(r.result),
    tx: toBase64(r.tx),
  };
  if (prove) {
    const block = await env.blockStore.loadBlock(r.height);
    if (block) out.proof = encodeTxProof(txProof(block.data.txs, r.index));
  }
  return out;
}

/** A tx by its SHA-256 hash. More: https://docs.cometbft.com/v0.38/rpc/#/Info/tx */
export async function tx(env: CometEnv, hash: Uint8Array, prove: boolean): Promise<ResultTx> {
  if (!env.txIndexer) throw new IndexingDisabledError('transaction');
  const r = await env.txIndexer.get(hash);
  if (!r) throw new TxNotFoundError(toHexUpper(hash));
  return resultTx(env, r, hash, prove);
}

/** Txs whose events match `query`; oldest first by default. More: https://docs.cometbft.com/v0.38/rpc/#/Info/tx_search */
export async function txSearch(
  env: CometEnv,
  args: { query: string; prove: boolean; page: number | undefined; perPage: number | undefined; orderBy: string },
): Promise<ResultTxSearch> {
  if (!env.txIndexer) throw new IndexingDisabledError('transaction');
  checkQueryLength(args.query);
  const q = parseQuery(args.query, false);
  const results = await env.txIndexer.search(q);
  const order = orderBy(args.orderBy, 'asc');
  results.sort(order === 'asc' ? (a, b) => a.height - b.height || a.index - b.index : (a, b) => b.height - a.height || b.index - a.index);
  const page = paginate(results, args.page, args.perPage);
  const txs = await Promise.all(page.map((r) => resultTx(env, r, txHash(r.tx), args.prove)));
  return { txs, total_count: i64(results.length) };
}
