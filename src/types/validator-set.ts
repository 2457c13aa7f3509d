/**
 * The validator set and weighted round-robin proposer selection, following CometBFT
 * types/validator_set.go:
 *
 *   order      validators sorted by voting power (desc), then address (asc); indices are fixed
 *   increment  rescale priorities into a 2×total window, centre them on their average, then per
 *              round: every priority += power, the highest (ties: smaller address) proposes and
 *              pays total power back
 *   new set    all priorities 0, then one increment (so round 0's proposer is already chosen)
 *
 * Powers and priorities are JS numbers; the total is capped at MAX_TOTAL_VOTING_POWER so every
 * intermediate value stays an exact integer.
 */
import { bytesEqual, compareBytes, toHex, toHexUpper } from '../crypto/encoding.js';
import { addressFromPubKey, ED25519_PUBKEY_LENGTH } from '../crypto/ed25519.js';
import { merkleRoot } from '../crypto/merkle.js';
import { encodeSimpleValidator } from './proto.js';
import type { Validator } from './block.js';
import { EmptyValidatorSetError, InvalidIncrementError, InvalidValidatorUpdateError, TotalVotingPowerOverflowError } from './errors.js';

/**
 * CometBFT allows MaxInt64/8; we allow MAX_SAFE_INTEGER/8 so that priorities (bounded by a few
 * times the total) never lose precision as doubles.
 */
export const MAX_TOTAL_VOTING_POWER = Math.floor(Number.MAX_SAFE_INTEGER / 8);
const PRIORITY_WINDOW_SIZE_FACTOR = 2;

export interface ValidatorPowerUpdate {
  /** ed25519 public key, 32 bytes. */
  pubKey: Uint8Array;
  /** New voting power; 0 removes the validator (only in `withUpdates`). */
  power: number;
}

function byVotingPower(a: Validator, b: Validator): number {
  return b.votingPower - a.votingPower || compareBytes(a.address, b.address);
}

/** Go integer division truncates toward zero; `|| 0` folds -0 into 0. */
function truncDiv(a: number, b: number): number {
  return Math.trunc(a / b) || 0;
}

/** The validator with the higher priority; on a tie, the smaller address (Validator.CompareProposerPriority). */
function morePriority(a: Validator, b: Validator): Validator {
  if (a.proposerPriority !== b.proposerPriority) return a.proposerPriority > b.proposerPriority ? a : b;
  return compareBytes(a.address, b.address) <= 0 ? a : b;
}

function checkedPowerUpdates(changes: readonly ValidatorPowerUpdate[], allowZero: boolean): Validator[] {
  const vals = changes.map((c): Validator => {
    if (c.pubKey.length !== ED25519_PUBKEY_LENGTH) {
      throw new InvalidValidatorUpdateError(`validator public key must be ${ED25519_PUBKEY_LENGTH} bytes, got ${c.pubKey.length}`);
    }
    const address = addressFromPubKey(c.pubKey);
    if (!Number.isSafeInteger(c.power)) throw new InvalidValidatorUpdateError(`voting power must be an integer, got ${c.power}`, toHexUpper(address));
    if (c.power < 0) throw new InvalidValidatorUpdateError(`voting power can't be negative: ${c.power}`, toHexUpper(address));
    if (c.power > MAX_TOTAL_VOTING_POWER) {
      throw new InvalidValidatorUpdateError(
        `to prevent clipping/overflow, voting power can't be higher than ${MAX_TOTAL_VOTING_POWER}, got ${c.power}`,
        toHexUpper(address),
      );
    }
    if (c.power === 0 && !allowZero) throw new InvalidValidatorUpdateError('cannot process validators with voting power 0', toHexUpper(address));
    return { address, pubKey: c.pubKey.slice(), votingPower: c.power, proposerPriority: 0 };
  });
  vals.sort((a, b) => compareBytes(a.address, b.address));
  for (let i = 1; i < vals.length; i++) {
    if (bytesEqual(vals[i]!.address, vals[i - 1]!.address)) throw new InvalidValidatorUpdateError('duplicate entry', toHexUpper(vals[i]!.address));
  }
  return vals;
}

function sumPower(vals: readonly Validator[]): number {
  let total = 0;
  for (const v of vals) total += v.votingPower;
  if (total > MAX_TOTAL_VOTING_POWER) throw new TotalVotingPowerOverflowError(total, MAX_TOTAL_VOTING_POWER);
  return total;
}

