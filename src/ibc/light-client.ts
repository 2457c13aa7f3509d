/**
 * ICS-07 Tendermint light-client check for the in-process chains: what ibc-go's 07-tendermint
 * client does on MsgUpdateClient (`Header.ValidateBasic`, `checkTrustedHeader`, CometBFT
 * `light.Verify`), simplified: the caller hands in the one trusted consensus state, no bisection.
 * With `time` given, CometBFT's time checks too: the trusted state within the trusting period, the
 * header after it and not beyond the host's time plus the max clock drift.
 *
 * Exported API:
 *   tmHeaderOf(parts: TmHeaderParts): TmHeaderProto           our Header/Commit/ValidatorSets → ibc Header proto
 *   fromTmHeaderProto(h: TmHeaderProto): TmHeaderParts        the inverse (LightClientError when malformed)
 *   encodeTmHeader(h): Uint8Array, decodeTmHeader(bytes | Any): TmHeaderProto, tmHeaderAny(h): Any
 *   validatorSetProto(vs), validatorSetFromProto(p), validatorSetHash(p)
 *   verifyTmHeader(client: TmClientTrust, h: TmHeaderProto): VerifiedTmHeader   (throws LightClientError)
 *   clientStateOf(chainId, height): Any, consensusStateOf(header | TmConsensusState): Any
 *   parseChainIdRevision(chainId): bigint, the TM_*_TYPE_URL constants, LightClientError
 *
 * Commit signatures, on purpose unlike CometBFT's VerifyCommitLight: that stops at the first bad
 * signature met before +2/3 is tallied (and never looks past it), so its outcome depends on where
 * a bad signature sits. Here every COMMIT signature is checked, a bad one carries no power, and the
 * header fails only when the verified power is not > 2/3 (the error then lists the bad signatures).
 */
import { exactSizeBuffers } from '../codec/cosmjs-types.js';
import type { Any } from 'cosmjs-types/google/protobuf/any';
import type { Timestamp as TimestampProto } from 'cosmjs-types/google/protobuf/timestamp';
import type { Height } from 'cosmjs-types/ibc/core/client/v1/client';
import { ClientState, ConsensusState, Header as TmHeader } from 'cosmjs-types/ibc/lightclients/tendermint/v1/tendermint';
import type { BlockID as BlockIDProto, Commit as CommitProto, Header as HeaderProto } from 'cosmjs-types/tendermint/types/types';
import type { ValidatorSet as ValidatorSetProto, Validator as ValidatorProto } from 'cosmjs-types/tendermint/types/validator';
import { BlockIDFlag } from '../abci/types.js';
import { addressFromPubKey, ED25519_PUBKEY_LENGTH, ed25519Verify } from '../crypto/ed25519.js';
import { bytesEqual, toHexUpper } from '../crypto/encoding.js';
import { SignedMsgType, type BlockID, type Commit, type CommitSig, type Header, type Validator } from '../types/block.js';
import { headerHash } from '../types/header.js';
import { voteSignBytes } from '../types/vote.js';
import { formatRfc3339Nano, timestampToNs, type Timestamp } from '../types/time.js';
import { ValidatorSet } from '../types/validator-set.js';

exactSizeBuffers();

export type TmHeaderProto = TmHeader;
export type { ValidatorSetProto };

export const TM_CLIENT_STATE_TYPE_URL = '/ibc.lightclients.tendermint.v1.ClientState';
export const TM_CONSENSUS_STATE_TYPE_URL = '/ibc.lightclients.tendermint.v1.ConsensusState';
export const TM_HEADER_TYPE_URL = '/ibc.lightclients.tendermint.v1.Header';

/** Default trust level of ibc-go / relayers: more than 1/3 of the trusted power must sign a changed set. */
const TRUST_LEVEL = { numerator: 1n, denominator: 3n };
const DAY_SECONDS = 24n * 60n * 60n;

