import { describe, expect, it } from 'vitest';
import { addressFromPubKey, ed25519FromSeed } from '../crypto/ed25519.js';
import { fromBase64, toHexUpper, utf8 } from '../crypto/encoding.js';
import { merkleRoot } from '../crypto/merkle.js';
import { encodeSimpleValidator } from './proto.js';
import type { Validator } from './block.js';
import { EmptyValidatorSetError, InvalidIncrementError, InvalidValidatorUpdateError, TotalVotingPowerOverflowError } from './errors.js';
import { MAX_TOTAL_VOTING_POWER, ValidatorSet } from './validator-set.js';

const key = (i: number): Uint8Array => ed25519FromSeed(new Uint8Array(32).fill(i + 1)).publicKey;
const setOf = (...powers: number[]): ValidatorSet => ValidatorSet.fromUpdates(powers.map((power, i) => ({ pubKey: key(i), power })));

/** Proposer addresses (hex) over `rounds` rounds, advancing one round at a time. */
function rotation(set: ValidatorSet, rounds: number): string[] {
  const s = set.copy();
  const out: string[] = [];
  for (let r = 0; r < rounds; r++) {
    out.push(toHexUpper(s.proposer.address));
    s.incrementProposerPriority(1);
  }
  return out;
}

// Genesis validator set of Celestia devnet-2: 9 validators of power 5000, as its RPC listed them.
const CELESTIA_PUBKEYS = [
  'sMcFgSIzlD77eZYgV7H4akyxoHCPc2oIQW05qWEB6b4=',
  'WdqZ8hoyc1HxZCJfQrAGKm2fFJZFg7PngPNGkA1RWXc=',
  'pvwSRksq3ekXIiYK7IzjQJ870BxLqEma8zRr9n9VnXI=',
  'RnmnTlKoKxNoh2TpohBDP3cKlx4ATiPOCvQFk/6xpUU=',
  'oh/N+GOIennBOAa/gPNCso1mDlqaHQNn7Op/X8opbeY=',
  'Ow/AHP/Q3guPGymUKpvhnwae+QoCOpGztpVnP179IG8=',
  'MNi0Z+uNF5X1Bxj988IDXVl0BKUcLs7LItoMnX6dbg4=',
  '4g3hhdyU4IIgWW/4sR0nax8bsC/M/fDbt1N8s/QanF8=',
  'b+Vv6Lcp0bhIjOQncr+OYBHixCvU5+k34y4RqyvpluE=',
];

describe('ValidatorSet golden vectors', () => {
  it('reproduces a real validators_hash, order, priorities and proposer (Celestia devnet-2)', () => {
    // Shuffled input: the set must sort it (equal power, so by address).
    const shuffled = [...CELESTIA_PUBKEYS].reverse().map((p) => ({ pubKey: fromBase64(p), power: 5000 }));
    const set = ValidatorSet.fromUpdates(shuffled);
    expect(toHexUpper(set.hash())).toBe('7F4EA93A134DEDBDA6A1FDD30D05760DD98A2B5FBA95DB3EFFFE7FCE4B361855');
    expect(set.validators.map((v) => toHexUpper(v.address).slice(0, 6))).toEqual([
      '03F104',
      '04881E',
      '31711F',
      '5A253E',
      '79BEB3',
      '7F1105',
      '87265C',
      'D345D6',
      'DEC264',
    ]);
    expect(set.validators.map((v) => v.proposerPriority)).toEqual([-40000, 5000, 5000, 5000, 5000, 5000, 5000, 5000, 5000]);
    expect(toHexUpper(set.proposer.address)).toBe('03F1044A6DF782189C7061FF89146B3D33608F17');
    expect(set.totalVotingPower()).toBe(45000);
  });

  it('reproduces CometBFT TestProposerSelection1 (foo 1000, bar 300, baz 330)', () => {
    const v = (name: string, power: number): Validator => ({ address: utf8(name), pubKey: new Uint8Array(32), votingPower: power, proposerPriority: 0 });
    // NewValidatorSet = zero priorities, sorted, then one increment.
    const set = ValidatorSet.fromValidators([v('foo', 1000), v('bar', 300), v('baz', 330)]).copyIncrementProposerPriority(1);
    const names: string[] = [];
    for (let i = 0; i < 99; i++) {
      names.push(new TextDecoder().decode(set.proposer.address));
      set.incrementProposerPriority(1);
    }
    expect(names.join(' ')).toBe(
      'foo baz foo bar foo foo baz foo bar foo foo baz foo foo bar foo baz foo foo bar foo foo baz foo bar foo foo baz foo bar foo foo baz foo foo bar foo baz foo foo bar foo baz foo foo bar foo baz foo foo bar foo baz foo foo foo baz bar foo foo foo baz foo bar foo foo baz foo bar foo foo baz foo bar foo foo baz foo bar foo foo baz foo foo bar foo baz foo foo bar foo baz foo foo bar foo baz foo foo',
    );
  });
});

