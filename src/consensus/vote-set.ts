/**
 * The votes of one (height, round, type), as CometBFT's types.VoteSet: each vote's signature is
 * verified against the validator's key before it counts, and power is tallied per block id so
 * that +2/3 majorities (for a block, for nil, or for anything) can be asked for.
 */
import { BlockIDFlag } from '../abci/types.js';
import { ed25519Verify } from '../crypto/ed25519.js';
import { toHex } from '../crypto/encoding.js';
import type { BlockID, Commit, CommitSig, SignedMsgType, Vote } from '../types/block.js';
import { ZERO_TIME } from '../types/time.js';
import type { ValidatorSet } from '../types/validator-set.js';
import { voteSignBytes } from '../types/vote.js';
import { ConflictingVoteError, InvalidVoteError } from './errors.js';

export function blockIdKey(id: BlockID): string {
  return id.hash.length === 0 ? 'nil' : `${toHex(id.hash)}:${id.partSetHeader.total}:${toHex(id.partSetHeader.hash)}`;
}

export class VoteSet {
  private readonly votes: (Vote | undefined)[];
  private readonly powerByBlock = new Map<string, { power: number; blockId: BlockID }>();
  private totalPower = 0;

  constructor(
    private readonly chainId: string,
    readonly height: number,
    readonly round: number,
    readonly type: SignedMsgType,
    private readonly valSet: ValidatorSet,
  ) {
    this.votes = new Array(valSet.size()).fill(undefined);
  }

  /** Adds a signed vote; returns false for an exact duplicate. Throws on a bad or conflicting vote. */
  addVote(vote: Vote): boolean {
    if (vote.height !== this.height || vote.round !== this.round || vote.type !== this.type) {
      throw new InvalidVoteError(`expected ${this.height}/${this.round}/${this.type}, got ${vote.height}/${vote.round}/${vote.type}`);
    }
    const val = this.valSet.getByIndex(vote.validatorIndex);
    if (!val || toHex(val.address) !== toHex(vote.validatorAddress)) {
      throw new InvalidVoteError(`validator index ${vote.validatorIndex} does not match address ${toHex(vote.validatorAddress)}`);
    }
    const existing = this.votes[vote.validatorIndex];
    if (existing) {
      if (blockIdKey(existing.blockId) === blockIdKey(vote.blockId)) return false;
      throw new ConflictingVoteError(vote.validatorAddress, this.height, this.round);
    }
    if (!ed25519Verify(val.pubKey, voteSignBytes(this.chainId, vote), vote.signature)) {
      throw new InvalidVoteError(`invalid signature from validator ${toHex(vote.validatorAddress)}`);
    }
    this.votes[vote.validatorIndex] = vote;
    const key = blockIdKey(vote.blockId);
    const entry = this.powerByBlock.get(key) ?? { power: 0, blockId: vote.blockId };
    entry.power += val.votingPower;
    this.powerByBlock.set(key, entry);
    this.totalPower += val.votingPower;
    return true;
  }

  /** The block id (possibly nil: empty hash) that has +2/3, if any. */
  twoThirdsMajority(): BlockID | undefined {
    for (const e of this.powerByBlock.values()) {
      if (this.valSet.hasTwoThirdsMajority(e.power)) return e.blockId;
    }
    return undefined;
  }

  hasTwoThirdsAny(): boolean {
    return this.valSet.hasTwoThirdsMajority(this.totalPower);
  }

  power(): number {
    return this.totalPower;
  }

  list(): Vote[] {
    return this.votes.filter((v): v is Vote => v !== undefined);
  }

  /** The Commit for the +2/3 precommits of `blockId` (absent and nil signers flagged as CometBFT does). */
  makeCommit(blockId: BlockID): Commit {
    const key = blockIdKey(blockId);
    const signatures: CommitSig[] = this.valSet.validators.map((v, i): CommitSig => {
      const vote = this.votes[i];
      if (!vote) return { blockIdFlag: BlockIDFlag.Absent, validatorAddress: new Uint8Array(0), timestamp: ZERO_TIME, signature: null };
      const flag = blockIdKey(vote.blockId) === key ? BlockIDFlag.Commit : BlockIDFlag.Nil;
      return { blockIdFlag: flag, validatorAddress: v.address, timestamp: vote.timestamp, signature: vote.signature };
    });
    return { height: this.height, round: this.round, blockId, signatures };
  }
}
