/**
 * The ibc `Header` (signed_header, validator_set, trusted_height, trusted_validators) to and from
 * our block types, and its encodings (bytes, Any). Decoding is strict: an int64 beyond 2^53, a
 * malformed validator or a missing field is a LightClientError('invalid-header').
 */
import { exactSizeBuffers } from '../codec/cosmjs-types.js';
import type { Any } from 'cosmjs-types/google/protobuf/any';
import type { Timestamp as TimestampProto } from 'cosmjs-types/google/protobuf/timestamp';
import type { Height } from 'cosmjs-types/ibc/core/client/v1/client';
import { Header as TmHeader } from 'cosmjs-types/ibc/lightclients/tendermint/v1/tendermint';
import type { BlockID as BlockIDProto, Commit as CommitProto, Header as HeaderProto } from 'cosmjs-types/tendermint/types/types';
import type { ValidatorSet as ValidatorSetProto, Validator as ValidatorProto } from 'cosmjs-types/tendermint/types/validator';
import { BlockIDFlag } from '../abci/types.js';
import { addressFromPubKey, ED25519_PUBKEY_LENGTH } from '../crypto/ed25519.js';
import { bytesEqual } from '../crypto/encoding.js';
import type { BlockID, Commit, CommitSig, Header, Validator } from '../types/block.js';
import type { Timestamp } from '../types/time.js';
import { ValidatorSet } from '../types/validator-set.js';
import { invalid } from './light-client-error.js';

exactSizeBuffers();

export type TmHeaderProto = TmHeader;
export type { ValidatorSetProto };

export const TM_HEADER_TYPE_URL = '/ibc.lightclients.tendermint.v1.Header';

export interface TmHeaderParts {
  header: Header;
  commit: Commit;
  /** The set that signed `commit` (hashes to header.validatorsHash). */
  validators: ValidatorSet;
  trustedHeight: Height;
  /** The next validators of the trusted consensus state. */
  trustedValidators: ValidatorSet;
}

// ---------------------------------------------------------------- our types → protos

export const timestampProto = (t: Timestamp): TimestampProto => ({ seconds: BigInt(t.seconds), nanos: t.nanos });

const blockIdProto = (b: BlockID): BlockIDProto => ({ hash: b.hash, partSetHeader: { total: b.partSetHeader.total, hash: b.partSetHeader.hash } });

function headerProto(h: Header): HeaderProto {
  return {
    version: { block: BigInt(h.version.block), app: BigInt(h.version.app) },
    chainId: h.chainId,
    height: BigInt(h.height),
    time: timestampProto(h.time),
    lastBlockId: blockIdProto(h.lastBlockId),
    lastCommitHash: h.lastCommitHash,
    dataHash: h.dataHash,
    validatorsHash: h.validatorsHash,
    nextValidatorsHash: h.nextValidatorsHash,
    consensusHash: h.consensusHash,
    appHash: h.appHash,
    lastResultsHash: h.lastResultsHash,
    evidenceHash: h.evidenceHash,
    proposerAddress: h.proposerAddress,
  };
}

function commitProto(c: Commit): CommitProto {
  return {
    height: BigInt(c.height),
    round: c.round,
    blockId: blockIdProto(c.blockId),
    signatures: c.signatures.map((s) => ({
      blockIdFlag: s.blockIdFlag as number,
      validatorAddress: s.validatorAddress,
      timestamp: timestampProto(s.timestamp),
      signature: s.signature ?? new Uint8Array(0),
    })),
  };
}

const validatorProto = (v: Validator): ValidatorProto => ({
  address: v.address,
  pubKey: { ed25519: v.pubKey },
  votingPower: BigInt(v.votingPower),
  proposerPriority: BigInt(v.proposerPriority),
});

export function validatorSetProto(vs: ValidatorSet): ValidatorSetProto {
  return { validators: vs.validators.map(validatorProto), proposer: validatorProto(vs.proposer), totalVotingPower: BigInt(vs.totalVotingPower()) };
}

/** The ibc `Header` (signed_header, validator_set, trusted_height, trusted_validators); byte arrays are shared, not copied. */
export function tmHeaderOf(parts: TmHeaderParts): TmHeaderProto {
  return {
    signedHeader: { header: headerProto(parts.header), commit: commitProto(parts.commit) },
    validatorSet: validatorSetProto(parts.validators),
    trustedHeight: { revisionNumber: parts.trustedHeight.revisionNumber, revisionHeight: parts.trustedHeight.revisionHeight },
    trustedValidators: validatorSetProto(parts.trustedValidators),
  };
}

export function encodeTmHeader(h: TmHeaderProto): Uint8Array {
  return TmHeader.encode(h).finish();
}

export function tmHeaderAny(h: TmHeaderProto): Any {
  return { typeUrl: TM_HEADER_TYPE_URL, value: encodeTmHeader(h) };
}

/** Decodes header bytes, or an `Any` (MsgUpdateClient.client_message) after checking its type URL. */
export function decodeTmHeader(input: Uint8Array | Any): TmHeaderProto {
  let bytes: Uint8Array;
  if (input instanceof Uint8Array) bytes = input;
  else if (input.typeUrl !== TM_HEADER_TYPE_URL) throw invalid(`expected client message ${TM_HEADER_TYPE_URL}, got ${input.typeUrl}`);
  else bytes = input.value;
  try {
    return TmHeader.decode(bytes);
  } catch (err) {
    throw invalid(`cannot decode ${TM_HEADER_TYPE_URL}: ${err instanceof Error ? err.message : String(err)}`);
  }
}