describe('proposer rotation', () => {
  it('is round-robin in set order for 4 equal validators', () => {
    const set = setOf(10, 10, 10, 10);
    const order = set.validators.map((v) => toHexUpper(v.address));
    expect(rotation(set, 12)).toEqual([...order, ...order, ...order]);
  });

  it('picks each validator `power` times per `total` rounds for powers 1, 2, 3', () => {
    const set = setOf(1, 2, 3);
    const counts = new Map<string, number>();
    for (const a of rotation(set, 6)) counts.set(a, (counts.get(a) ?? 0) + 1);
    for (const v of set.validators) expect(counts.get(toHexUpper(v.address))).toBe(v.votingPower);
    expect(rotation(set, 12).slice(6)).toEqual(rotation(set, 6));
  });

  it('gives round 0 to the most powerful validator', () => {
    const set = setOf(1, 5, 2);
    expect(set.proposer.votingPower).toBe(5);
  });

  it('incrementProposerPriority(n) equals n single increments for a centred set', () => {
    const a = setOf(3, 3, 3, 3);
    const b = a.copyIncrementProposerPriority(7);
    const c = a.copy();
    for (let i = 0; i < 7; i++) c.incrementProposerPriority(1);
    expect(b.proposer.address).toEqual(c.proposer.address);
    expect(b.validators.map((v) => v.proposerPriority)).toEqual(c.validators.map((v) => v.proposerPriority));
  });

  const named = (name: string, power: number, priority: number): Validator => ({
    address: utf8(name),
    pubKey: new Uint8Array(32),
    votingPower: power,
    proposerPriority: priority,
  });
  const priorities = (set: ValidatorSet): number[] => set.validators.map((v) => v.proposerPriority);

  it('rescales a spread wider than 2×total by ceil(diff / window)', () => {
    // diff 2e6, window 4 → ratio 500000 → [2, -2]; +1 each → [3, -1]; a proposes → [1, -1].
    const set = ValidatorSet.fromValidators([named('a', 1, 1_000_000), named('b', 1, -1_000_000)], utf8('a'));
    set.incrementProposerPriority(1);
    expect(priorities(set)).toEqual([1, -1]);
    expect(set.proposer.address).toEqual(utf8('a'));
  });

  it('divides like Go: truncation when rescaling, floor (big.Int) for the average', () => {
    // Rescale: ratio ceil(15/4) = 4, trunc(-7/4) = -1 (floor would give -2).
    const r = ValidatorSet.fromValidators([named('a', 1, -7), named('b', 1, 8)], utf8('a'));
    r.incrementProposerPriority(1); // [-1, 2] → avg 0 → [0, 3] → b proposes → [0, 1]
    expect(priorities(r)).toEqual([0, 1]);
    // Average: floor(-3 / 2) = -2 (Go's truncating / would give -1).
    const a = ValidatorSet.fromValidators([named('a', 1, -3), named('b', 1, 0)], utf8('a'));
    a.incrementProposerPriority(1); // [-1, 2] → [0, 3] → b proposes → [0, 1]
    expect(priorities(a)).toEqual([0, 1]);
  });
});

