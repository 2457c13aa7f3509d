/**
 * ICS-07 Tendermint light-client check for the in-process chains: what ibc-go's 07-tendermint
 * client does on MsgUpdateClient (`Header.ValidateBasic`, `checkTrustedHeader`, CometBFT
 * `light.Verify`), simplified: the caller hands in the one trusted consensus state, no bisection.
 * With `time` given, CometBFT's time checks too: the trusted state within the trusting period, the
 * header after it and not beyond the host's time plus the max clock drift.
 *
 * Exported API (the header codec is src/ibc/tm-header-codec.ts, the client and consensus states
 * src/ibc/tm-client-state.ts, the error src/ibc/light-client-error.ts):
 *   verifyTmHeader(client: TmClientTrust, h: TmHeaderProto): VerifiedTmHeader   (throws LightClientError)
 *
 * Commit signatures, on purpose unlike CometBFT's VerifyCommitLight: that stops at the first bad
 * signature met before +2/3 is tallied (and never looks past it), so its outcome depends on where
 * a bad signature sits. Here every COMMIT signature is checked, a bad one carries no power, and the
 * header fails only when the verified power is not > 2/3 (the error then lists the bad signatures).
 */
import type { Height } from 'cosmjs-types/ibc/core/client/v1/client';
import { BlockIDFlag } from '../abci/types.js';
import { ed25519Verify } from '../crypto/ed25519.js';
import { bytesEqual, toHexUpper } from '../crypto/encoding.js';
import { SignedMsgType, type Commit } from '../types/block.js';
import { headerHash } from '../types/header.js';
import { voteSignBytes } from '../types/vote.js';
import { formatRfc3339Nano, timestampToNs, type Timestamp } from '../types/time.js';
import type { ValidatorSet } from '../types/validator-set.js';
import { invalid, LightClientError } from './light-client-error.js';
import { parseChainIdRevision, TRUST_LEVEL, type TmConsensusState } from './tm-client-state.js';
import { fromTmHeaderProto, type TmHeaderProto } from './tm-header-codec.js';

/** What the client trusts: the consensus state at `latestHeight` (only its next validators hash matters here). */
export interface TmClientTrust {
  chainId: string;
  trustedNextValidatorsHash: Uint8Array;
  /** Revision height of that trusted state: the client's latest, or the header's trusted_height when the caller keeps several. */
  latestHeight: bigint;
  /** 07-tendermint's time checks (ns since the epoch, durations in ns): skipped when absent. */
  time?: { trustedNs: bigint; trustingPeriodNs: bigint; maxClockDriftNs: bigint; nowNs: bigint };
}

export interface VerifiedTmHeader {
  consensusState: TmConsensusState;
  /** Revision height (the header height). */
  height: bigint;
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
