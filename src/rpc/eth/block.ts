/**
 * Blocks, headers and block receipts. The EVM view of a CometBFT block (REFERENCE §2.4): the same
 * hash in every method, receipt, log and newHeads notification.
 */
import type { EvmBlock } from '../../app/views/evm-view.js';
import type { BlockRef } from './block-param.js';
import type { EthEnv } from './env.js';
import { formatBlock, formatHeader, formatReceipt, formatTx, type Json } from './format.js';
import { data, quantity } from './hex.js';
import { findBlock } from './resolve.js';

/** Handler for `eth_blockNumber`. */
export function blockNumber(env: EthEnv): string {
  return quantity(env.view.latestHeight());
}

export async function blockJson(env: EthEnv, b: EvmBlock, fullTx: boolean): Promise<Json> {
  if (!fullTx) return formatBlock(b, b.txHashes.map(data));
  const txs = await env.view.getTransactionsOfBlock(b.number);
  const loc = (index: number) => ({ blockHash: b.hash, blockNumber: b.number, blockTimestamp: b.timestamp, index, baseFee: b.baseFeePerGas });
  return formatBlock(
    b,
    txs.map(({ tx, sender }, i) => formatTx(tx, sender, b.txHashes[i]!, loc(i))),
  );
}

/** Handler for `eth_getBlockByNumber`. */
export async function getBlockByNumber(env: EthEnv, [ref, fullTx]: [BlockRef, boolean | undefined]): Promise<Json | null> {
  const b = await findBlock(env, ref);
  return b ? blockJson(env, b, fullTx ?? false) : null;
}

/** Handler for `eth_getBlockByHash`. */
export async function getBlockByHash(env: EthEnv, [hash, fullTx]: [Uint8Array, boolean | undefined]): Promise<Json | null> {
  const b = await env.view.getBlockByHash(hash);
  return b ? blockJson(env, b, fullTx ?? false) : null;
}

/** Handler for `eth_getHeaderByNumber`. */
export async function getHeaderByNumber(env: EthEnv, [ref]: [BlockRef]): Promise<Json | null> {
  const b = await findBlock(env, ref);
  return b ? formatHeader(b) : null;
}

/** Handler for `eth_getHeaderByHash`. */
export async function getHeaderByHash(env: EthEnv, [hash]: [Uint8Array]): Promise<Json | null> {
  const b = await env.view.getBlockByHash(hash);
  return b ? formatHeader(b) : null;
}

/** Handler for `eth_getBlockTransactionCountByNumber`. */
export async function getBlockTransactionCountByNumber(env: EthEnv, [ref]: [BlockRef]): Promise<string | null> {
  const b = await findBlock(env, ref);
  return b ? quantity(b.txHashes.length) : null;
}

/** Handler for `eth_getBlockTransactionCountByHash`. */
export async function getBlockTransactionCountByHash(env: EthEnv, [hash]: [Uint8Array]): Promise<string | null> {
  const b = await env.view.getBlockByHash(hash);
  return b ? quantity(b.txHashes.length) : null;
}

/** Handler for `eth_getUncleByBlock{Hash,Number}AndIndex`: BFT blocks have no uncles. */
export function getUncle(): null {
  return null;
}

/** Handler for `eth_getUncleCountByBlock{Hash,Number}`. */
export function getUncleCount(): string {
  return '0x0';
}

/** Handler for `eth_getBlockReceipts`: every receipt of the block, in order. */
export async function getBlockReceipts(env: EthEnv, [ref]: [BlockRef]): Promise<Json[] | null> {
  const b = await findBlock(env, ref);
  if (!b) return null;
  const receipts = await env.view.getReceipts(b.number);
  return receipts.map((r) => formatReceipt(r, b.timestamp));
}
