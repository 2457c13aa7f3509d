/**
 * Bytes validators sign: the length-delimited canonical proto of a vote or proposal, bound to the
 * chain id (CometBFT VoteSignBytes / ProposalSignBytes). Height and round are sfixed64 there so
 * that the encoding has a fixed layout.
 */
import { encodeCanonicalProposal, encodeCanonicalVote, lengthDelimited } from './proto.js';
import type { BlockID, Vote } from './block.js';
import type { Timestamp } from './time.js';

export function voteSignBytes(chainId: string, vote: Vote): Uint8Array {
  return lengthDelimited(encodeCanonicalVote(chainId, vote));
}

export function proposalSignBytes(chainId: string, p: { height: number; round: number; polRound: number; blockId: BlockID; timestamp: Timestamp }): Uint8Array {
  return lengthDelimited(encodeCanonicalProposal(chainId, p));
}
