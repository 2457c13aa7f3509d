/**
 * The ABCI socket protocol's messages (`tendermint.abci.Request` / `Response` of CometBFT v0.38,
 * encoded by cosmjs-types, which is generated from CometBFT's .proto files) ↔ the project's own ABCI
 * types (src/abci/types.ts). One module knows both shapes; the server and the conformance client
 * only move bytes.
 */
import { exactSizeBuffers } from '../codec/cosmjs-types.js';
import { Request as WireRequest, Response as WireResponse } from 'cosmjs-types/tendermint/abci/types';
import type * as W from 'cosmjs-types/tendermint/abci/types';
import type { ConsensusParams as WireParams } from 'cosmjs-types/tendermint/types/params';
import type { Timestamp as WireTimestamp } from 'cosmjs-types/google/protobuf/timestamp';
import * as A from '../abci/types.js';
import { defaultConsensusParams, type ConsensusParams } from '../types/params.js';
import type { Timestamp } from '../types/time.js';

exactSizeBuffers();

export { WireRequest, WireResponse };
export type { W };

// ── scalars ──

const num = (v: bigint | number | undefined): number => Number(v ?? 0);
export const timeFromWire = (t: WireTimestamp | undefined): Timestamp => ({ seconds: Number(t?.seconds ?? 0n), nanos: t?.nanos ?? 0 });
export const timeToWire = (t: Timestamp): WireTimestamp => ({ seconds: BigInt(t.seconds), nanos: t.nanos });

// ── consensus params ──

export function paramsFromWire(p: WireParams | undefined): ConsensusParams | undefined {
  if (!p) return undefined;
  const d = defaultConsensusParams();
  return {
    block: p.block ? { maxBytes: num(p.block.maxBytes), maxGas: num(p.block.maxGas) } : d.block,
    evidence: p.evidence
      ? {
          maxAgeNumBlocks: num(p.evidence.maxAgeNumBlocks),
          maxAgeDurationNs: (p.evidence.maxAgeDuration?.seconds ?? 0n) * 1_000_000_000n + BigInt(p.evidence.maxAgeDuration?.nanos ?? 0),
          maxBytes: num(p.evidence.maxBytes),
        }
      : d.evidence,
    validator: p.validator ? { pubKeyTypes: [...p.validator.pubKeyTypes] } : d.validator,
    version: p.version ? { app: num(p.version.app) } : d.version,
    abci: p.abci ? { voteExtensionsEnableHeight: num(p.abci.voteExtensionsEnableHeight) } : d.abci,
  };
}

export function paramsToWire(p: ConsensusParams): WireParams {
  return {
    block: { maxBytes: BigInt(p.block.maxBytes), maxGas: BigInt(p.block.maxGas) },
    evidence: {
      maxAgeNumBlocks: BigInt(p.evidence.maxAgeNumBlocks),
      maxAgeDuration: { seconds: p.evidence.maxAgeDurationNs / 1_000_000_000n, nanos: Number(p.evidence.maxAgeDurationNs % 1_000_000_000n) },
      maxBytes: BigInt(p.evidence.maxBytes),
    },
    validator: { pubKeyTypes: p.validator.pubKeyTypes },
    version: { app: BigInt(p.version.app) },
    abci: { voteExtensionsEnableHeight: BigInt(p.abci.voteExtensionsEnableHeight) },
  };
}

// ── shared pieces ──

const eventsToWire = (events: A.AbciEvent[]): W.Event[] => events.map((e) => ({ type: e.type, attributes: e.attributes.map((a) => ({ ...a })) }));
export const eventsFromWire = (events: W.Event[]): A.AbciEvent[] =>
  events.map((e) => ({ type: e.type, attributes: e.attributes.map((a) => ({ key: a.key, value: a.value, index: a.index })) }));

function validatorUpdateFromWire(v: W.ValidatorUpdate): A.ValidatorUpdate {
  return { pubKey: v.pubKey.ed25519 ?? new Uint8Array(0), power: num(v.power) };
}
function validatorUpdateToWire(v: A.ValidatorUpdate): W.ValidatorUpdate {
  return { pubKey: { ed25519: v.pubKey }, power: BigInt(v.power) };
}