export type LightClientErrorReason =
  | 'invalid-header'
  | 'chain-id-mismatch'
  | 'invalid-height'
  | 'header-hash-mismatch'
  | 'validators-hash-mismatch'
  | 'trusted-validators-hash-mismatch'
  | 'untrusted-validator-set'
  | 'insufficient-voting-power'
  | 'expired'
  | 'header-time';

export class LightClientError extends Error {
  override name = 'LightClientError';
  constructor(
    readonly reason: LightClientErrorReason,
    message: string,
  ) {
    super(message);
  }
}

const invalid = (msg: string): LightClientError => new LightClientError('invalid-header', `invalid header: ${msg}`);

export interface TmHeaderParts {
  header: Header;
  commit: Commit;
  /** The set that signed `commit` (hashes to header.validatorsHash). */
  validators: ValidatorSet;
  trustedHeight: Height;
  /** The next validators of the trusted consensus state. */
  trustedValidators: ValidatorSet;
}

/** What the client trusts: the consensus state at `latestHeight` (only its next validators hash matters here). */
export interface TmClientTrust {
  chainId: string;
  trustedNextValidatorsHash: Uint8Array;
  /** Revision height of that trusted state: the client's latest, or the header's trusted_height when the caller keeps several. */
  latestHeight: bigint;
  /** 07-tendermint's time checks (ns since the epoch, durations in ns): skipped when absent. */
  time?: { trustedNs: bigint; trustingPeriodNs: bigint; maxClockDriftNs: bigint; nowNs: bigint };
}

export interface TmConsensusState {
  timestamp: Timestamp;
  /** The header's app hash (the commitment root proofs verify against). */
  root: Uint8Array;
  nextValidatorsHash: Uint8Array;
}

export interface VerifiedTmHeader {
  consensusState: TmConsensusState;
  /** Revision height (the header height). */
  height: bigint;
}

// ---------------------------------------------------------------- our types → protos

const timestampProto = (t: Timestamp): TimestampProto => ({ seconds: BigInt(t.seconds), nanos: t.nanos });

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

// ---------------------------------------------------------------- verification

/** ibc-go clienttypes.ParseChainID: the N of a `name-N` chain id (N without a leading 0), else 0. */
export function parseChainIdRevision(chainId: string): bigint {
  const m = /^.*[^\n-]-([1-9][0-9]*)$/.exec(chainId);
  return m ? BigInt(m[1]!) : 0n;
}

const fmtHeight = (h: Height): string => `${h.revisionNumber}-${h.revisionHeight}`;

/**
 * Verifies the COMMIT signatures as the consensus engine checks a precommit: the validator at the
 * signature's index must have its address, and ed25519 must verify over the canonical precommit
 * sign bytes of the counterparty chain. Nil and absent signatures carry no power, as
 * VerifyCommitLight ignores them. Returns the verified power and which indices verified.
 */
function tallyCommit(chainId: string, vals: ValidatorSet, commit: Commit): { power: number; verified: boolean[]; bad: string[] } {
  const bad: string[] = [];
  let power = 0;
  const verified = commit.signatures.map((s, i) => {
    if (s.blockIdFlag !== BlockIDFlag.Commit) return false;
    const val = vals.validators[i];
    if (!val) {
      bad.push(`wrong signature (#${i}): no validator at index ${i}`);
      return false;
    }
    if (!bytesEqual(val.address, s.validatorAddress)) {
      bad.push(`wrong signature (#${i}): validator address ${toHexUpper(s.validatorAddress)} is not ${toHexUpper(val.address)} at index ${i}`);
      return false;
    }
    const vote = {
      type: SignedMsgType.Precommit,
      height: commit.height,
      round: commit.round,
      blockId: commit.blockId,
      timestamp: s.timestamp,
      validatorAddress: s.validatorAddress,
      validatorIndex: i,
      signature: s.signature ?? new Uint8Array(0),
    };
    if (!ed25519Verify(val.pubKey, voteSignBytes(chainId, vote), vote.signature)) {
      bad.push(`wrong signature (#${i}): invalid signature from ${toHexUpper(val.address)}`);
      return false;
    }
    power += val.votingPower;
    return true;
  });
  return { power, verified, bad };
}

