/**
 * EIP-1559 fee market: the base fee evolves block to block (elasticity 2, change denominator 8),
 * floored at the min gas price as the Cosmos EVM feemarket module does, and the per-tx prices
 * derived from it.
 */
import { Capability, type TypedTransaction } from '@ethereumjs/tx';

export const ELASTICITY_MULTIPLIER = 2n;
export const BASE_FEE_CHANGE_DENOMINATOR = 8n;
/** Block gas limit reported when consensus max_gas is -1 (as Cosmos EVM does, for JS tooling). */
export const UNLIMITED_BLOCK_GAS = 4_294_967_295n;

/** The EVM block gas limit for a consensus `block.max_gas`. */
export function blockGasLimit(maxGas: number): bigint {
  return maxGas < 0 ? UNLIMITED_BLOCK_GAS : BigInt(maxGas);
}

/** Base fee of the block after one that used `gasUsed` of `gasLimit` at `baseFee`. */
export function nextBaseFee(parent: { gasUsed: bigint; gasLimit: bigint; baseFee: bigint }, minBaseFee: bigint): bigint {
  const { gasUsed, gasLimit, baseFee } = parent;
  const target = gasLimit / ELASTICITY_MULTIPLIER;
  let next = baseFee;
  if (target > 0n && gasUsed > target) {
    const delta = (baseFee * (gasUsed - target)) / target / BASE_FEE_CHANGE_DENOMINATOR;
    next = baseFee + (delta > 1n ? delta : 1n);
  } else if (target > 0n && gasUsed < target) {
    next = baseFee - (baseFee * (target - gasUsed)) / target / BASE_FEE_CHANGE_DENOMINATOR;
  }
  return next < minBaseFee ? minBaseFee : next;
}

/** Max fee per gas the sender agreed to (legacy and access-list txs: the gas price). */
export function maxFeePerGas(tx: TypedTransaction): bigint {
  return tx.supports(Capability.EIP1559FeeMarket) ? (tx as { maxFeePerGas: bigint }).maxFeePerGas : (tx as { gasPrice: bigint }).gasPrice;
}

/** Tip per gas the block producer gets at `baseFee` (0 when the tx cannot pay the base fee). */
export function effectiveTip(tx: TypedTransaction, baseFee: bigint): bigint {
  const maxFee = maxFeePerGas(tx);
  if (maxFee <= baseFee) return 0n;
  const room = maxFee - baseFee;
  if (!tx.supports(Capability.EIP1559FeeMarket)) return room;
  const prio = (tx as { maxPriorityFeePerGas: bigint }).maxPriorityFeePerGas;
  return prio < room ? prio : room;
}

/** Price per gas actually paid: min(maxFee, baseFee + tip). */
export function effectiveGasPrice(tx: TypedTransaction, baseFee: bigint): bigint {
  if (!tx.supports(Capability.EIP1559FeeMarket)) return (tx as { gasPrice: bigint }).gasPrice;
  return baseFee + effectiveTip(tx, baseFee);
}