// ---------------------------------------------------------------- protos → our types

/** Our types keep int64s as JS numbers: anything beyond 2^53 is refused rather than rounded. */
function num(v: bigint, what: string): number {
  const n = Number(v);
  if (!Number.isSafeInteger(n)) throw invalid(`${what} ${v} is out of range`);
  return n;
}

const fromTimestampProto = (t: TimestampProto, what: string): Timestamp => ({ seconds: num(t.seconds, `${what} seconds`), nanos: t.nanos });

const fromBlockIdProto = (b: BlockIDProto): BlockID => ({ hash: b.hash, partSetHeader: { total: b.partSetHeader.total, hash: b.partSetHeader.hash } });

function fromHeaderProto(h: HeaderProto): Header {
  return {
    version: { block: num(h.version.block, 'version.block'), app: num(h.version.app, 'version.app') },
    chainId: h.chainId,
    height: num(h.height, 'height'),
    time: fromTimestampProto(h.time, 'time'),
    lastBlockId: fromBlockIdProto(h.lastBlockId),
    lastCommitHash: h.lastCommitHash,
    dataHash: h.dataHash,
    validatorsHash: h.validatorsHash,
    nextValidatorsHash: h.nextValidatorsHash,
    consensusHash: h.consensusHash,
    appHash: h.appHash,
    lastResultsHash: h.lastResultsHash,
    evidenceHash: h.evidenceHash,
    proposerAddress: h.proposerAddress,
  };
}

function fromCommitProto(c: CommitProto): Commit {
  return {
    height: num(c.height, 'commit height'),
    round: c.round,
    blockId: fromBlockIdProto(c.blockId),
    signatures: c.signatures.map((s, i): CommitSig => {
      const flag = s.blockIdFlag as number;
      if (flag !== BlockIDFlag.Absent && flag !== BlockIDFlag.Commit && flag !== BlockIDFlag.Nil) {
        throw invalid(`invalid commit: wrong CommitSig #${i}: unknown BlockIDFlag: ${flag}`);
      }
      return {
        blockIdFlag: flag,
        validatorAddress: s.validatorAddress,
        timestamp: fromTimestampProto(s.timestamp, `commit sig #${i} timestamp`),
        // The block store keeps absent signatures as null; proto3 cannot tell null from empty.
        signature: s.signature.length === 0 ? null : s.signature,
      };
    }),
  };
}

/** CometBFT Validator.ValidateBasic, for ed25519 keys only (the chains' validators are ed25519). */
function fromValidatorProto(v: ValidatorProto, what: string): Validator {
  const pubKey = v.pubKey?.ed25519;
  if (!pubKey || pubKey.length !== ED25519_PUBKEY_LENGTH) throw invalid(`${what}: validator does not have an ed25519 public key`);
  if (!bytesEqual(addressFromPubKey(pubKey), v.address)) throw invalid(`${what}: validator address is incorrectly derived from pubkey`);
  const votingPower = num(v.votingPower, `${what}: voting power`);
  if (votingPower < 0) throw invalid(`${what}: validator has negative voting power`);
  return { address: v.address, pubKey, votingPower, proposerPriority: num(v.proposerPriority, `${what}: proposer priority`) };
}

/**
 * A ValidatorSet from its proto. The proto's total_voting_power is ignored (recomputed, as CometBFT
 * does). A set out of canonical order (power desc, address asc) or with duplicates is refused:
 * ValidatorSet sorts, while commit signature indices and the hash refer to the order given.
 */
export function validatorSetFromProto(p: ValidatorSetProto | undefined, what = 'validator set'): ValidatorSet {
  if (!p || p.validators.length === 0) throw invalid(`${what} is nil or empty`);
  const vals = p.validators.map((v, i) => fromValidatorProto(v, `${what}: invalid validator #${i}`));
  if (!p.proposer) throw invalid(`${what}: proposer failed validate basic, error: nil validator`);
  const proposer = fromValidatorProto(p.proposer, `${what}: proposer`);
  let set: ValidatorSet;
  try {
    set = ValidatorSet.fromValidators(vals, proposer.address);
  } catch (err) {
    throw invalid(`${what}: ${err instanceof Error ? err.message : String(err)}`);
  }
  set.validators.forEach((v, i) => {
    if (!bytesEqual(v.address, vals[i]!.address) || set.getByAddress(v.address)?.index !== i) {
      throw invalid(`${what}: validators must be unique and sorted by voting power (desc), then address (asc)`);
    }
  });
  return set;
}

/** The header `validators_hash` of a proto set (ValidatorSet's own hash). */
export function validatorSetHash(p: ValidatorSetProto): Uint8Array {
  return validatorSetFromProto(p).hash();
}

/** The inverse of tmHeaderOf; throws LightClientError('invalid-header') on a malformed header. */
export function fromTmHeaderProto(h: TmHeaderProto): TmHeaderParts {
  const sh = h.signedHeader;
  if (!sh) throw invalid('tendermint signed header cannot be nil');
  if (!sh.header) throw invalid('tendermint header cannot be nil');
  if (!sh.commit) throw invalid('missing commit');
  return {
    header: fromHeaderProto(sh.header),
    commit: fromCommitProto(sh.commit),
    validators: validatorSetFromProto(h.validatorSet, 'validator set'),
    trustedHeight: { revisionNumber: h.trustedHeight.revisionNumber, revisionHeight: h.trustedHeight.revisionHeight },
    trustedValidators: validatorSetFromProto(h.trustedValidators, 'trusted validators'),
  };
}
