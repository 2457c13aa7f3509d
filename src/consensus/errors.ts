/** Typed consensus errors. */
import { toHexUpper } from '../crypto/encoding.js';

export class ConsensusError extends Error {
  override name = 'ConsensusError';
}

export class InvalidVoteError extends ConsensusError {
  override name = 'InvalidVoteError';
}

export class ConflictingVoteError extends ConsensusError {
  override name = 'ConflictingVoteError';
  constructor(
    readonly validatorAddress: Uint8Array,
    readonly height: number,
    readonly round: number,
  ) {
    super(`conflicting votes from validator ${toHexUpper(validatorAddress)} at ${height}/${round}`);
  }
}

export class InvalidBlockError extends ConsensusError {
  override name = 'InvalidBlockError';
}

export class ValidatorIndexError extends ConsensusError {
  override name = 'ValidatorIndexError';
  constructor(
    readonly index: number,
    readonly size: number,
  ) {
    super(`validator index ${index} out of range: the set has ${size} validators`);
  }
}

export class NodeStoppedError extends ConsensusError {
  override name = 'NodeStoppedError';
  constructor() {
    super('node stopped');
  }
}

/** Empty blocks that cannot be committed as one segment (the caller produces them one by one instead). */
export class SegmentNotApplicableError extends ConsensusError {
  override name = 'SegmentNotApplicableError';
  constructor(readonly reason: string) {
    super(`empty blocks cannot be mined as a range: ${reason}`);
  }
}

/**
 * The block store took an empty segment but its commit (the app's, or the state's save) failed:
 * the stores disagree until the handshake finishes the segment, so the node halts, as CometBFT
 * does on a failed store.
 */
export class SegmentCommitError extends ConsensusError {
  override name = 'SegmentCommitError';
  constructor(
    readonly from: number,
    readonly to: number,
    override readonly cause: unknown,
  ) {
    super(
      `the commit of empty blocks ${from}..${to} failed after the block store took them (${cause instanceof Error ? cause.message : String(cause)}): ` +
        'block production stopped; restart the node to finish the commit',
    );
  }
}