describe('ValidatorSet accessors', () => {
  it('orders by power desc then address asc and derives addresses from keys', () => {
    const set = setOf(5, 10, 5);
    expect(set.validators.map((v) => v.votingPower)).toEqual([10, 5, 5]);
    expect(Buffer.compare(set.validators[1]!.address, set.validators[2]!.address)).toBe(-1);
    for (const v of set.validators) expect(v.address).toEqual(addressFromPubKey(v.pubKey));
    expect(set.size()).toBe(3);
    expect(set.totalVotingPower()).toBe(20);
  });

  it('hashes SimpleValidators in set order', () => {
    const set = setOf(5, 10);
    expect(set.hash()).toEqual(merkleRoot(set.validators.map((v) => encodeSimpleValidator(v.pubKey, v.votingPower))));
    expect(set.copyIncrementProposerPriority(3).hash()).toEqual(set.hash());
  });

  it('looks validators up by address and index', () => {
    const set = setOf(5, 10);
    const second = set.validators[1]!;
    expect(set.getByAddress(second.address)).toEqual({ index: 1, validator: second });
    expect(set.getByAddress(new Uint8Array(20))).toBeUndefined();
    expect(set.getByIndex(0)).toBe(set.validators[0]);
    expect(set.getByIndex(2)).toBeUndefined();
    expect(set.getByIndex(-1)).toBeUndefined();
  });

  it('copies independently', () => {
    const set = setOf(1, 2, 3);
    const before = set.validators.map((v) => v.proposerPriority);
    const c = set.copy();
    c.incrementProposerPriority(2);
    expect(set.validators.map((v) => v.proposerPriority)).toEqual(before);
    expect(c.validators.map((v) => v.proposerPriority)).not.toEqual(before);
  });

  it('needs strictly more than two thirds', () => {
    const set = setOf(1, 1, 1); // total 3
    expect(set.hasTwoThirdsMajority(2)).toBe(false);
    expect(set.hasTwoThirdsMajority(3)).toBe(true);
    const four = setOf(1, 1, 1, 1); // total 4: need > 8/3
    expect(four.hasTwoThirdsMajority(2)).toBe(false);
    expect(four.hasTwoThirdsMajority(3)).toBe(true);
    const hundred = setOf(50, 50); // total 100: 67 > 66.6
    expect(hundred.hasTwoThirdsMajority(66)).toBe(false);
    expect(hundred.hasTwoThirdsMajority(67)).toBe(true);
  });
});

describe('ValidatorSet.fromValidators', () => {
  it('keeps priorities and takes the stored proposer', () => {
    const live = setOf(1, 2, 3);
    live.incrementProposerPriority(5);
    const loaded = ValidatorSet.fromValidators([...live.validators].reverse(), live.proposer.address);
    expect(loaded.validators).toEqual(live.validators);
    expect(loaded.proposer.address).toEqual(live.proposer.address);
    expect(rotation(loaded, 12)).toEqual(rotation(live, 12));
  });

  it('without a stored proposer, takes the lowest priority (ties: larger address)', () => {
    const live = setOf(10, 10, 10, 10);
    live.incrementProposerPriority(1); // priorities [-20, -20, 20, 20]: the second validator proposed
    const loaded = ValidatorSet.fromValidators(live.validators);
    expect(loaded.proposer.address).toEqual(live.proposer.address);
  });

  it('does not alias the given validators', () => {
    const live = setOf(1, 2);
    const loaded = ValidatorSet.fromValidators(live.validators, live.proposer.address);
    loaded.incrementProposerPriority(1);
    expect(live.validators[0]!.proposerPriority).not.toBe(loaded.validators[0]!.proposerPriority);
  });
});