export class ValidatorSet {
  /** In set order. Treat as read-only: indices are what commits and votes refer to. */
  readonly validators: Validator[];
  private proposerIndex: number;
  private readonly total: number;
  private readonly indexByAddress: Map<string, number>;
  private cachedHash: Uint8Array | undefined;

  /** `validators` must already be sorted and owned by the new set. */
  private constructor(validators: Validator[], proposerIndex: number) {
    this.validators = validators;
    this.proposerIndex = proposerIndex;
    this.total = sumPower(validators);
    this.indexByAddress = new Map(validators.map((v, i) => [toHex(v.address), i]));
  }

  /** A new set from genesis / InitChain updates, as CometBFT NewValidatorSet. */
  static fromUpdates(updates: readonly ValidatorPowerUpdate[]): ValidatorSet {
    const vals = checkedPowerUpdates(updates, false);
    vals.sort(byVotingPower);
    const set = new ValidatorSet(vals, -1);
    if (vals.length > 0) set.incrementProposerPriority(1);
    return set;
  }

  /**
   * Rebuilds a set from stored validators, keeping their priorities. The proposer cannot always
   * be recovered from priorities alone, so pass `proposerAddress` when it was stored; otherwise
   * the validator with the lowest priority (ties: larger address) is taken, as CometBFT's
   * ValidatorSetFromExistingValidators does.
   */
  static fromValidators(vals: readonly Validator[], proposerAddress?: Uint8Array): ValidatorSet {
    const copies = vals.map((v) => ({ ...v }));
    copies.sort(byVotingPower);
    const set = new ValidatorSet(copies, -1);
    const stored = proposerAddress ? set.getByAddress(proposerAddress) : undefined;
    set.proposerIndex = stored ? stored.index : set.previousProposerIndex();
    return set;
  }

  get proposer(): Validator {
    const p = this.validators[this.proposerIndex];
    if (!p) throw new EmptyValidatorSetError('get the proposer');
    return p;
  }

  totalVotingPower(): number {
    return this.total;
  }

  size(): number {
    return this.validators.length;
  }

  /** Header validators_hash: merkle root over SimpleValidator{pub_key, voting_power} in set order. */
  hash(): Uint8Array {
    this.cachedHash ??= merkleRoot(this.validators.map((v) => encodeSimpleValidator(v.pubKey, v.votingPower)));
    return this.cachedHash;
  }

  getByAddress(addr: Uint8Array): { index: number; validator: Validator } | undefined {
    const index = this.indexByAddress.get(toHex(addr));
    return index === undefined ? undefined : { index, validator: this.validators[index]! };
  }

  getByIndex(i: number): Validator | undefined {
    return this.validators[i];
  }

  /** Deep enough to advance priorities independently (byte arrays are shared, never mutated). */
  copy(): ValidatorSet {
    const c = new ValidatorSet(
      this.validators.map((v) => ({ ...v })),
      this.proposerIndex,
    );
    c.cachedHash = this.cachedHash;
    return c;
  }

  /** Advances proposer selection by `times` rounds (CometBFT IncrementProposerPriority). */
  incrementProposerPriority(times: number): void {
    if (this.validators.length === 0) throw new EmptyValidatorSetError('increment proposer priority');
    if (!Number.isInteger(times) || times <= 0) throw new InvalidIncrementError(times);
    this.rescalePriorities(PRIORITY_WINDOW_SIZE_FACTOR * this.total);
    this.shiftByAveragePriority();
    for (let i = 0; i < times; i++) this.proposerIndex = this.incrementOnce();
  }

  copyIncrementProposerPriority(times: number): ValidatorSet {
    const c = this.copy();
    c.incrementProposerPriority(times);
    return c;
  }

  /** More than two thirds of the total power: power * 3 > total * 2. */
  hasTwoThirdsMajority(power: number): boolean {
    return power * 3 > this.total * 2;
  }

