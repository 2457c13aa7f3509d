import protobuf from 'protobufjs';
import { describe, expect, it } from 'vitest';
import { fromHex, toHex, utf8 } from '../crypto/encoding.js';
import { sha256 } from '../crypto/hash.js';
import { BlockIDFlag, EMPTY_BLOCK_ID, SignedMsgType, type Block, type BlockID, type Commit, type Header } from './block.js';
import { ZERO_TIME } from './time.js';
import { UnsupportedEvidenceError } from '../codec/errors.js';
import {
  encodeBlock,
  encodeBlockID,
  encodeBytesValue,
  encodeCanonicalProposal,
  encodeCanonicalVote,
  encodeCommit,
  encodeCommitSig,
  encodeConsensusVersion,
  encodeData,
  encodeDeterministicExecTxResult,
  encodeHashedParams,
  encodeHeader,
  encodeInt64Value,
  encodePartSetHeader,
  encodeSimpleValidator,
  encodeStringValue,
  encodeTimestamp,
  lengthDelimited,
} from './proto.js';

/**
 * An independent encoder: protobufjs reflection over a schema transcribed from CometBFT's .proto
 * files (field numbers and types only). Reflection writes every field present on the object, so
 * the fixtures below have no zero-valued scalars, and the zero cases are checked byte by byte.
 */
const SCHEMA = `
syntax = "proto3";
package x;
message Timestamp { int64 seconds = 1; int32 nanos = 2; }
message Consensus { uint64 block = 1; uint64 app = 2; }
message PartSetHeader { uint32 total = 1; bytes hash = 2; }
message BlockID { bytes hash = 1; PartSetHeader part_set_header = 2; }
message Header {
  Consensus version = 1; string chain_id = 2; int64 height = 3; Timestamp time = 4; BlockID last_block_id = 5;
  bytes last_commit_hash = 6; bytes data_hash = 7; bytes validators_hash = 8; bytes next_validators_hash = 9;
  bytes consensus_hash = 10; bytes app_hash = 11; bytes last_results_hash = 12; bytes evidence_hash = 13;
  bytes proposer_address = 14;
}
message Data { repeated bytes txs = 1; }
message CommitSig { int32 block_id_flag = 1; bytes validator_address = 2; Timestamp timestamp = 3; bytes signature = 4; }
message Commit { int64 height = 1; int32 round = 2; BlockID block_id = 3; repeated CommitSig signatures = 4; }
message EvidenceList { repeated bytes evidence = 1; }
message Block { Header header = 1; Data data = 2; EvidenceList evidence = 3; Commit last_commit = 4; }
message CanonicalPartSetHeader { uint32 total = 1; bytes hash = 2; }
message CanonicalBlockID { bytes hash = 1; CanonicalPartSetHeader part_set_header = 2; }
message CanonicalVote {
  int32 type = 1; sfixed64 height = 2; sfixed64 round = 3; CanonicalBlockID block_id = 4; Timestamp timestamp = 5; string chain_id = 6;
}
message CanonicalProposal {
  int32 type = 1; sfixed64 height = 2; sfixed64 round = 3; int64 pol_round = 4; CanonicalBlockID block_id = 5;
  Timestamp timestamp = 6; string chain_id = 7;
}
message PublicKey { oneof sum { bytes ed25519 = 1; bytes secp256k1 = 2; } }
message SimpleValidator { PublicKey pub_key = 1; int64 voting_power = 2; }
message HashedParams { int64 block_max_bytes = 1; int64 block_max_gas = 2; }
message ExecTxResult { uint32 code = 1; bytes data = 2; string log = 3; string info = 4; int64 gas_wanted = 5; int64 gas_used = 6; string codespace = 8; }
`;
const root = protobuf.parse(SCHEMA, { keepCase: true }).root;
const ref = (type: string, obj: Record<string, unknown>): string => {
  const T = root.lookupType(`x.${type}`);
  return toHex(T.encode(T.fromObject(obj)).finish());
};

