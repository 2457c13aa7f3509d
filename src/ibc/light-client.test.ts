import { ClientState, ConsensusState } from 'cosmjs-types/ibc/lightclients/tendermint/v1/tendermint';
import { Commit as CommitProto, Header as HeaderProto } from 'cosmjs-types/tendermint/types/types';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BlockIDFlag } from '../abci/types.js';
import { encodeCommit, encodeHeader } from '../types/proto.js';
import { LocalValidator } from '../consensus/validator.js';
import { ed25519Generate } from '../crypto/ed25519.js';
import { startKvStoreChain, type KvStoreChain } from '../chains/kvstore/start.js';
import { SignedMsgType, type Commit, type Header } from '../types/block.js';
import { headerHash } from '../types/header.js';
import { ValidatorSet } from '../types/validator-set.js';
import {
  decodeTmHeader,
  encodeTmHeader,
  fromTmHeaderProto,
  tmHeaderAny,
  tmHeaderOf,
  validatorSetHash,
  validatorSetProto,
  type TmHeaderProto,
} from './tm-header-codec.js';
import { LightClientError, type LightClientErrorReason } from './light-client-error.js';
import { verifyTmHeader, type TmClientTrust } from './light-client.js';
import { clientStateOf, consensusStateOf, parseChainIdRevision } from './tm-client-state.js';

const CHAIN_ID = 'lc-test-1';
const TRUSTED = 2;
const H = 4;

let chain: KvStoreChain;
let valSet: ValidatorSet;
let header: Header;
let commit: Commit;
let client: TmClientTrust;

beforeAll(async () => {
  chain = await startKvStoreChain({ kind: 'kvstore', chainId: CHAIN_ID, validators: 4, config: { rpc: { laddr: '' }, consensus: { mode: 'manual' } } });
  await chain.mine(H + 1); // block H+1 carries the canonical commit of H
  const bs = chain.parts.blockStore;
  header = (await bs.loadBlockMeta(H))!.header;
  commit = (await bs.loadBlockCommit(H))!;
  const trustedHeader = (await bs.loadBlockMeta(TRUSTED))!.header;
  // The chain's validators never change: its genesis set (priorities differ, the hash does not).
  valSet = ValidatorSet.fromUpdates(chain.genesis.validators.map((v) => ({ pubKey: v.pubKey, power: v.power })));
  client = { chainId: CHAIN_ID, trustedNextValidatorsHash: trustedHeader.nextValidatorsHash, latestHeight: BigInt(TRUSTED) };
});

afterAll(async () => {
  await chain?.stop();
});

/** A fresh, independently mutable copy of the header proto at H, through the bytes. */
function signedHeaderProto(
  over: Partial<{ commit: Commit; validators: ValidatorSet; trustedValidators: ValidatorSet; trustedHeight: bigint }> = {},
): TmHeaderProto {
  const h = tmHeaderOf({
    header,
    commit: over.commit ?? commit,
    validators: over.validators ?? valSet,
    trustedHeight: { revisionNumber: 1n, revisionHeight: over.trustedHeight ?? BigInt(TRUSTED) },
    trustedValidators: over.trustedValidators ?? valSet,
  });
  return decodeTmHeader(encodeTmHeader(h));
}

function expectLcError(fn: () => unknown, reason: LightClientErrorReason, message: RegExp): void {
  let caught: unknown;
  try {
    fn();
  } catch (e) {
    caught = e;
  }
  expect(caught).toBeInstanceOf(LightClientError);
  expect((caught as LightClientError).reason).toBe(reason);
  expect((caught as LightClientError).message).toMatch(message);
}

function tamperSignatures(h: TmHeaderProto, indices: number[]): void {
  for (const i of indices) h.signedHeader!.commit!.signatures[i]!.signature[0]! ^= 0x01;
}

function otherValidators(n: number): { set: ValidatorSet; signers: LocalValidator[] } {
  const keys = Array.from({ length: n }, () => ed25519Generate());
  const set = ValidatorSet.fromUpdates(keys.map((k) => ({ pubKey: k.publicKey, power: 10 })));
  const signers = set.validators.map(
    (v) =>
      new LocalValidator(
        keys.find((k) => Buffer.compare(k.address, v.address) === 0)!,
        CHAIN_ID,
      ),
  );
  return { set, signers };
}