  /**
   * A new set with ABCI validator updates applied (power 0 removes), as CometBFT
   * UpdateWithChangeSet: new validators start at -1.125 × the new total so that leaving and
   * rejoining cannot reset a negative priority. As in CometBFT's state update, callers should
   * then call `incrementProposerPriority(1)` on the result to pick its proposer.
   */
  withUpdates(changes: readonly ValidatorPowerUpdate[]): ValidatorSet {
    if (changes.length === 0) return this.copy();
    const parsed = checkedPowerUpdates(changes, true);
    const updates = parsed.filter((v) => v.votingPower > 0);
    const deletes = parsed.filter((v) => v.votingPower === 0);

    const numNew = updates.filter((u) => !this.getByAddress(u.address)).length;
    if (numNew === 0 && this.validators.length === deletes.length) {
      throw new InvalidValidatorUpdateError('applying the validator changes would result in empty set');
    }

    let removedPower = 0;
    for (const d of deletes) {
      const found = this.getByAddress(d.address);
      if (!found) throw new InvalidValidatorUpdateError('failed to find validator to remove', toHexUpper(d.address));
      removedPower += found.validator.votingPower;
    }

    // Check the running total in the order CometBFT does (smallest delta first).
    const delta = (u: Validator): number => u.votingPower - (this.getByAddress(u.address)?.validator.votingPower ?? 0);
    let running = this.total - removedPower;
    for (const u of [...updates].sort((a, b) => delta(a) - delta(b))) {
      running += delta(u);
      if (running > MAX_TOTAL_VOTING_POWER) throw new TotalVotingPowerOverflowError(running, MAX_TOTAL_VOTING_POWER);
    }
    const totalBeforeRemovals = running + removedPower;

    const merged = new Map(this.validators.map((v) => [toHex(v.address), { ...v }]));
    for (const u of updates) {
      const existing = this.getByAddress(u.address);
      u.proposerPriority = existing ? existing.validator.proposerPriority : -(totalBeforeRemovals + Math.floor(totalBeforeRemovals / 8));
      merged.set(toHex(u.address), u);
    }
    for (const d of deletes) merged.delete(toHex(d.address));

    const vals = [...merged.values()].sort(byVotingPower);
    const next = new ValidatorSet(vals, -1);
    next.rescalePriorities(PRIORITY_WINDOW_SIZE_FACTOR * next.total);
    next.shiftByAveragePriority();
    const kept = this.validators[this.proposerIndex] && next.getByAddress(this.validators[this.proposerIndex]!.address);
    next.proposerIndex = kept ? kept.index : next.highestPriorityIndex();
    return next;
  }

  // ------------------------------------------------------------------ priority arithmetic

  /** Divides all priorities by ceil(diff / diffMax) when their spread exceeds diffMax. */
  private rescalePriorities(diffMax: number): void {
    if (diffMax <= 0 || this.validators.length === 0) return;
    let max = -Infinity;
    let min = Infinity;
    for (const v of this.validators) {
      if (v.proposerPriority > max) max = v.proposerPriority;
      if (v.proposerPriority < min) min = v.proposerPriority;
    }
    const diff = max - min;
    if (diff <= diffMax) return;
    const ratio = Math.floor((diff + diffMax - 1) / diffMax);
    for (const v of this.validators) v.proposerPriority = truncDiv(v.proposerPriority, ratio);
  }

  /** Subtracts the average priority (Go big.Int Div: floor for a positive divisor). */
  private shiftByAveragePriority(): void {
    const n = this.validators.length;
    if (n === 0) return;
    let sum = 0;
    for (const v of this.validators) sum += v.proposerPriority;
    const avg = Math.floor(sum / n);
    for (const v of this.validators) v.proposerPriority -= avg;
  }

  private incrementOnce(): number {
    for (const v of this.validators) v.proposerPriority += v.votingPower;
    const idx = this.highestPriorityIndex();
    this.validators[idx]!.proposerPriority -= this.total;
    return idx;
  }

  private highestPriorityIndex(): number {
    let best = 0;
    for (let i = 1; i < this.validators.length; i++) {
      if (morePriority(this.validators[best]!, this.validators[i]!) !== this.validators[best]) best = i;
    }
    return this.validators.length === 0 ? -1 : best;
  }

  /** CometBFT findPreviousProposer: the lowest priority, ties going to the larger address. */
  private previousProposerIndex(): number {
    if (this.validators.length === 0) return -1;
    let prev = 0;
    for (let i = 1; i < this.validators.length; i++) {
      if (morePriority(this.validators[prev]!, this.validators[i]!) === this.validators[prev]) prev = i;
    }
    return prev;
  }
}