const h = (s: string): Uint8Array => sha256(utf8(s));
const blockId: BlockID = { hash: h('block'), partSetHeader: { total: 3, hash: h('parts') } };
const refBlockId = { hash: blockId.hash, part_set_header: { total: 3, hash: blockId.partSetHeader.hash } };
const time = { seconds: 1_700_000_000, nanos: 123_456_789 };
const header: Header = {
  version: { block: 11, app: 7 },
  chainId: 'chainlet_9000-1',
  height: 1234,
  time,
  lastBlockId: blockId,
  lastCommitHash: h('lc'),
  dataHash: h('d'),
  validatorsHash: h('v'),
  nextValidatorsHash: h('nv'),
  consensusHash: h('c'),
  appHash: h('a'),
  lastResultsHash: h('r'),
  evidenceHash: h('e'),
  proposerAddress: h('p').slice(0, 20),
};
const refHeader = {
  version: { block: 11, app: 7 },
  chain_id: header.chainId,
  height: 1234,
  time,
  last_block_id: refBlockId,
  last_commit_hash: header.lastCommitHash,
  data_hash: header.dataHash,
  validators_hash: header.validatorsHash,
  next_validators_hash: header.nextValidatorsHash,
  consensus_hash: header.consensusHash,
  app_hash: header.appHash,
  last_results_hash: header.lastResultsHash,
  evidence_hash: header.evidenceHash,
  proposer_address: header.proposerAddress,
};
const commit: Commit = {
  height: 1233,
  round: 2,
  blockId,
  signatures: [
    { blockIdFlag: BlockIDFlag.Commit, validatorAddress: h('v1').slice(0, 20), timestamp: time, signature: h('s1') },
    { blockIdFlag: BlockIDFlag.Nil, validatorAddress: h('v2').slice(0, 20), timestamp: { seconds: 5, nanos: 6 }, signature: h('s2') },
  ],
};
const refCommit = {
  height: 1233,
  round: 2,
  block_id: refBlockId,
  signatures: [
    { block_id_flag: 2, validator_address: commit.signatures[0]!.validatorAddress, timestamp: time, signature: h('s1') },
    { block_id_flag: 3, validator_address: commit.signatures[1]!.validatorAddress, timestamp: { seconds: 5, nanos: 6 }, signature: h('s2') },
  ],
};

describe('proto encodings agree with protobufjs reflection on the CometBFT schema', () => {
  it('Timestamp, PartSetHeader, BlockID, Consensus', () => {
    expect(toHex(encodeTimestamp(time))).toBe(ref('Timestamp', time));
    expect(toHex(encodeTimestamp(ZERO_TIME))).toBe(ref('Timestamp', { seconds: ZERO_TIME.seconds }));
    expect(toHex(encodePartSetHeader(blockId.partSetHeader))).toBe(ref('PartSetHeader', refBlockId.part_set_header));
    expect(toHex(encodeBlockID(blockId))).toBe(ref('BlockID', refBlockId));
    expect(toHex(encodeConsensusVersion({ block: 11, app: 7 }))).toBe(ref('Consensus', { block: 11, app: 7 }));
  });

  it('Header', () => {
    expect(toHex(encodeHeader(header))).toBe(ref('Header', refHeader));
  });

  it('CommitSig and Commit', () => {
    expect(toHex(encodeCommitSig(commit.signatures[0]!))).toBe(ref('CommitSig', refCommit.signatures[0]!));
    expect(toHex(encodeCommit(commit))).toBe(ref('Commit', refCommit));
  });

  it('Data (an empty tx is still an element) and Block', () => {
    const txs = [utf8('a=1'), new Uint8Array(0), utf8('b=2')];
    expect(toHex(encodeData(txs))).toBe(ref('Data', { txs }));
    const block: Block = { header, data: { txs }, evidence: { evidence: [] }, lastCommit: commit };
    expect(toHex(encodeBlock(block))).toBe(ref('Block', { header: refHeader, data: { txs }, evidence: {}, last_commit: refCommit }));
  });

  it('CanonicalVote and CanonicalProposal', () => {
    const vote = { type: SignedMsgType.Precommit, height: 77, round: 3, blockId, timestamp: time };
    const refVote = { type: 2, height: 77, round: 3, block_id: refBlockId, timestamp: time, chain_id: 'c-1' };
    expect(toHex(encodeCanonicalVote('c-1', vote))).toBe(ref('CanonicalVote', refVote));
    const prop = { height: 77, round: 3, polRound: -1, blockId, timestamp: time };
    const refProp = { type: 32, height: 77, round: 3, pol_round: -1, block_id: refBlockId, timestamp: time, chain_id: 'c-1' };
    expect(toHex(encodeCanonicalProposal('c-1', prop))).toBe(ref('CanonicalProposal', refProp));
  });

  it('SimpleValidator, HashedParams, ExecTxResult', () => {
    const pk = h('pk');
    expect(toHex(encodeSimpleValidator(pk, 10))).toBe(ref('SimpleValidator', { pub_key: { ed25519: pk }, voting_power: 10 }));
    expect(toHex(encodeHashedParams(22_020_096, -1))).toBe(ref('HashedParams', { block_max_bytes: 22_020_096, block_max_gas: -1 }));
    const r = { code: 5, data: utf8('out'), gasWanted: 21_000, gasUsed: 20_999 };
    expect(toHex(encodeDeterministicExecTxResult(r))).toBe(ref('ExecTxResult', { code: 5, data: r.data, gas_wanted: 21_000, gas_used: 20_999 }));
  });
});

