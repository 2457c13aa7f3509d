/**
 * Transactions: lookups (mined, then pending), receipts, logs of one tx, and submission of signed
 * txs. Submission goes through the mempool's CheckTx; its refusals are answered in geth's words
 * (errors.ts), so viem and ethers recognise "nonce too low", "insufficient funds"…
 */
import { RLP } from '@ethereumjs/rlp';
import { keccak256 } from '../../crypto/keccak.js';
import { MempoolFullError, TxInCacheError, TxTooLargeError } from '../../mempool/errors.js';
import type { BlockRef } from './block-param.js';
import type { EthEnv } from './env.js';
import { GethText, ServerError, gethTextForCheckTxLog } from './errors.js';
import { formatLog, formatReceipt, formatTx, type Json } from './format.js';
import { data } from './hex.js';
import { findBlock } from './resolve.js';

/** Handler for `eth_getTransactionByHash`: a mined tx, else a pending one, else null. */
export async function getTransactionByHash(env: EthEnv, [hash]: [Uint8Array]): Promise<Json | null> {
  const loc = await env.view.getTransaction(hash);
  if (loc) {
    const b = await env.view.getBlock(loc.height);
    return formatTx(loc.tx, loc.sender, hash, {
      blockHash: loc.blockHash,
      blockNumber: loc.height,
      blockTimestamp: b?.timestamp ?? 0n,
      index: loc.index,
      baseFee: b?.baseFeePerGas ?? 0n,
    });
  }
  const p = env.txpool.pending(hash);
  return p ? formatTx(p.tx, p.sender, p.hash) : null;
}

async function txAt(env: EthEnv, height: number | undefined, index: bigint): Promise<Json | null> {
  if (height === undefined) return null;
  const b = await env.view.getBlock(height);
  if (!b || index >= BigInt(b.txHashes.length)) return null;
  const txs = await env.view.getTransactionsOfBlock(height);
  const i = Number(index);
  const t = txs[i];
  return t
    ? formatTx(t.tx, t.sender, b.txHashes[i]!, { blockHash: b.hash, blockNumber: b.number, blockTimestamp: b.timestamp, index: i, baseFee: b.baseFeePerGas })
    : null;
}

/** Handler for `eth_getTransactionByBlockHashAndIndex`. */
export async function getTransactionByBlockHashAndIndex(env: EthEnv, [hash, index]: [Uint8Array, bigint]): Promise<Json | null> {
  return txAt(env, (await env.view.getBlockByHash(hash))?.number, index);
}

/** Handler for `eth_getTransactionByBlockNumberAndIndex`. */
export async function getTransactionByBlockNumberAndIndex(env: EthEnv, [ref, index]: [BlockRef, bigint]): Promise<Json | null> {
  return txAt(env, (await findBlock(env, ref))?.number, index);
}

/** Handler for `eth_getTransactionReceipt`: null until the tx is in a block. */
export async function getTransactionReceipt(env: EthEnv, [hash]: [Uint8Array]): Promise<Json | null> {
  const loc = await env.view.getTransaction(hash);
  if (!loc) return null;
  const [b, receipts] = await Promise.all([env.view.getBlock(loc.height), env.view.getReceipts(loc.height)]);
  const r = receipts[loc.index];
  return r && b ? formatReceipt(r, b.timestamp) : null;
}

/** Handler for `eth_getTransactionLogs` (Cosmos EVM): the logs of one mined tx. */
export async function getTransactionLogs(env: EthEnv, [hash]: [Uint8Array]): Promise<Json[] | null> {
  const loc = await env.view.getTransaction(hash);
  if (!loc) return null;
  const [b, receipts] = await Promise.all([env.view.getBlock(loc.height), env.view.getReceipts(loc.height)]);
  const r = receipts[loc.index];
  return r && b ? r.logs.map((l) => formatLog(l, r, b.timestamp)) : null;
}

/** True for a legacy tx whose signature commits to no chain id (v = 27 or 28). */
function isUnprotected(raw: Uint8Array): boolean {
  if (raw.length === 0 || raw[0]! < 0xc0) return false;
  try {
    const fields = RLP.decode(raw) as Uint8Array[];
    const v = fields[6];
    return v !== undefined && v.length === 1 && (v[0] === 27 || v[0] === 28);
  } catch {
    return false;
  }
}

/** Submits signed tx bytes; returns the EVM hash. Shared by eth_sendRawTransaction and eth_sendTransaction. */
export async function submitRaw(env: EthEnv, raw: Uint8Array): Promise<string> {
  if (!env.config.allowUnprotectedTxs && isUnprotected(raw)) throw new ServerError(GethText.unprotectedTx);
  let res;
  try {
    res = await env.txpool.submit(raw);
  } catch (e) {
    if (e instanceof TxInCacheError) throw new ServerError(GethText.alreadyKnown);
    if (e instanceof MempoolFullError) throw new ServerError(GethText.txPoolFull);
    if (e instanceof TxTooLargeError) throw new ServerError(GethText.oversizedData);
    throw e;
  }
  if (res.code !== 0) throw new ServerError(gethTextForCheckTxLog(res.log, res.sender ? { sender: res.sender } : {}));
  return data(res.ethHash ?? keccak256(raw));
}

/** Handler for `eth_sendRawTransaction`. */
export function sendRawTransaction(env: EthEnv, [raw]: [Uint8Array]): Promise<string> {
  return submitRaw(env, raw);
}
