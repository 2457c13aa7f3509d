/**
 * Protobuf encodings of the CometBFT v0.38 messages that feed hashes and signatures. Field numbers
 * follow proto/tendermint/{types/types,types/canonical,types/validator,types/params,crypto/keys,
 * version/types}.proto, google/protobuf/timestamp.proto and the gogotypes wrappers.
 *
 * Each message has a private body writer (so it can be embedded) and a public `encodeX`.
 */
import type { Block, BlockID, Commit, CommitSig, Header, PartSetHeader } from './block.js';
import { SignedMsgType } from './block.js';
import type { Timestamp } from './time.js';
import { UnsupportedEvidenceError } from '../codec/errors.js';
import {
  bytesField,
  encodeWith,
  finish,
  messageField,
  newWriter,
  repeatedBytesElement,
  sfixed64Field,
  stringField,
  varintField,
  type ProtoWriter,
} from '../codec/proto-wire.js';

export { lengthDelimited } from '../codec/proto-wire.js';

// ---------------------------------------------------------------- google.protobuf.Timestamp

function writeTimestamp(w: ProtoWriter, t: Timestamp): void {
  varintField(w, 1, t.seconds); // int64 seconds
  varintField(w, 2, t.nanos); // int32 nanos
}

// ---------------------------------------------------------------- tendermint.types

function writePartSetHeader(w: ProtoWriter, p: PartSetHeader): void {
  varintField(w, 1, p.total); // uint32
  bytesField(w, 2, p.hash);
}

function writeBlockID(w: ProtoWriter, b: BlockID): void {
  bytesField(w, 1, b.hash);
  messageField(w, 2, writePartSetHeader, b.partSetHeader); // non-nullable
}

function writeConsensusVersion(w: ProtoWriter, v: { block: number; app: number }): void {
  varintField(w, 1, v.block); // uint64
  varintField(w, 2, v.app); // uint64
}

function writeHeader(w: ProtoWriter, h: Header): void {
  messageField(w, 1, writeConsensusVersion, h.version);
  stringField(w, 2, h.chainId);
  varintField(w, 3, h.height);
  messageField(w, 4, writeTimestamp, h.time);
  messageField(w, 5, writeBlockID, h.lastBlockId);
  bytesField(w, 6, h.lastCommitHash);
  bytesField(w, 7, h.dataHash);
  bytesField(w, 8, h.validatorsHash);
  bytesField(w, 9, h.nextValidatorsHash);
  bytesField(w, 10, h.consensusHash);
  bytesField(w, 11, h.appHash);
  bytesField(w, 12, h.lastResultsHash);
  bytesField(w, 13, h.evidenceHash);
  bytesField(w, 14, h.proposerAddress);
}

function writeCommitSig(w: ProtoWriter, s: CommitSig): void {
  varintField(w, 1, s.blockIdFlag);
  bytesField(w, 2, s.validatorAddress);
  messageField(w, 3, writeTimestamp, s.timestamp);
  bytesField(w, 4, s.signature);
}

function writeCommit(w: ProtoWriter, c: Commit): void {
  varintField(w, 1, c.height);
  varintField(w, 2, c.round); // int32
  messageField(w, 3, writeBlockID, c.blockId);
  for (const s of c.signatures) messageField(w, 4, writeCommitSig, s);
}

function writeData(w: ProtoWriter, txs: readonly Uint8Array[]): void {
  for (const tx of txs) repeatedBytesElement(w, 1, tx);
}

/** Only the empty EvidenceList (an empty body) can be written; see UnsupportedEvidenceError. */
function writeEvidenceList(_w: ProtoWriter, evidence: readonly unknown[]): void {
  if (evidence.length > 0) throw new UnsupportedEvidenceError(evidence.length);
}

function writeBlock(w: ProtoWriter, b: Block): void {
  messageField(w, 1, writeHeader, b.header);
  messageField(w, 2, writeData, b.data.txs);
  messageField(w, 3, writeEvidenceList, b.evidence.evidence);
  // Nullable, but CometBFT always sets it (an empty Commit at the initial height).
  messageField(w, 4, writeCommit, b.lastCommit);
}

export const encodeTimestamp = (t: Timestamp): Uint8Array => encodeWith(writeTimestamp, t);
export const encodePartSetHeader = (p: PartSetHeader): Uint8Array => encodeWith(writePartSetHeader, p);
export const encodeBlockID = (b: BlockID): Uint8Array => encodeWith(writeBlockID, b);
export const encodeHeader = (h: Header): Uint8Array => encodeWith(writeHeader, h);
export const encodeCommitSig = (s: CommitSig): Uint8Array => encodeWith(writeCommitSig, s);
export const encodeCommit = (c: Commit): Uint8Array => encodeWith(writeCommit, c);
export const encodeData = (txs: readonly Uint8Array[]): Uint8Array => encodeWith(writeData, txs);
export const encodeBlock = (block: Block): Uint8Array => encodeWith(writeBlock, block);
/** tendermint.version.Consensus. */
export const encodeConsensusVersion = (v: { block: number; app: number }): Uint8Array => encodeWith(writeConsensusVersion, v);