describe('gogoproto zero-value semantics', () => {
  it('wrappers of zero values are empty', () => {
    expect(encodeStringValue('')).toEqual(new Uint8Array(0));
    expect(encodeInt64Value(0)).toEqual(new Uint8Array(0));
    expect(encodeBytesValue(new Uint8Array(0))).toEqual(new Uint8Array(0));
    expect(toHex(encodeStringValue('ab'))).toBe('0a026162');
    expect(toHex(encodeInt64Value(3))).toBe('0803');
    expect(toHex(encodeBytesValue(new Uint8Array([9])))).toBe('0a0109');
  });

  it('non-nullable embedded messages are written even when empty', () => {
    // BlockID{} = part_set_header present but empty.
    expect(toHex(encodeBlockID(EMPTY_BLOCK_ID))).toBe('1200');
    expect(toHex(encodeConsensusVersion({ block: 0, app: 0 }))).toBe('');
    expect(toHex(encodeTimestamp({ seconds: 0, nanos: 0 }))).toBe('');
    // Commit{} (the last commit of the initial block) still carries its BlockID.
    expect(toHex(encodeCommit({ height: 0, round: 0, blockId: EMPTY_BLOCK_ID, signatures: [] }))).toBe('1a021200');
  });

  it('an absent CommitSig has no address or signature but keeps its timestamp', () => {
    const absent = { blockIdFlag: BlockIDFlag.Absent, validatorAddress: new Uint8Array(0), timestamp: ZERO_TIME, signature: null };
    expect(toHex(encodeCommitSig(absent))).toBe('08011a0b088092b8c398feffffff01');
  });

  it('encodes the default HashedParams (max_gas -1 as a 10-byte varint)', () => {
    expect(toHex(encodeHashedParams(22_020_096, -1))).toBe('088080c00a10ffffffffffffffffff01');
  });

  it('accepts bigint voting power beyond 2^53', () => {
    const pk = h('pk');
    const big = 770_561_664_770_006_272n;
    expect(toHex(encodeSimpleValidator(pk, big))).toBe(ref('SimpleValidator', { pub_key: { ed25519: pk }, voting_power: big.toString() }));
  });
});

describe('canonical messages', () => {
  it('omit the block id of a vote for nil', () => {
    const bytes = encodeCanonicalVote('c', { type: SignedMsgType.Prevote, height: 1, round: 0, blockId: EMPTY_BLOCK_ID, timestamp: ZERO_TIME });
    expect(toHex(bytes)).toBe('0801' + '110100000000000000' + '2a0b088092b8c398feffffff01' + '320163');
  });

  it('write pol_round -1 as a 10-byte varint', () => {
    const bytes = encodeCanonicalProposal('', { height: 1, round: 0, polRound: -1, blockId: EMPTY_BLOCK_ID, timestamp: { seconds: 0, nanos: 0 } });
    expect(toHex(bytes)).toBe('0820' + '110100000000000000' + '20ffffffffffffffffff01' + '3200');
  });

  it('frame sign bytes with a uvarint length', () => {
    expect(toHex(lengthDelimited(fromHex('0a0b')))).toBe('020a0b');
    expect(lengthDelimited(new Uint8Array(200)).subarray(0, 2)).toEqual(new Uint8Array([0xc8, 0x01]));
  });
});

describe('evidence', () => {
  it('refuses to encode a block with evidence', () => {
    const block: Block = { header, data: { txs: [] }, evidence: { evidence: [{}] }, lastCommit: commit };
    expect(() => encodeBlock(block)).toThrow(UnsupportedEvidenceError);
  });
});

describe('results', () => {
  it('are plain, exactly-sized Uint8Arrays that share no bytes with one another', () => {
    const sig = new Uint8Array(64).fill(9);
    const a = encodeCommitSig({ blockIdFlag: 2, validatorAddress: new Uint8Array(20).fill(1), timestamp: { seconds: 1, nanos: 2 }, signature: sig });
    const before = Buffer.from(a).toString('hex');
    const b = encodeCommitSig({ blockIdFlag: 2, validatorAddress: new Uint8Array(20).fill(3), timestamp: { seconds: 5, nanos: 6 }, signature: sig });
    expect(a.length).toBeGreaterThan(64); // a slab view, not a small array on the heap
    expect(Object.getPrototypeOf(a)).toBe(Uint8Array.prototype);
    b.fill(0xff);
    expect(Buffer.from(a).toString('hex')).toBe(before);
    expect(Buffer.from(encodeTimestamp({ seconds: 1, nanos: 2 })).toString('hex')).toBe('08011002');
  });
});
