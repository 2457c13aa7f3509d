/**
 * Fee suggestions and history. The base fee evolves per EIP-1559 (app/execution/fee-market.ts); the
 * suggested tip is a fixed 1 gwei as local devnets (Anvil, Hardhat) suggest, since one proposer
 * takes every block and any tip is enough.
 */
import { Capability } from '@ethereumjs/tx';
import type { BlockRef } from './block-param.js';
import type { EthEnv } from './env.js';
import { GethText, InvalidParamsError } from './errors.js';
import { quantity } from './hex.js';
import { findBlock } from './resolve.js';

export const SUGGESTED_TIP = 1_000_000_000n;

/** Handler for `eth_maxPriorityFeePerGas`. */
export function maxPriorityFeePerGas(): string {
  return quantity(SUGGESTED_TIP);
}

/** Handler for `eth_gasPrice`: next base fee plus the suggested tip. */
export function gasPrice(env: EthEnv): string {
  return quantity(env.view.nextBaseFee() + SUGGESTED_TIP);
}

/** Handler for `eth_feeHistory`. */
export async function feeHistory(env: EthEnv, [count, newest, percentiles]: [bigint, BlockRef, number[] | undefined]): Promise<Record<string, unknown>> {
  const cap = env.config.feeHistoryCap;
  if (count > BigInt(cap)) throw new InvalidParamsError(GethText.feeHistoryCap(cap, Number(count)), 0);
  const ps = percentiles ?? [];
  for (let i = 0; i < ps.length; i++) {
    if (!(ps[i]! >= 0 && ps[i]! <= 100)) throw new InvalidParamsError(`invalid reward percentile: ${ps[i]}`, 2);
    if (i > 0 && ps[i]! < ps[i - 1]!) throw new InvalidParamsError(`invalid reward percentile: #${i - 1}:${ps[i - 1]} > #${i}:${ps[i]}`, 2);
  }
  const head = await findBlock(env, newest);
  const last = head?.number ?? env.view.latestHeight();
  const n = Math.min(Number(count), last);
  const oldest = last - n + 1;
  const baseFees: string[] = [];
  const ratios: number[] = [];
  const rewards: string[][] = [];
  for (let h = oldest; h <= last; h++) {
    const b = await env.view.getBlock(h);
    if (!b) continue;
    baseFees.push(quantity(b.baseFeePerGas));
    ratios.push(b.gasLimit > 0n ? Number(b.gasUsed) / Number(b.gasLimit) : 0);
    if (ps.length > 0) rewards.push(await blockRewards(env, h, b.baseFeePerGas, ps));
  }
  // One more base fee: the block after the newest.
  const next = last === env.view.latestHeight() ? env.view.nextBaseFee() : ((await env.view.getBlock(last + 1))?.baseFeePerGas ?? 0n);
  baseFees.push(quantity(next));
  return {
    oldestBlock: quantity(n > 0 ? oldest : last),
    baseFeePerGas: baseFees,
    gasUsedRatio: ratios,
    baseFeePerBlobGas: baseFees.map(() => '0x0'),
    blobGasUsedRatio: ratios.map(() => 0),
    ...(ps.length > 0 ? { reward: rewards } : {}),
  };
}

/** Effective tips at the given gas-weighted percentiles of one block (geth's algorithm). */
async function blockRewards(env: EthEnv, height: number, baseFee: bigint, ps: number[]): Promise<string[]> {
  const [txs, receipts] = await Promise.all([env.view.getTransactionsOfBlock(height), env.view.getReceipts(height)]);
  if (txs.length === 0) return ps.map(() => '0x0');
  const items = txs
    .map(({ tx }, i) => {
      let tip: bigint;
      if (tx.supports(Capability.EIP1559FeeMarket)) {
        const t = tx as typeof tx & { maxFeePerGas: bigint; maxPriorityFeePerGas: bigint };
        const room = t.maxFeePerGas - baseFee;
        tip = room < t.maxPriorityFeePerGas ? room : t.maxPriorityFeePerGas;
      } else {
        tip = (tx as typeof tx & { gasPrice: bigint }).gasPrice - baseFee;
      }
      return { tip: tip > 0n ? tip : 0n, gas: receipts[i]?.gasUsed ?? 0n };
    })
    .sort((a, b) => (a.tip < b.tip ? -1 : a.tip > b.tip ? 1 : 0));
  const total = items.reduce((s, x) => s + x.gas, 0n);
  const out: string[] = [];
  let i = 0;
  let sum = items[0]!.gas;
  for (const p of ps) {
    const threshold = (Number(total) * p) / 100;
    while (Number(sum) < threshold && i < items.length - 1) sum += items[++i]!.gas;
    out.push(quantity(items[i]!.tip));
  }
  return out;
}