// ---------------------------------------------------------------- gogotypes wrappers (header hash leaves)

/** google.protobuf.StringValue; "" encodes to no bytes. */
export const encodeStringValue = (s: string): Uint8Array => encodeWith((w, v: string) => stringField(w, 1, v), s);
/** google.protobuf.Int64Value; 0 encodes to no bytes. */
export const encodeInt64Value = (n: number): Uint8Array => encodeWith((w, v: number) => varintField(w, 1, v), n);
/** google.protobuf.BytesValue; empty bytes encode to no bytes. */
export const encodeBytesValue = (b: Uint8Array): Uint8Array => encodeWith((w, v: Uint8Array) => bytesField(w, 1, v), b);

// ---------------------------------------------------------------- canonical sign-bytes messages

/** CometBFT `BlockID.IsZero`: a vote for nil carries no block id at all. */
function isZeroBlockID(b: BlockID): boolean {
  return b.hash.length === 0 && b.partSetHeader.total === 0 && b.partSetHeader.hash.length === 0;
}

function writeCanonicalBlockID(w: ProtoWriter, b: BlockID): void {
  bytesField(w, 1, b.hash);
  messageField(w, 2, writePartSetHeader, b.partSetHeader); // CanonicalPartSetHeader has the same fields
}

export interface CanonicalVoteInput {
  type: SignedMsgType;
  height: number;
  round: number;
  blockId: BlockID;
  timestamp: Timestamp;
}

/** tendermint.types.CanonicalVote (height and round as sfixed64). */
export function encodeCanonicalVote(chainId: string, vote: CanonicalVoteInput): Uint8Array {
  return encodeWith((w, v: CanonicalVoteInput) => {
    varintField(w, 1, v.type);
    sfixed64Field(w, 2, v.height);
    sfixed64Field(w, 3, v.round);
    if (!isZeroBlockID(v.blockId)) messageField(w, 4, writeCanonicalBlockID, v.blockId);
    messageField(w, 5, writeTimestamp, v.timestamp);
    stringField(w, 6, chainId);
  }, vote);
}

export interface CanonicalProposalInput {
  height: number;
  round: number;
  polRound: number;
  blockId: BlockID;
  timestamp: Timestamp;
}

/** tendermint.types.CanonicalProposal; `polRound` is a plain int64 (-1 takes 10 bytes). */
export function encodeCanonicalProposal(chainId: string, p: CanonicalProposalInput): Uint8Array {
  return encodeWith((w, v: CanonicalProposalInput) => {
    varintField(w, 1, SignedMsgType.Proposal);
    sfixed64Field(w, 2, v.height);
    sfixed64Field(w, 3, v.round);
    varintField(w, 4, v.polRound);
    if (!isZeroBlockID(v.blockId)) messageField(w, 5, writeCanonicalBlockID, v.blockId);
    messageField(w, 6, writeTimestamp, v.timestamp);
    stringField(w, 7, chainId);
  }, p);
}

// ---------------------------------------------------------------- validators, params, results

function writeEd25519PublicKey(w: ProtoWriter, pubKey: Uint8Array): void {
  // tendermint.crypto.PublicKey { oneof sum { bytes ed25519 = 1; ... } }: a set oneof is always written.
  repeatedBytesElement(w, 1, pubKey);
}

/**
 * tendermint.types.SimpleValidator, the validator-set hash leaf. `votingPower` may be a bigint so
 * vectors with powers beyond 2^53 can be reproduced.
 */
export function encodeSimpleValidator(pubKey: Uint8Array, votingPower: number | bigint): Uint8Array {
  const w = newWriter();
  messageField(w, 1, writeEd25519PublicKey, pubKey); // nullable, but always set
  varintField(w, 2, votingPower);
  return finish(w);
}

/** tendermint.types.HashedParams, the consensus-params hash preimage. */
export function encodeHashedParams(blockMaxBytes: number, blockMaxGas: number): Uint8Array {
  const w = newWriter();
  varintField(w, 1, blockMaxBytes); // int64
  varintField(w, 2, blockMaxGas); // int64 (-1 = unlimited takes 10 bytes)
  return finish(w);
}

export interface DeterministicExecTxResult {
  code: number;
  data: Uint8Array;
  gasWanted: number;
  gasUsed: number;
}

/** The fields of tendermint.abci.ExecTxResult that enter last_results_hash (1, 2, 5, 6). */
export function encodeDeterministicExecTxResult(r: DeterministicExecTxResult): Uint8Array {
  return encodeWith((w, v: DeterministicExecTxResult) => {
    varintField(w, 1, v.code); // uint32
    bytesField(w, 2, v.data);
    varintField(w, 5, v.gasWanted);
    varintField(w, 6, v.gasUsed);
  }, r);
}
