/**
 * eth_estimateGas: the least gas limit at which the tx succeeds.
 *
 *   1. run at the cap with a GasTracker            → fails: `failed` throws (the RPC: revert, code 3, or
 *                                                    "gas required exceeds allowance")
 *   2. candidate = cap − slack of the top frame    (≥ intrinsic gas and the EIP-7623 floor)
 *   3. the tracker saw nothing that makes the path depend on the limit (no GAS, no child that
 *      burnt all its gas, no balance read when gas is priced) → the candidate is the answer (one run)
 *   4. otherwise run at the candidate              → succeeds: that is the answer (two runs)
 *   5. otherwise binary search: between the candidate and the cap when the candidate failed, or
 *      between the intrinsic gas and the candidate when a child burnt all its gas (the one-run
 *      model is then only an upper bound).
 */
import { GasTracker } from './gas-tracker.js';
import type { MessageResult } from './run-message.js';

export type RunAt = (gasLimit: bigint, tracker?: GasTracker) => Promise<MessageResult>;

export interface EstimateResult {
  gas: bigint;
  /** EVM executions used (the benchmark and tests check the two-run claim). */
  runs: number;
}

/** Throws what the caller answers for a message that fails even at the cap (geth's errors, in the RPC). */
export type FailureAtCap = (r: MessageResult, cap: bigint) => never;

/** `priced`: the message pays a gas price, so the sender's balance depends on the limit. */
export async function estimateGas(run: RunAt, cap: bigint, minGas: bigint, priced: boolean, failed: FailureAtCap): Promise<EstimateResult> {
  const tracker = new GasTracker();
  const first = await run(cap, tracker);
  let runs = 1;
  if (first.status !== 'success') failed(first, cap);

  let candidate = cap - tracker.topSlack(first.gasLeft);
  if (candidate < minGas) candidate = minGas;
  if (candidate >= cap) return { gas: cap, runs };
  if (tracker.exact(priced)) return { gas: candidate, runs };

  const second = await run(candidate);
  runs++;
  let lo: bigint;
  let hi: bigint;
  if (second.status === 'success') {
    if (!tracker.nonlinear) return { gas: candidate, runs };
    lo = minGas - 1n;
    hi = candidate;
  } else {
    lo = candidate;
    hi = cap;
  }
  // ── fallback: binary search, lo fails and hi succeeds ──
  while (hi - lo > 1n) {
    const mid = lo + (hi - lo) / 2n;
    const r = await run(mid);
    runs++;
    if (r.status === 'success') hi = mid;
    else lo = mid;
  }
  return { gas: hi, runs };
}
