/**
 * CometBFT v0.38 JSON (cmtjson) of the block types: what `block`, `header`, `commit`,
 * `blockchain`, `validators` and the NewBlock events carry on the wire.
 *
 * cmtjson rules applied here (REFERENCE §1.4): 64-bit integers are JSON strings, 32-bit ones
 * numbers; `HexBytes` are upper-case hex without 0x ("" when empty); `[]byte` is base64 (nil →
 * null); times are RFC 3339 with nanoseconds in UTC; interfaces are amino `{type, value}` pairs;
 * struct fields keep Go's declaration order. ABCI results are in `comet-json-abci.ts`, event
 * payloads and tx proofs in `comet-json-events.ts`.
 */
import { toBase64, toHexUpper } from '../../crypto/encoding.js';
import type { Block, BlockID, BlockMeta, Commit, CommitSig, Header, Validator, Vote } from '../../types/block.js';
import type { ConsensusParams } from '../../types/params.js';
import { formatRfc3339Nano, type Timestamp } from '../../types/time.js';

/** Amino name of CometBFT's ed25519 public key. */
export const PUBKEY_ED25519 = 'tendermint/PubKeyEd25519';

// ------------------------------------------------------------------------------ primitives

/** int64 / uint64 / Go `int`: always a decimal string. */
export function i64(n: number | bigint): string {
  return typeof n === 'bigint' ? n.toString() : String(Math.trunc(n));
}

/** `HexBytes`: upper-case hex, "" when empty. */
export function hex(b: Uint8Array): string {
  return toHexUpper(b);
}

/** `[]byte` as cmtjson writes it: base64, or null for an empty (nil) slice. */
export function b64OrNull(b: Uint8Array | null | undefined): string | null {
  return b && b.length > 0 ? toBase64(b) : null;
}

/** `[]byte` that Go always holds non-nil (e.g. a tx): base64, "" when empty. */
export function b64(b: Uint8Array): string {
  return toBase64(b);
}

export function time(t: Timestamp): string {
  return formatRfc3339Nano(t);
}

// ------------------------------------------------------------------------------ wire shapes

export interface PubKeyJson {
  type: string;
  value: string;
}

export interface PartSetHeaderJson {
  total: number;
  hash: string;
}

export interface BlockIdJson {
  hash: string;
  parts: PartSetHeaderJson;
}

export interface HeaderJson {
  version: { block: string; app?: string };
  chain_id: string;
  height: string;
  time: string;
  last_block_id: BlockIdJson;
  last_commit_hash: string;
  data_hash: string;
  validators_hash: string;
  next_validators_hash: string;
  consensus_hash: string;
  app_hash: string;
  last_results_hash: string;
  evidence_hash: string;
  proposer_address: string;
}

export interface CommitSigJson {
  block_id_flag: number;
  validator_address: string;
  timestamp: string;
  signature: string | null;
}

export interface CommitJson {
  height: string;
  round: number;
  block_id: BlockIdJson;
  signatures: CommitSigJson[];
}

export interface BlockJson {
  header: HeaderJson;
  data: { txs: string[] };
  evidence: { evidence: unknown[] };
  last_commit: CommitJson;
}

export interface BlockMetaJson {
  block_id: BlockIdJson;
  block_size: string;
  header: HeaderJson;
  num_txs: string;
}

export interface ValidatorJson {
  address: string;
  pub_key: PubKeyJson;
  voting_power: string;
  proposer_priority: string;
}

export interface VoteJson {
  type: number;
  height: string;
  round: number;
  block_id: BlockIdJson;
  timestamp: string;
  validator_address: string;
  validator_index: number;
  signature: string | null;
  extension: string | null;
  extension_signature: string | null;
}

export interface ConsensusParamsJson {
  block: { max_bytes: string; max_gas: string };
  evidence: { max_age_num_blocks: string; max_age_duration: string; max_bytes: string };
  validator: { pub_key_types: string[] };
  version: { app: string };
  abci: { vote_extensions_enable_height: string };
}