function commitInfoFromWire(c: { round: number; votes: { validator: W.Validator; blockIdFlag: number }[] } | undefined): A.CommitInfo {
  return {
    round: c?.round ?? 0,
    votes: (c?.votes ?? []).map((v) => ({ validatorAddress: v.validator.address, power: num(v.validator.power), blockIdFlag: v.blockIdFlag as A.BlockIDFlag })),
  };
}
export function commitInfoToWire(c: A.CommitInfo): W.CommitInfo {
  return {
    round: c.round,
    votes: c.votes.map((v) => ({
      validator: { address: v.validatorAddress, power: BigInt(v.power) },
      blockIdFlag: v.blockIdFlag as number as W.VoteInfo['blockIdFlag'],
    })),
  };
}

function misbehaviorFromWire(m: W.Misbehavior[]): A.Misbehavior[] {
  return m.map((x) => ({
    type: x.type === 1 ? 'duplicate_vote' : 'light_client_attack',
    validatorAddress: x.validator.address,
    height: num(x.height),
    time: timeFromWire(x.time),
    totalVotingPower: num(x.totalVotingPower),
  }));
}

export const execTxResultToWire = (r: A.ExecTxResult): W.ExecTxResult => ({
  code: r.code,
  data: r.data,
  log: r.log,
  info: r.info,
  gasWanted: BigInt(r.gasWanted),
  gasUsed: BigInt(r.gasUsed),
  events: eventsToWire(r.events),
  codespace: r.codespace,
});

// ── requests: wire → ours ──

export const fromWire = {
  info: (r: W.RequestInfo): A.RequestInfo => ({
    version: r.version,
    blockVersion: num(r.blockVersion),
    p2pVersion: num(r.p2pVersion),
    abciVersion: r.abciVersion,
  }),
  initChain: (r: W.RequestInitChain): A.RequestInitChain => ({
    time: timeFromWire(r.time),
    chainId: r.chainId,
    consensusParams: paramsFromWire(r.consensusParams) ?? defaultConsensusParams(),
    validators: r.validators.map(validatorUpdateFromWire),
    appStateBytes: r.appStateBytes,
    initialHeight: num(r.initialHeight) || 1,
  }),
  query: (r: W.RequestQuery): A.RequestQuery => ({ data: r.data, path: r.path, height: num(r.height), prove: r.prove }),
  checkTx: (r: W.RequestCheckTx): A.RequestCheckTx => ({ tx: r.tx, type: r.type === 1 ? A.CheckTxType.Recheck : A.CheckTxType.New }),
  prepareProposal: (r: W.RequestPrepareProposal): A.RequestPrepareProposal => ({
    maxTxBytes: num(r.maxTxBytes),
    txs: r.txs,
    localLastCommit: commitInfoFromWire(r.localLastCommit),
    misbehavior: misbehaviorFromWire(r.misbehavior),
    height: num(r.height),
    time: timeFromWire(r.time),
    nextValidatorsHash: r.nextValidatorsHash,
    proposerAddress: r.proposerAddress,
  }),
  processProposal: (r: W.RequestProcessProposal): A.RequestProcessProposal => ({
    txs: r.txs,
    proposedLastCommit: commitInfoFromWire(r.proposedLastCommit),
    misbehavior: misbehaviorFromWire(r.misbehavior),
    hash: r.hash,
    height: num(r.height),
    time: timeFromWire(r.time),
    nextValidatorsHash: r.nextValidatorsHash,
    proposerAddress: r.proposerAddress,
  }),
  finalizeBlock: (r: W.RequestFinalizeBlock): A.RequestFinalizeBlock => ({
    txs: r.txs,
    decidedLastCommit: commitInfoFromWire(r.decidedLastCommit),
    misbehavior: misbehaviorFromWire(r.misbehavior),
    hash: r.hash,
    height: num(r.height),
    time: timeFromWire(r.time),
    nextValidatorsHash: r.nextValidatorsHash,
    proposerAddress: r.proposerAddress,
  }),
};