/**
 * Checks a counterparty header against what the client trusts; returns the consensus state to
 * store at the header's height. Order of checks and wording follow ibc-go where it has them.
 * Heights: the header must be above both its trusted_height and the client's latestHeight, and
 * trusted_height (same revision) may not be beyond latestHeight.
 */
export function verifyTmHeader(client: TmClientTrust, h: TmHeaderProto): VerifiedTmHeader {
  const { header, commit, validators, trustedHeight, trustedValidators } = fromTmHeaderProto(h);
  if (header.height <= 0) throw invalid(`header height must be positive, got ${header.height}`);
  if (commit.height !== header.height) throw invalid(`header and commit height mismatch: ${header.height} vs ${commit.height}`);

  if (header.chainId !== client.chainId) {
    throw new LightClientError(
      'chain-id-mismatch',
      `invalid header: header chain id mismatch: header belongs to another chain "${header.chainId}", not "${client.chainId}"`,
    );
  }

  const height = BigInt(header.height);
  const revision = parseChainIdRevision(header.chainId);
  const heightErr = (msg: string) => new LightClientError('invalid-height', `invalid header height: ${msg}`);
  if (trustedHeight.revisionNumber !== revision)
    throw heightErr(`header height revision ${revision} does not match trusted header revision ${trustedHeight.revisionNumber}`);
  if (trustedHeight.revisionHeight >= height)
    throw heightErr(`TrustedHeight ${fmtHeight(trustedHeight)} must be less than header height ${revision}-${height}`);
  if (height <= client.latestHeight)
    throw heightErr(`header height ${revision}-${height} must be greater than the client's trusted height ${revision}-${client.latestHeight}`);
  if (trustedHeight.revisionHeight > client.latestHeight) {
    throw heightErr(
      `could not get trusted consensus state for height ${fmtHeight(trustedHeight)}: the client's latest height is ${revision}-${client.latestHeight}`,
    );
  }

  if (client.time) checkHeaderTime(client.time, header.time);

  const blockHash = headerHash(header);
  if (!bytesEqual(blockHash, commit.blockId.hash)) {
    throw new LightClientError(
      'header-hash-mismatch',
      `invalid header: commit signs block ${toHexUpper(commit.blockId.hash)}, header is block ${toHexUpper(blockHash)}`,
    );
  }
  if (!bytesEqual(validators.hash(), header.validatorsHash)) {
    throw new LightClientError(
      'validators-hash-mismatch',
      `invalid header: validator set does not match hash: header validators hash ${toHexUpper(header.validatorsHash)}, validator set hash ${toHexUpper(validators.hash())}`,
    );
  }
  if (!bytesEqual(trustedValidators.hash(), client.trustedNextValidatorsHash)) {
    throw new LightClientError(
      'trusted-validators-hash-mismatch',
      `invalid validator set: trusted validators hash mismatch: trusted validators do not hash to latest trusted validators. Expected: ${toHexUpper(client.trustedNextValidatorsHash)}, got: ${toHexUpper(trustedValidators.hash())}`,
    );
  }

  if (commit.signatures.length !== validators.size()) throw invalid(`invalid commit -- wrong set size: ${validators.size()} vs ${commit.signatures.length}`);
  const tally = tallyCommit(header.chainId, validators, commit);
  if (!validators.hasTwoThirdsMajority(tally.power)) {
    const needed = Math.floor((validators.totalVotingPower() * 2) / 3);
    const why = tally.bad.length > 0 ? `; ${tally.bad.join('; ')}` : '';
    throw new LightClientError(
      'insufficient-voting-power',
      `invalid header: commit signatures have insufficient voting power: got ${tally.power}, need more than ${needed}${why}`,
    );
  }

  // The set changed since the trusted state (VerifyNonAdjacent): trusted validators must vouch for
  // it with more than the trust level of their power. Addresses are checked to derive from the
  // keys in both sets, so a signature verified under the signing set counts for the same key here.
  if (!bytesEqual(header.validatorsHash, client.trustedNextValidatorsHash)) {
    let trustedPower = 0n;
    commit.signatures.forEach((s, i) => {
      if (tally.verified[i]) trustedPower += BigInt(trustedValidators.getByAddress(s.validatorAddress)?.validator.votingPower ?? 0);
    });
    const needed = (BigInt(trustedValidators.totalVotingPower()) * TRUST_LEVEL.numerator) / TRUST_LEVEL.denominator;
    if (trustedPower <= needed) {
      throw new LightClientError(
        'untrusted-validator-set',
        `invalid header: can't trust new validator set: trusted validators signed insufficient voting power: got ${trustedPower}, need more than ${needed}`,
      );
    }
  }

  return { consensusState: { timestamp: header.time, root: header.appHash, nextValidatorsHash: header.nextValidatorsHash }, height };
}