// ------------------------------------------------------------------------------ encoders

/** Amino-JSON ed25519 public key (`{"type":"tendermint/PubKeyEd25519","value":"<b64>"}`). */
export function encodePubKey(pubKey: Uint8Array): PubKeyJson {
  return { type: PUBKEY_ED25519, value: toBase64(pubKey) };
}

export function encodeBlockId(b: BlockID): BlockIdJson {
  return { hash: hex(b.hash), parts: { total: b.partSetHeader.total, hash: hex(b.partSetHeader.hash) } };
}

export function encodeHeader(h: Header): HeaderJson {
  // version.app is `omitempty` (a uint64): absent when 0.
  const version: HeaderJson['version'] = h.version.app === 0 ? { block: i64(h.version.block) } : { block: i64(h.version.block), app: i64(h.version.app) };
  return {
    version,
    chain_id: h.chainId,
    height: i64(h.height),
    time: time(h.time),
    last_block_id: encodeBlockId(h.lastBlockId),
    last_commit_hash: hex(h.lastCommitHash),
    data_hash: hex(h.dataHash),
    validators_hash: hex(h.validatorsHash),
    next_validators_hash: hex(h.nextValidatorsHash),
    consensus_hash: hex(h.consensusHash),
    app_hash: hex(h.appHash),
    last_results_hash: hex(h.lastResultsHash),
    evidence_hash: hex(h.evidenceHash),
    proposer_address: hex(h.proposerAddress),
  };
}

export function encodeCommitSig(s: CommitSig): CommitSigJson {
  return {
    block_id_flag: s.blockIdFlag,
    validator_address: hex(s.validatorAddress),
    timestamp: time(s.timestamp),
    signature: b64OrNull(s.signature),
  };
}

export function encodeCommit(c: Commit): CommitJson {
  return {
    height: i64(c.height),
    round: c.round,
    block_id: encodeBlockId(c.blockId),
    signatures: c.signatures.map(encodeCommitSig),
  };
}

export function encodeBlock(b: Block): BlockJson {
  return {
    header: encodeHeader(b.header),
    data: { txs: b.data.txs.map(b64) },
    evidence: { evidence: [...b.evidence.evidence] },
    last_commit: encodeCommit(b.lastCommit),
  };
}

export function encodeBlockMeta(m: BlockMeta): BlockMetaJson {
  return {
    block_id: encodeBlockId(m.blockId),
    block_size: i64(m.blockSize),
    header: encodeHeader(m.header),
    num_txs: i64(m.numTxs),
  };
}

export function encodeValidator(v: Validator): ValidatorJson {
  return {
    address: hex(v.address),
    pub_key: encodePubKey(v.pubKey),
    voting_power: i64(v.votingPower),
    proposer_priority: i64(v.proposerPriority),
  };
}

export function encodeVote(v: Vote): VoteJson {
  return {
    type: v.type,
    height: i64(v.height),
    round: v.round,
    block_id: encodeBlockId(v.blockId),
    timestamp: time(v.timestamp),
    validator_address: hex(v.validatorAddress),
    validator_index: v.validatorIndex,
    signature: b64OrNull(v.signature),
    extension: null,
    extension_signature: null,
  };
}

/** `types.ConsensusParams` (durations as nanosecond strings). */
export function encodeConsensusParams(p: ConsensusParams): ConsensusParamsJson {
  return {
    block: { max_bytes: i64(p.block.maxBytes), max_gas: i64(p.block.maxGas) },
    evidence: {
      max_age_num_blocks: i64(p.evidence.maxAgeNumBlocks),
      max_age_duration: i64(p.evidence.maxAgeDurationNs),
      max_bytes: i64(p.evidence.maxBytes),
    },
    validator: { pub_key_types: [...p.validator.pubKeyTypes] },
    version: { app: i64(p.version.app) },
    abci: { vote_extensions_enable_height: i64(p.abci.voteExtensionsEnableHeight) },
  };
}