describe('07-tendermint header conversion', () => {
  it('the chain is what the tests assume: 4 validators, commits fully signed', () => {
    expect(valSet.size()).toBe(4);
    expect(valSet.hash()).toEqual(header.validatorsHash);
    expect(commit.signatures.filter((s) => s.blockIdFlag === BlockIDFlag.Commit)).toHaveLength(4);
    expect(headerHash(header)).toEqual(commit.blockId.hash);
  });

  it('signed header and commit encode byte-for-byte as the repo’s CometBFT encoders do', () => {
    const h = tmHeaderOf({ header, commit, validators: valSet, trustedHeight: { revisionNumber: 1n, revisionHeight: 2n }, trustedValidators: valSet });
    expect(HeaderProto.encode(h.signedHeader!.header!).finish()).toEqual(encodeHeader(header));
    expect(CommitProto.encode(h.signedHeader!.commit!).finish()).toEqual(encodeCommit(commit));
    expect(h.validatorSet!.validators[0]!.pubKey.ed25519).toEqual(valSet.validators[0]!.pubKey);
    expect(h.validatorSet!.totalVotingPower).toBe(BigInt(valSet.totalVotingPower()));
    expect(h.validatorSet!.proposer!.address).toEqual(valSet.proposer.address);
    expect(validatorSetHash(validatorSetProto(valSet))).toEqual(valSet.hash());
  });

  it('round-trips through bytes and back to our types', () => {
    const h = signedHeaderProto();
    const parts = fromTmHeaderProto(h);
    expect(parts.header).toEqual(header);
    expect(parts.commit).toEqual(commit);
    expect(parts.validators.hash()).toEqual(valSet.hash());
    expect(parts.trustedHeight).toEqual({ revisionNumber: 1n, revisionHeight: 2n });
    expect(decodeTmHeader(tmHeaderAny(h))).toEqual(h);
  });

  it('refuses a validator set out of canonical order', () => {
    const h = signedHeaderProto();
    h.validatorSet!.validators.reverse();
    expectLcError(() => fromTmHeaderProto(h), 'invalid-header', /^invalid header: validator set: validators must be unique and sorted/);
  });

  it('refuses an Any of another type and undecodable bytes', () => {
    expectLcError(
      () => decodeTmHeader({ typeUrl: '/ibc.lightclients.tendermint.v1.ClientState', value: new Uint8Array() }),
      'invalid-header',
      /expected client message/,
    );
    expectLcError(() => decodeTmHeader(new Uint8Array([0x0a, 0x05, 0x01])), 'invalid-header', /cannot decode/);
  });
});

