/** An in-process validator: its ed25519 key, whether it is online, and how it signs. */
import { ed25519Sign, type Ed25519Key } from '../crypto/ed25519.js';
import type { BlockID, SignedMsgType, Vote } from '../types/block.js';
import type { Timestamp } from '../types/time.js';
import { proposalSignBytes, voteSignBytes } from '../types/vote.js';

export class LocalValidator {
  online = true;

  constructor(
    readonly key: Ed25519Key,
    private readonly chainId: string,
  ) {}

  get address(): Uint8Array {
    return this.key.address;
  }

  signVote(type: SignedMsgType, height: number, round: number, blockId: BlockID, validatorIndex: number, timestamp: Timestamp): Vote {
    const vote: Vote = { type, height, round, blockId, timestamp, validatorAddress: this.key.address, validatorIndex, signature: new Uint8Array(0) };
    vote.signature = ed25519Sign(this.key, voteSignBytes(this.chainId, vote));
    return vote;
  }

  signProposal(height: number, round: number, blockId: BlockID, timestamp: Timestamp): Uint8Array {
    return ed25519Sign(this.key, proposalSignBytes(this.chainId, { height, round, polRound: -1, blockId, timestamp }));
  }
}
