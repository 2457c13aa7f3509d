/**
 * geth's same-nonce replacement rule: a new tx may take the place of a pooled one from the same
 * sender with the same nonce only if it pays strictly more and at least `PRICE_BUMP_PERCENT` more,
 * in both the fee cap and the tip (here: the priority, the effective tip).
 */

export const PRICE_BUMP_PERCENT = 10n;

export interface FeeFields {
  maxFeePerGas: bigint;
  priority: bigint;
}

function bumped(old: bigint, next: bigint): boolean {
  const threshold = (old * (100n + PRICE_BUMP_PERCENT)) / 100n;
  return next > old && next >= threshold;
}

export function meetsPriceBump(old: FeeFields, next: FeeFields): boolean {
  return bumped(old.maxFeePerGas, next.maxFeePerGas) && bumped(old.priority, next.priority);
}
