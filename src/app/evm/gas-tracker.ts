/**
 * Exact gas estimation from one execution. Run a tx at a high gas limit and record, per call
 * frame, how much less gas the frame could have been given and still run the same path: its
 * "slack". The tx's minimal gas limit is then the limit used minus the top frame's slack.
 *
 * A frame's slack is the least of:
 *   - its gas left at the end (code deposit included for a create frame);
 *   - gas left before each SSTORE minus 2301 (EIP-2200: SSTORE needs gasleft > 2300);
 *   - gas left after paying for each CALL/CREATE ("avail"), since the opcode itself must be paid;
 *   - for each child that ran: `avail - x`, where x is the least avail whose 63/64 share still
 *     gives the child what it needs (its gas minus its own slack).
 * Giving a frame δ less gas lowers every later gas-left value in it by exactly δ as long as no
 * child runs out of gas; a child that halts and burns all its gas breaks that rule (less gas
 * in, less burnt), so such runs are flagged `nonlinear` and the caller falls back to a search.
 *
 * The same path at a lower limit also assumes the code never looked at the gas itself (GAS) and,
 * when gas is priced, at balances (BALANCE, SELFBALANCE, value transfers, SELFDESTRUCT's cost): the sender pays
 * limit × price up front, so what it can send moves with the limit. `exact` says none happened:
 * the one-run answer is then the minimum without a second execution.
 */

const SSTORE_SENTRY = 2300n;
const INFINITE = 1n << 255n;

/** What the tracker needs to know of a CALL/CREATE before the child runs. */
export interface CallStart {
  /** Gas left in the parent after paying for the opcode (before the child's share). */
  avail: bigint;
  /** Gas given to the child, stipend excluded. */
  given: bigint;
  /** The 2300 stipend of a value-bearing CALL/CALLCODE, else 0. */
  stipend: bigint;
}

/** Least x with x − ⌊x/64⌋ ≥ need (the avail a parent needs to pass `need` under EIP-150). */
export function minAvailFor(need: bigint): bigint {
  if (need <= 0n) return 0n;
  let x = (need * 64n + 62n) / 63n;
  while (x - x / 64n < need) x++;
  while (x > 0n && x - 1n - (x - 1n) / 64n >= need) x--;
  return x;
}

export class GasTracker {
  private readonly slack: bigint[] = [INFINITE];
  private readonly starts: CallStart[] = [];
  /** Set when a child burnt all its gas: the one-run answer may not be minimal. */
  nonlinear = false;
  /** The code read the gas left (GAS). */
  sawGas = false;
  /** The code read a balance, moved value or self-destructed (matters only when gas has a price). */
  sawBalance = false;

  /** Whether the one-run answer needs no confirming run (`priced`: the message pays for gas). */
  exact(priced: boolean): boolean {
    return !this.nonlinear && !this.sawGas && !(priced && this.sawBalance);
  }

  /** Before an SSTORE in the current frame, with the gas left at that point. */
  onSstore(gasLeft: bigint): void {
    this.limit(gasLeft - SSTORE_SENTRY - 1n);
  }

  /** Before a child runs: the parent must at least pay the opcode, and a child frame opens. */
  enterCall(start: CallStart): void {
    this.limit(start.avail);
    this.starts.push(start);
    this.slack.push(INFINITE);
  }

  /**
   * After the child returned. `parentGasLeftAfter` is the parent's gas left once the child's use
   * is charged; `failed` says the child did not succeed (reverted or halted).
   */
  exitCall(parentGasLeftAfter: bigint, failed: boolean): void {
    const start = this.starts.pop();
    const childSlack = this.slack.pop();
    if (start === undefined || childSlack === undefined || this.slack.length === 0) throw new Error('gas tracker: unbalanced call frames');
    const total = start.given + start.stipend;
    const used = start.avail + start.stipend - parentGasLeftAfter;
    if (failed && used >= total && total > 0n) {
      // Halted (out of gas, invalid opcode…): it burns whatever it gets, so the parent's gas
      // after the call does not move one-for-one with the gas the parent had.
      this.nonlinear = true;
      return;
    }
    const final = total - used;
    const s = childSlack < final ? childSlack : final;
    const need = start.given - s;
    if (need > 0n) this.limit(start.avail - minAvailFor(need));
  }

  /** The top frame's slack, given its gas left at the end of the tx's execution. */
  topSlack(finalGasLeft: bigint): bigint {
    const s = this.slack[0]!;
    return s < finalGasLeft ? s : finalGasLeft;
  }

  private limit(v: bigint): void {
    const i = this.slack.length - 1;
    if (v < this.slack[i]!) this.slack[i] = v < 0n ? 0n : v;
  }
}
