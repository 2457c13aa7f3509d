/**
 * Rebuilds, from an EmptySegment, exactly what the stores would hold had its blocks been
 * committed one by one: the block (header, empty data, LastCommit), its meta, the canonical and
 * seen commits and the validator set of a height. Each read is O(1): nothing here walks the segment.
 */
import { BlockIDFlag } from '../../abci/types.js';
import { commitHash } from '../../types/commit.js';
import { evidenceHash } from '../../types/evidence.js';
import { consensusParamsHash } from '../../types/params-hash.js';
import type { Block, BlockMeta, Commit, Header } from '../../types/block.js';
import { lastResultsHash } from '../../types/results.js';
import { txsHash } from '../../types/txs.js';
import { BLOCK_PROTOCOL } from '../../version.js';
import { segmentBlockId, segmentTime, segmentVoteTime, validatorSetAt, type EmptySegment } from './empty-segment.js';

const EMPTY_RESULTS_HASH = lastResultsHash([]);
const DATA_HASH = txsHash([]);
const EVIDENCE_HASH = evidenceHash([]);

/** The commit for block `height` (the LastCommit of height + 1); the block before the segment too. */
export function segmentCommit(s: EmptySegment, height: number): Commit {
  if (height === s.from - 1) return s.prevCommit;
  const i = height - s.from;
  const n = s.validators.length;
  const blockId = segmentBlockId(s, height);
  const timestamp = segmentVoteTime(s, height);
  // Signatures are in the validator-set order of that height (unchanged inside a segment).
  const order = validatorSetAt(s, height).validators;
  return {
    height,
    round: 0,
    blockId,
    signatures: order.map((v, k) => ({
      blockIdFlag: BlockIDFlag.Commit,
      validatorAddress: v.address,
      timestamp,
      signature: s.signatures.slice((i * n + k) * 64, (i * n + k + 1) * 64),
    })),
  };
}

export function segmentHeader(s: EmptySegment, height: number): Header {
  const set = validatorSetAt(s, height);
  return {
    version: { block: BLOCK_PROTOCOL, app: s.appVersion },
    chainId: s.chainId,
    height,
    time: segmentTime(s, height),
    lastBlockId: segmentBlockId(s, height - 1),
    lastCommitHash: commitHash(segmentCommit(s, height - 1)),
    dataHash: DATA_HASH,
    validatorsHash: s.validatorsHash,
    nextValidatorsHash: s.validatorsHash,
    consensusHash: consensusParamsHash(s.consensusParams),
    appHash: s.appHash,
    lastResultsHash: height === s.from ? s.firstLastResultsHash : EMPTY_RESULTS_HASH,
    evidenceHash: EVIDENCE_HASH,
    proposerAddress: set.proposer.address,
  };
}

export function segmentBlock(s: EmptySegment, height: number): Block {
  return { header: segmentHeader(s, height), data: { txs: [] }, evidence: { evidence: [] }, lastCommit: segmentCommit(s, height - 1) };
}

export function segmentMeta(s: EmptySegment, height: number): BlockMeta {
  return { blockId: segmentBlockId(s, height), blockSize: s.sizes[height - s.from]!, header: segmentHeader(s, height), numTxs: 0 };
}
