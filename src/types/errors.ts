/** Errors raised by the block-data helpers in src/types (validator sets, proofs). */

export class EmptyValidatorSetError extends Error {
  override readonly name = 'EmptyValidatorSetError';
  constructor(readonly operation: string) {
    super(`empty validator set: cannot ${operation}`);
  }
}

/** A validator change list CometBFT would refuse (duplicates, bad power, unknown removals...). */
export class InvalidValidatorUpdateError extends Error {
  override readonly name = 'InvalidValidatorUpdateError';
  constructor(
    readonly reason: string,
    readonly addressHex?: string,
  ) {
    super(addressHex ? `${reason}: ${addressHex}` : reason);
  }
}

export class TotalVotingPowerOverflowError extends Error {
  override readonly name = 'TotalVotingPowerOverflowError';
  constructor(
    readonly total: number,
    readonly max: number,
  ) {
    super(`total voting power of resulting valset exceeds max ${max} (got ${total})`);
  }
}

export class InvalidIncrementError extends Error {
  override readonly name = 'InvalidIncrementError';
  constructor(readonly times: number) {
    super(`Cannot call IncrementProposerPriority with non-positive times (got ${times})`);
  }
}

export class TxIndexOutOfRangeError extends Error {
  override readonly name = 'TxIndexOutOfRangeError';
  constructor(
    readonly index: number,
    readonly count: number,
  ) {
    super(`tx index ${index} out of range for ${count} txs`);
  }
}
