/**
 * CometBFT v0.38 block data types as plain data. Hashes and proto encodings live beside them in
 * `header.ts`, `commit.ts`, `validator-set.ts`, `params-hash.ts`, `part-set.ts` (each type owns its hash).
 */
import type { Timestamp } from './time.js';

export interface PartSetHeader {
  total: number;
  hash: Uint8Array;
}

export interface BlockID {
  hash: Uint8Array;
  partSetHeader: PartSetHeader;
}

export const EMPTY_BLOCK_ID: BlockID = Object.freeze({
  hash: new Uint8Array(0),
  partSetHeader: Object.freeze({ total: 0, hash: new Uint8Array(0) }),
}) as BlockID;

export interface Header {
  version: { block: number; app: number };
  chainId: string;
  height: number;
  time: Timestamp;
  lastBlockId: BlockID;
  lastCommitHash: Uint8Array;
  dataHash: Uint8Array;
  validatorsHash: Uint8Array;
  nextValidatorsHash: Uint8Array;
  consensusHash: Uint8Array;
  appHash: Uint8Array;
  lastResultsHash: Uint8Array;
  evidenceHash: Uint8Array;
  proposerAddress: Uint8Array;
}

/** How a validator's signature in a commit voted (also the ABCI VoteInfo's flag). */
export enum BlockIDFlag {
  Unknown = 0,
  Absent = 1,
  Commit = 2,
  Nil = 3,
}

export interface CommitSig {
  blockIdFlag: BlockIDFlag;
  validatorAddress: Uint8Array;
  timestamp: Timestamp;
  signature: Uint8Array | null;
}

export interface Commit {
  height: number;
  round: number;
  blockId: BlockID;
  signatures: CommitSig[];
}

export interface Block {
  header: Header;
  data: { txs: Uint8Array[] };
  evidence: { evidence: unknown[] };
  lastCommit: Commit;
}

export interface BlockMeta {
  blockId: BlockID;
  blockSize: number;
  header: Header;
  numTxs: number;
}

export interface Validator {
  address: Uint8Array;
  /** ed25519 public key, 32 bytes. */
  pubKey: Uint8Array;
  votingPower: number;
  proposerPriority: number;
}

export enum SignedMsgType {
  Unknown = 0,
  Prevote = 1,
  Precommit = 2,
  Proposal = 32,
}

export interface Vote {
  type: SignedMsgType;
  height: number;
  round: number;
  blockId: BlockID;
  timestamp: Timestamp;
  validatorAddress: Uint8Array;
  validatorIndex: number;
  signature: Uint8Array;
}