describe('verifyTmHeader', () => {
  it('accepts a real signed header and returns its consensus state', () => {
    const v = verifyTmHeader(client, signedHeaderProto());
    expect(v.height).toBe(BigInt(H));
    expect(v.consensusState.root).toEqual(header.appHash);
    expect(v.consensusState.nextValidatorsHash).toEqual(header.nextValidatorsHash);
    expect(v.consensusState.timestamp).toEqual(header.time);
  });

  it('accepts the seen commit of the latest block too', async () => {
    const top = chain.parts.blockStore.height();
    const meta = (await chain.parts.blockStore.loadBlockMeta(top))!;
    const seen = (await chain.parts.blockStore.loadSeenCommit(top))!;
    const h = tmHeaderOf({
      header: meta.header,
      commit: seen,
      validators: valSet,
      trustedHeight: { revisionNumber: 1n, revisionHeight: BigInt(TRUSTED) },
      trustedValidators: valSet,
    });
    expect(verifyTmHeader(client, decodeTmHeader(encodeTmHeader(h))).height).toBe(BigInt(top));
  });

  it('one tampered signature of four still leaves 3/4 > 2/3: accepted, wherever it sits', () => {
    for (const i of [0, 3]) {
      const h = signedHeaderProto();
      tamperSignatures(h, [i]);
      expect(verifyTmHeader(client, h).height).toBe(BigInt(H));
    }
  });

  it('two tampered signatures leave 1/2: insufficient voting power', () => {
    const h = signedHeaderProto();
    tamperSignatures(h, [0, 2]);
    expectLcError(
      () => verifyTmHeader(client, h),
      'insufficient-voting-power',
      /^invalid header: commit signatures have insufficient voting power: got 20, need more than 26; wrong signature \(#0\).*wrong signature \(#2\)/,
    );
  });

  it('absent signatures are skipped (power counts against the header)', () => {
    const absent = { blockIdFlag: BlockIDFlag.Absent, validatorAddress: new Uint8Array(0), timestamp: commit.signatures[0]!.timestamp, signature: null };
    const oneAbsent = signedHeaderProto({ commit: { ...commit, signatures: [absent, ...commit.signatures.slice(1)] } });
    expect(verifyTmHeader(client, oneAbsent).height).toBe(BigInt(H));
    const twoAbsent = signedHeaderProto({ commit: { ...commit, signatures: [absent, absent, ...commit.signatures.slice(2)] } });
    expectLcError(() => verifyTmHeader(client, twoAbsent), 'insufficient-voting-power', /got 20, need more than 26$/);
  });

  it('a changed app hash no longer matches the signed block hash', () => {
    const h = signedHeaderProto();
    h.signedHeader!.header!.appHash = new Uint8Array(32).fill(0xab);
    expectLcError(() => verifyTmHeader(client, h), 'header-hash-mismatch', /^invalid header: commit signs block [0-9A-F]{64}, header is block [0-9A-F]{64}$/);
  });

  it('a header of another chain is refused', () => {
    expectLcError(
      () => verifyTmHeader({ ...client, chainId: 'other-1' }, signedHeaderProto()),
      'chain-id-mismatch',
      /header chain id mismatch: header belongs to another chain "lc-test-1", not "other-1"/,
    );
  });

  it('trusted validators that do not hash to the client’s next validators hash are refused', () => {
    const { set } = otherValidators(4);
    expectLcError(
      () => verifyTmHeader(client, signedHeaderProto({ trustedValidators: set })),
      'trusted-validators-hash-mismatch',
      /trusted validators hash mismatch/,
    );
    expectLcError(
      () => verifyTmHeader({ ...client, trustedNextValidatorsHash: set.hash() }, signedHeaderProto()),
      'trusted-validators-hash-mismatch',
      /trusted validators hash mismatch/,
    );
  });

  it('a validator set that does not hash to the header’s validators hash is refused', () => {
    const { set } = otherValidators(4);
    expectLcError(
      () => verifyTmHeader(client, signedHeaderProto({ validators: set })),
      'validators-hash-mismatch',
      /^invalid header: validator set does not match hash/,
    );
  });

  it('a header not above the trusted height is refused', () => {
    expectLcError(
      () => verifyTmHeader({ ...client, latestHeight: BigInt(H) }, signedHeaderProto({ trustedHeight: BigInt(TRUSTED) })),
      'invalid-height',
      /header height 1-4 must be greater than the client's trusted height 1-4/,
    );
    expectLcError(
      () => verifyTmHeader({ ...client, latestHeight: BigInt(H) }, signedHeaderProto({ trustedHeight: BigInt(H) })),
      'invalid-height',
      /TrustedHeight 1-4 must be less than header height 1-4/,
    );
  });

  it('a set the client does not trust, even fully signing its own header, is refused', () => {
    // A forged header naming another validator set, signed by that whole set: +2/3 of its own
    // power, but none of the trusted validators vouch for it.
    const { set, signers } = otherValidators(4);
    const forged: Header = { ...header, validatorsHash: set.hash(), nextValidatorsHash: set.hash() };
    const blockId = { hash: headerHash(forged), partSetHeader: commit.blockId.partSetHeader };
    const forgedCommit: Commit = {
      height: H,
      round: 0,
      blockId,
      signatures: signers.map((s, i) => {
        const vote = s.signVote(SignedMsgType.Precommit, H, 0, blockId, i, header.time);
        return { blockIdFlag: BlockIDFlag.Commit, validatorAddress: s.address, timestamp: vote.timestamp, signature: vote.signature };
      }),
    };
    const h = tmHeaderOf({
      header: forged,
      commit: forgedCommit,
      validators: set,
      trustedHeight: { revisionNumber: 1n, revisionHeight: BigInt(TRUSTED) },
      trustedValidators: valSet,
    });
    expectLcError(
      () => verifyTmHeader(client, decodeTmHeader(encodeTmHeader(h))),
      'untrusted-validator-set',
      /can't trust new validator set: trusted validators signed insufficient voting power: got 0, need more than 13/,
    );
  });
});

describe('client and consensus states', () => {
  it('ClientState has the ibc-go defaults and the chain id revision', () => {
    const any = clientStateOf(CHAIN_ID, 7n);
    expect(any.typeUrl).toBe('/ibc.lightclients.tendermint.v1.ClientState');
    const cs = ClientState.decode(any.value);
    expect(cs.chainId).toBe(CHAIN_ID);
    expect(cs.trustLevel).toEqual({ numerator: 1n, denominator: 3n });
    expect(cs.trustingPeriod.seconds).toBe(14n * 86400n);
    expect(cs.unbondingPeriod.seconds).toBe(21n * 86400n);
    expect(cs.maxClockDrift.seconds).toBe(10n);
    expect(cs.latestHeight).toEqual({ revisionNumber: 1n, revisionHeight: 7n });
  });

  it('ConsensusState of a header and of a verified header agree', () => {
    const a = consensusStateOf(header);
    expect(a.typeUrl).toBe('/ibc.lightclients.tendermint.v1.ConsensusState');
    expect(consensusStateOf(verifyTmHeader(client, signedHeaderProto()).consensusState)).toEqual(a);
    const cs = ConsensusState.decode(a.value);
    expect(cs.root.hash).toEqual(header.appHash);
    expect(cs.nextValidatorsHash).toEqual(header.nextValidatorsHash);
    expect(cs.timestamp).toEqual({ seconds: BigInt(header.time.seconds), nanos: header.time.nanos });
  });

  it('revision numbers parse as ibc-go ParseChainID', () => {
    expect(parseChainIdRevision('cosmoshub-4')).toBe(4n);
    expect(parseChainIdRevision('evmos_9001-2')).toBe(2n);
    expect(parseChainIdRevision('kvstore-12')).toBe(12n);
    expect(parseChainIdRevision('chain')).toBe(0n);
    expect(parseChainIdRevision('chain-0')).toBe(0n);
    expect(parseChainIdRevision('chain-01')).toBe(0n);
    expect(parseChainIdRevision('chain--1')).toBe(0n);
    expect(parseChainIdRevision('-1')).toBe(0n);
  });
});

describe("07-tendermint's time checks (with `time`)", () => {
  const SEC = 1_000_000_000n;
  const headerNs = () => BigInt(header.time.seconds) * SEC + BigInt(header.time.nanos);
  const timed = (over: Partial<NonNullable<TmClientTrust['time']>>): TmClientTrust => ({
    ...client,
    time: { trustedNs: headerNs() - SEC, trustingPeriodNs: 14n * 86_400n * SEC, maxClockDriftNs: 10n * SEC, nowNs: headerNs() + SEC, ...over },
  });

  it('accept a header after the trusted state, within the drift and the trusting period', () => {
    expect(verifyTmHeader(timed({}), signedHeaderProto()).height).toBe(BigInt(H));
  });

  it('refuse a trusted state older than the trusting period', () => {
    expectLcError(
      () => verifyTmHeader(timed({ trustingPeriodNs: 2n * SEC }), signedHeaderProto()),
      'expired',
      /^failed to verify header: old header has expired at .* \(now: .*\)$/,
    );
  });

  it('refuse a header not after the trusted state, or beyond the host time plus the drift', () => {
    expectLcError(
      () => verifyTmHeader(timed({ trustedNs: headerNs() }), signedHeaderProto()),
      'header-time',
      /expected new header time .* to be after old header time/,
    );
    expectLcError(
      () => verifyTmHeader(timed({ nowNs: headerNs() - 10n * SEC }), signedHeaderProto()),
      'header-time',
      /new header has a time from the future .* max clock drift: 10000ms/,
    );
  });
});
