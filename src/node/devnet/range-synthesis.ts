/**
 * Rebuilds, from an EmptyRange, exactly what the stores would hold had its blocks been produced
 * one by one: the block (header, empty data, LastCommit), its meta, the canonical and seen
 * commits, the validator set and consensus params of a height, the FinalizeBlock response and
 * the app's EVM block record. Each read is O(1): nothing here walks the range.
 */
import { Address } from '@ethereumjs/util';
import { BlockIDFlag, type ResponseFinalizeBlock } from '../../abci/types.js';
import type { BlockRecord } from '../../app/block-record.js';
import { blockEvents } from '../../app/tx-events.js';
import { BLOCK_PROTOCOL } from '../../consensus/block-executor.js';
import { commitHash } from '../../types/commit.js';
import { evidenceHash } from '../../types/evidence.js';
import { consensusParamsHash } from '../../types/params-hash.js';
import type { Block, BlockMeta, Commit, Header } from '../../types/block.js';
import { lastResultsHash } from '../../types/results.js';
import { txsHash } from '../../types/txs.js';
import type { ValidatorSet } from '../../types/validator-set.js';
import { rangeBlockId, rangeTime, rangeVoteTime, validatorSetAt, type EmptyRange } from './empty-range.js';

const ZERO_BLOOM = new Uint8Array(256);
const EMPTY_RESULTS_HASH = lastResultsHash([]);
const DATA_HASH = txsHash([]);
const EVIDENCE_HASH = evidenceHash([]);

export function inRange(r: EmptyRange, height: number): boolean {
  return height >= r.from && height <= r.to;
}

/** The commit for block `height` (the LastCommit of height + 1); the block before the range too. */
export function rangeCommit(r: EmptyRange, height: number): Commit {
  if (height === r.from - 1) return r.prevCommit;
  const i = height - r.from;
  const n = r.validators.length;
  const blockId = rangeBlockId(r, height);
  const timestamp = rangeVoteTime(r, height);
  // Signatures are in the validator-set order of that height (unchanged inside a range).
  const order = validatorSetAt(r, height).validators;
  return {
    height,
    round: 0,
    blockId,
    signatures: order.map((v, k) => ({
      blockIdFlag: BlockIDFlag.Commit,
      validatorAddress: v.address,
      timestamp,
      signature: r.signatures.slice((i * n + k) * 64, (i * n + k + 1) * 64),
    })),
  };
}

export function rangeHeader(r: EmptyRange, height: number): Header {
  const set = validatorSetAt(r, height);
  return {
    version: { block: BLOCK_PROTOCOL, app: r.appVersion },
    chainId: r.chainId,
    height,
    time: rangeTime(r, height),
    lastBlockId: rangeBlockId(r, height - 1),
    lastCommitHash: commitHash(rangeCommit(r, height - 1)),
    dataHash: DATA_HASH,
    validatorsHash: r.validatorsHash,
    nextValidatorsHash: r.validatorsHash,
    consensusHash: consensusParamsHash(r.consensusParams),
    appHash: r.appHash,
    lastResultsHash: height === r.from ? r.firstLastResultsHash : EMPTY_RESULTS_HASH,
    evidenceHash: EVIDENCE_HASH,
    proposerAddress: set.proposer.address,
  };
}

export function rangeBlock(r: EmptyRange, height: number): Block {
  return { header: rangeHeader(r, height), data: { txs: [] }, evidence: { evidence: [] }, lastCommit: rangeCommit(r, height - 1) };
}

export function rangeMeta(r: EmptyRange, height: number): BlockMeta {
  return { blockId: rangeBlockId(r, height), blockSize: r.sizes[height - r.from]!, header: rangeHeader(r, height), numTxs: 0 };
}

export function rangeValidators(r: EmptyRange, height: number): ValidatorSet {
  return validatorSetAt(r, height);
}

export function rangeBaseFee(r: EmptyRange, height: number): bigint {
  const fees = r.evm.baseFees;
  return fees[Math.min(height - r.from, fees.length - 1)]!;
}

export function rangeFinalizeResponse(r: EmptyRange, height: number): ResponseFinalizeBlock {
  return { events: blockEvents(ZERO_BLOOM, rangeBaseFee(r, height)), txResults: [], validatorUpdates: [], appHash: r.appHash };
}

export function rangeBlockRecord(r: EmptyRange, height: number): BlockRecord {
  const hash = rangeBlockId(r, height).hash;
  const parentHash = height === r.from ? r.evm.parentHash : rangeBlockId(r, height - 1).hash;
  const coinbase = r.evm.coinbase ?? validatorSetAt(r, height).proposer.address;
  return {
    number: height,
    hash,
    parentHash,
    timestamp: BigInt(rangeTime(r, height).seconds),
    coinbase: new Address(Uint8Array.from(coinbase.length === 20 ? coinbase : new Uint8Array(20))),
    gasLimit: r.evm.gasLimit,
    gasUsed: 0n,
    baseFee: rangeBaseFee(r, height),
    stateRoot: r.evm.stateRoot,
    bloom: ZERO_BLOOM,
    txs: [],
  };
}