describe('ValidatorSet.withUpdates', () => {
  it('adds a validator with priority -1.125 × new total before centring', () => {
    const set = setOf(10, 10); // priorities [-10, 10]
    const next = set.withUpdates([{ pubKey: key(5), power: 20 }]);
    // Newcomer: -(40 + 40/8) = -45; then centred on floor(-45 / 3) = -15.
    expect(next.totalVotingPower()).toBe(40);
    expect(next.validators.map((v) => [v.votingPower, v.proposerPriority])).toEqual([
      [20, -30],
      [10, 5],
      [10, 25],
    ]);
    expect(next.validators[0]!.address).toEqual(addressFromPubKey(key(5)));
    expect(next.validators[1]!.address).toEqual(set.validators[0]!.address);
    expect(set.size()).toBe(2); // the original is unchanged
  });

  it('updates power, keeps priority, and removes with power 0', () => {
    const set = setOf(10, 20, 30);
    const target = set.validators[2]!;
    const next = set.withUpdates([
      { pubKey: target.pubKey, power: 5 },
      { pubKey: set.validators[0]!.pubKey, power: 0 },
    ]);
    expect(next.size()).toBe(2);
    expect(next.totalVotingPower()).toBe(25);
    expect(next.getByAddress(set.validators[0]!.address)).toBeUndefined();
    expect(next.getByAddress(target.address)!.validator.votingPower).toBe(5);
    next.incrementProposerPriority(1);
    expect(next.getByAddress(next.proposer.address)).toBeDefined();
  });

  it('rejects bad change sets as CometBFT does', () => {
    const set = setOf(10, 20);
    const k = set.validators[0]!.pubKey;
    expect(() =>
      set.withUpdates([
        { pubKey: k, power: 1 },
        { pubKey: k, power: 2 },
      ]),
    ).toThrow(/duplicate entry/);
    expect(() => set.withUpdates([{ pubKey: k, power: -1 }])).toThrow(/can't be negative/);
    expect(() => set.withUpdates([{ pubKey: key(9), power: 0 }])).toThrow(/failed to find validator to remove/);
    expect(() => set.withUpdates(set.validators.map((v) => ({ pubKey: v.pubKey, power: 0 })))).toThrow(/empty set/);
    expect(() => set.withUpdates([{ pubKey: key(9), power: MAX_TOTAL_VOTING_POWER }])).toThrow(TotalVotingPowerOverflowError);
    expect(set.withUpdates([]).hash()).toEqual(set.hash());
  });
});

describe('ValidatorSet errors', () => {
  it('rejects invalid initial validators', () => {
    expect(() => setOf(1, 0)).toThrow(InvalidValidatorUpdateError);
    expect(() => setOf(-1)).toThrow(InvalidValidatorUpdateError);
    expect(() => setOf(1.5)).toThrow(InvalidValidatorUpdateError);
    expect(() => ValidatorSet.fromUpdates([{ pubKey: new Uint8Array(31), power: 1 }])).toThrow(InvalidValidatorUpdateError);
    expect(() =>
      ValidatorSet.fromUpdates([
        { pubKey: key(0), power: 1 },
        { pubKey: key(0), power: 2 },
      ]),
    ).toThrow(/duplicate/);
    expect(() => setOf(MAX_TOTAL_VOTING_POWER, 1)).toThrow(TotalVotingPowerOverflowError);
  });

  it('guards increments and the proposer of an empty set', () => {
    const empty = ValidatorSet.fromUpdates([]);
    expect(empty.size()).toBe(0);
    expect(() => empty.proposer).toThrow(EmptyValidatorSetError);
    expect(() => empty.incrementProposerPriority(1)).toThrow(EmptyValidatorSetError);
    expect(() => setOf(1).incrementProposerPriority(0)).toThrow(InvalidIncrementError);
    expect(() => setOf(1).incrementProposerPriority(-1)).toThrow(InvalidIncrementError);
  });
});