// ── responses: ours → wire ──

export const toWire = {
  info: (r: A.ResponseInfo): W.ResponseInfo => ({
    data: r.data,
    version: r.version,
    appVersion: BigInt(r.appVersion),
    lastBlockHeight: BigInt(r.lastBlockHeight),
    lastBlockAppHash: r.lastBlockAppHash,
  }),
  initChain: (r: A.ResponseInitChain): W.ResponseInitChain => ({
    ...(r.consensusParams ? { consensusParams: paramsToWire(r.consensusParams) } : {}),
    validators: r.validators.map(validatorUpdateToWire),
    appHash: r.appHash,
  }),
  query: (r: A.ResponseQuery): W.ResponseQuery => ({
    code: r.code,
    log: r.log,
    info: r.info,
    index: BigInt(r.index),
    key: r.key ?? new Uint8Array(0),
    value: r.value ?? new Uint8Array(0),
    ...(r.proofOps ? { proofOps: { ops: r.proofOps.map((o) => ({ type: o.type, key: o.key, data: o.data })) } } : {}),
    height: BigInt(r.height),
    codespace: r.codespace,
  }),
  // v0.38's ResponseCheckTx carries the same fields as ExecTxResult; the app's mempool* extras stay home.
  checkTx: (r: A.ResponseCheckTx): W.ResponseCheckTx => execTxResultToWire(r),
  commit: (r: A.ResponseCommit): W.ResponseCommit => ({ retainHeight: BigInt(r.retainHeight) }),
  prepareProposal: (r: A.ResponsePrepareProposal): W.ResponsePrepareProposal => ({ txs: r.txs }),
  processProposal: (r: A.ResponseProcessProposal): W.ResponseProcessProposal => ({ status: r.status as number as W.ResponseProcessProposal['status'] }),
  finalizeBlock: (r: A.ResponseFinalizeBlock): W.ResponseFinalizeBlock => ({
    events: eventsToWire(r.events),
    txResults: r.txResults.map(execTxResultToWire),
    validatorUpdates: r.validatorUpdates.map(validatorUpdateToWire),
    ...(r.consensusParamUpdates ? { consensusParamUpdates: paramsToWire(r.consensusParamUpdates) } : {}),
    appHash: r.appHash,
  }),
};

// ── the client side (a consensus engine driving a remote app): requests ours → wire, responses wire → ours ──

function misbehaviorToWire(m: A.Misbehavior[]): W.Misbehavior[] {
  return m.map((x) => ({
    type: x.type === 'duplicate_vote' ? 1 : 2,
    validator: { address: x.validatorAddress, power: 0n },
    height: BigInt(x.height),
    time: timeToWire(x.time),
    totalVotingPower: BigInt(x.totalVotingPower),
  }));
}