/** ns since the epoch as RFC 3339 (CometBFT's error texts print times). */
const nsText = (ns: bigint): string => formatRfc3339Nano({ seconds: Number(ns / 1_000_000_000n), nanos: Number(ns % 1_000_000_000n) });

/** CometBFT light.Verify's time checks, in its order and words: trusted state expired, header time not after it, header from the future. */
function checkHeaderTime(t: NonNullable<TmClientTrust['time']>, headerTime: Timestamp): void {
  const expiresNs = t.trustedNs + t.trustingPeriodNs;
  if (expiresNs <= t.nowNs)
    throw new LightClientError('expired', `failed to verify header: old header has expired at ${nsText(expiresNs)} (now: ${nsText(t.nowNs)})`);
  const headerNs = timestampToNs(headerTime);
  if (headerNs <= t.trustedNs)
    throw new LightClientError(
      'header-time',
      `failed to verify header: expected new header time ${nsText(headerNs)} to be after old header time ${nsText(t.trustedNs)}`,
    );
  if (headerNs >= t.nowNs + t.maxClockDriftNs) {
    throw new LightClientError(
      'header-time',
      `failed to verify header: new header has a time from the future ${nsText(headerNs)} (now: ${nsText(t.nowNs)}; max clock drift: ${t.maxClockDriftNs / 1_000_000n}ms)`,
    );
  }
}

// ---------------------------------------------------------------- client and consensus states

/** An ibc-go-default ClientState (trust 1/3, trusting 14 days, unbonding 21 days, drift 10 s), as Any. */
export function clientStateOf(chainId: string, height: bigint): Any {
  const cs: ClientState = {
    chainId,
    trustLevel: { numerator: TRUST_LEVEL.numerator, denominator: TRUST_LEVEL.denominator },
    trustingPeriod: { seconds: 14n * DAY_SECONDS, nanos: 0 },
    unbondingPeriod: { seconds: 21n * DAY_SECONDS, nanos: 0 },
    maxClockDrift: { seconds: 10n, nanos: 0 },
    frozenHeight: { revisionNumber: 0n, revisionHeight: 0n },
    latestHeight: { revisionNumber: parseChainIdRevision(chainId), revisionHeight: height },
    proofSpecs: [],
    upgradePath: ['upgrade', 'upgradedIBCState'],
    allowUpdateAfterExpiry: false,
    allowUpdateAfterMisbehaviour: false,
  };
  return { typeUrl: TM_CLIENT_STATE_TYPE_URL, value: ClientState.encode(cs).finish() };
}

/** The ConsensusState (time, app hash root, next validators hash) of a header or of verifyTmHeader's result, as Any. */
export function consensusStateOf(src: Header | TmConsensusState): Any {
  const s: TmConsensusState = 'appHash' in src ? { timestamp: src.time, root: src.appHash, nextValidatorsHash: src.nextValidatorsHash } : src;
  const cs: ConsensusState = { timestamp: timestampProto(s.timestamp), root: { hash: s.root }, nextValidatorsHash: s.nextValidatorsHash };
  return { typeUrl: TM_CONSENSUS_STATE_TYPE_URL, value: ConsensusState.encode(cs).finish() };
}
