/**
 * An empty segment: a run of empty blocks committed at once (devnet mining of many blocks) and
 * kept by the stores as one record. The blocks are real CometBFT blocks (header hashes chained
 * through `last_block_id`, a LastCommit signed by every validator); only what differs per block
 * is kept (hash, part-set hash, size, signatures: ≈ 130 bytes a block), and the block store and
 * the state store rebuild blocks, metas, commits, validator sets and FinalizeBlock responses from
 * it on read (segment-synthesis.ts). The consensus layer computes it (consensus/empty-segment.ts),
 * the block executor commits it.
 */
import type { ResponseFinalizeBlock } from '../../abci/types.js';
import type { BlockID, Commit, Validator } from '../../types/block.js';
import type { ConsensusParams } from '../../types/params.js';
import { PART_SIZE } from '../../types/part-set.js';
import { timestampFromMs, type Timestamp } from '../../types/time.js';
import { ValidatorSet } from '../../types/validator-set.js';

/** One segment; persisted as is, so every field is plain data. */
export interface EmptySegment {
  readonly from: number;
  readonly to: number;
  readonly chainId: string;
  readonly appVersion: number;
  /** Validators of height `from` (set order, with priorities) and their proposer. */
  readonly validators: Validator[];
  /** Per height (N > 1 validators only): proposer index, and N priorities of that height's set. */
  readonly proposers: Uint16Array | undefined;
  readonly priorities: Float64Array | undefined;
  readonly consensusParams: ConsensusParams;
  readonly validatorsHash: Uint8Array;
  readonly appHash: Uint8Array;
  /** `last_results_hash` of block `from` (the results of the block before); later blocks: empty results. */
  readonly firstLastResultsHash: Uint8Array;
  readonly prevBlockId: BlockID;
  /** LastCommit of block `from`. */
  readonly prevCommit: Commit;
  readonly firstTimeMs: number;
  readonly intervalMs: number;
  /** Per block, `count` × 32 bytes. */
  readonly hashes: Uint8Array;
  readonly partHashes: Uint8Array;
  readonly sizes: Uint32Array;
  /** Per block, N × 64 bytes of precommit signatures (validator-set order). */
  readonly signatures: Uint8Array;
  /** The app's FinalizeBlock responses of the first heights; every later height has the last one. */
  readonly results: ResponseFinalizeBlock[];
  /** The app's own record of these blocks (plain data it reads back, e.g. the EVM block fields). */
  readonly app: unknown;
}

/** What a store needs to find segments (the registry, segment-registry.ts). */
export interface SegmentReader {
  /** The segment holding `height`, if any. */
  find(height: number): EmptySegment | undefined;
  heightOfHash(hash: Uint8Array): number | undefined;
  /** The newest segment. */
  last(): EmptySegment | undefined;
}

export function segmentTime(s: Pick<EmptySegment, 'from' | 'firstTimeMs' | 'intervalMs'>, height: number): Timestamp {
  return timestampFromMs(s.firstTimeMs + (height - s.from) * s.intervalMs);
}

/** Vote time of the segment's precommits: 1 ms after the block time (deterministic, never stored). */
export function segmentVoteTime(s: Pick<EmptySegment, 'from' | 'firstTimeMs' | 'intervalMs'>, height: number): Timestamp {
  return timestampFromMs(s.firstTimeMs + (height - s.from) * s.intervalMs + 1);
}

export function segmentBlockId(s: EmptySegment, height: number): BlockID {
  if (height === s.from - 1) return s.prevBlockId;
  const i = height - s.from;
  return {
    hash: s.hashes.slice(i * 32, i * 32 + 32),
    partSetHeader: { total: Math.ceil(s.sizes[i]! / PART_SIZE), hash: s.partHashes.slice(i * 32, i * 32 + 32) },
  };
}

/** The validator set of a height inside the segment (with that height's priorities and proposer). */
export function validatorSetAt(s: EmptySegment, height: number): ValidatorSet {
  const i = height - s.from;
  if (s.proposers === undefined || s.priorities === undefined) return ValidatorSet.fromValidators(s.validators, s.validators[0]!.address);
  const n = s.validators.length;
  const vals = s.validators.map((v, k) => ({ ...v, proposerPriority: s.priorities![i * n + k]! }));
  return ValidatorSet.fromValidators(vals, s.validators[s.proposers[i]!]!.address);
}

/** The FinalizeBlock response of a height of the segment. */
export function segmentResult(s: EmptySegment, height: number): ResponseFinalizeBlock {
  return s.results[Math.min(height - s.from, s.results.length - 1)]!;
}