export const requestToWire = {
  info: (r: A.RequestInfo): W.RequestInfo => ({
    version: r.version,
    blockVersion: BigInt(r.blockVersion),
    p2pVersion: BigInt(r.p2pVersion),
    abciVersion: r.abciVersion,
  }),
  initChain: (r: A.RequestInitChain): W.RequestInitChain => ({
    time: timeToWire(r.time),
    chainId: r.chainId,
    consensusParams: paramsToWire(r.consensusParams),
    validators: r.validators.map(validatorUpdateToWire),
    appStateBytes: r.appStateBytes,
    initialHeight: BigInt(r.initialHeight),
  }),
  query: (r: A.RequestQuery): W.RequestQuery => ({ data: r.data, path: r.path, height: BigInt(r.height), prove: r.prove }),
  checkTx: (r: A.RequestCheckTx): W.RequestCheckTx => ({ tx: r.tx, type: r.type === A.CheckTxType.Recheck ? 1 : 0 }),
  prepareProposal: (r: A.RequestPrepareProposal): W.RequestPrepareProposal => ({
    maxTxBytes: BigInt(r.maxTxBytes),
    txs: r.txs,
    localLastCommit: {
      round: r.localLastCommit.round,
      votes: r.localLastCommit.votes.map((v) => ({
        validator: { address: v.validatorAddress, power: BigInt(v.power) },
        voteExtension: new Uint8Array(0),
        extensionSignature: new Uint8Array(0),
        blockIdFlag: v.blockIdFlag as number as W.VoteInfo['blockIdFlag'],
      })),
    },
    misbehavior: misbehaviorToWire(r.misbehavior),
    height: BigInt(r.height),
    time: timeToWire(r.time),
    nextValidatorsHash: r.nextValidatorsHash,
    proposerAddress: r.proposerAddress,
  }),
  processProposal: (r: A.RequestProcessProposal): W.RequestProcessProposal => ({
    txs: r.txs,
    proposedLastCommit: commitInfoToWire(r.proposedLastCommit),
    misbehavior: misbehaviorToWire(r.misbehavior),
    hash: r.hash,
    height: BigInt(r.height),
    time: timeToWire(r.time),
    nextValidatorsHash: r.nextValidatorsHash,
    proposerAddress: r.proposerAddress,
  }),
  finalizeBlock: (r: A.RequestFinalizeBlock): W.RequestFinalizeBlock => ({
    txs: r.txs,
    decidedLastCommit: commitInfoToWire(r.decidedLastCommit),
    misbehavior: misbehaviorToWire(r.misbehavior),
    hash: r.hash,
    height: BigInt(r.height),
    time: timeToWire(r.time),
    nextValidatorsHash: r.nextValidatorsHash,
    proposerAddress: r.proposerAddress,
  }),
};

const execTxResultFromWire = (r: W.ExecTxResult): A.ExecTxResult => ({
  code: r.code,
  data: r.data,
  log: r.log,
  info: r.info,
  gasWanted: num(r.gasWanted),
  gasUsed: num(r.gasUsed),
  events: eventsFromWire(r.events),
  codespace: r.codespace,
});

export const responseFromWire = {
  info: (r: W.ResponseInfo): A.ResponseInfo => ({
    data: r.data,
    version: r.version,
    appVersion: num(r.appVersion),
    lastBlockHeight: num(r.lastBlockHeight),
    lastBlockAppHash: r.lastBlockAppHash,
  }),
  initChain: (r: W.ResponseInitChain): A.ResponseInitChain => ({
    ...(r.consensusParams ? { consensusParams: paramsFromWire(r.consensusParams) } : {}),
    validators: r.validators.map(validatorUpdateFromWire),
    appHash: r.appHash,
  }),
  query: (r: W.ResponseQuery): A.ResponseQuery => ({
    code: r.code,
    log: r.log,
    info: r.info,
    index: num(r.index),
    key: r.key,
    value: r.value,
    proofOps: r.proofOps ? r.proofOps.ops.map((o) => ({ type: o.type, key: o.key, data: o.data })) : null,
    height: num(r.height),
    codespace: r.codespace,
  }),
  checkTx: (r: W.ResponseCheckTx): A.ResponseCheckTx => execTxResultFromWire(r),
  commit: (r: W.ResponseCommit): A.ResponseCommit => ({ retainHeight: num(r.retainHeight) }),
  prepareProposal: (r: W.ResponsePrepareProposal): A.ResponsePrepareProposal => ({ txs: r.txs }),
  processProposal: (r: W.ResponseProcessProposal): A.ResponseProcessProposal => ({ status: r.status as number as A.ProposalStatus }),
  finalizeBlock: (r: W.ResponseFinalizeBlock): A.ResponseFinalizeBlock => ({
    events: eventsFromWire(r.events),
    txResults: r.txResults.map(execTxResultFromWire),
    validatorUpdates: r.validatorUpdates.map(validatorUpdateFromWire),
    ...(r.consensusParamUpdates ? { consensusParamUpdates: paramsFromWire(r.consensusParamUpdates) } : {}),
    appHash: r.appHash,
  }),
};
