/**
 * The EVM app's side of empty segments (store/segments/empty-segment.ts: many empty blocks
 * committed at once by the block executor). The app keeps its part inside the segment record (the
 * `app` field: base fees, gas limit, coinbase, state root, parent hash) and answers for the
 * segment's heights from it: EVM block records, roots and hashes (`segmentBlockSource`, read by
 * the app store after its own entries).
 */
import { Address } from '@ethereumjs/util';
import type { ResponseFinalizeBlock } from '../../abci/types.js';
import { segmentBlockId, segmentTime, validatorSetAt, type EmptySegment, type SegmentReader } from '../../store/segments/empty-segment.js';
import type { VirtualBlockSource } from './app-store.js';
import type { BlockRecord } from './block-record.js';
import { blockEvents } from '../execution/tx-events.js';

const ZERO_BLOOM = new Uint8Array(256);

/** The app's record of a segment's blocks (persisted in the segment, so plain data). */
export interface EvmSegmentData {
  /** Base fee of the first blocks, until the fee market's fixed point; later blocks have the last. */
  baseFees: bigint[];
  gasLimit: bigint;
  /** Coinbase override; undefined = each block's proposer address. */
  coinbase: Uint8Array | undefined;
  /** The EVM state root (empty blocks change no state). */
  stateRoot: Uint8Array;
  /** CometBFT hash of the block before the segment (zero hash before height 1). */
  parentHash: Uint8Array;
}

export interface EmptyBlocksInput {
  count: number;
  firstBaseFee: bigint;
  /** The base fee after an empty block with this one. */
  nextBaseFee(parent: bigint): bigint;
  gasLimit: bigint;
  coinbase: Uint8Array | undefined;
  stateRoot: Uint8Array;
  parentHash: Uint8Array;
  /** The consensus app hash every block of the segment keeps. */
  appHash: Uint8Array;
}

/** The FinalizeBlock responses (one per base fee, until its fixed point) and the app's record of `count` empty blocks. */
export function prepareEmptyBlocks(input: EmptyBlocksInput): { results: ResponseFinalizeBlock[]; app: EvmSegmentData } {
  const baseFees = [input.firstBaseFee];
  for (let i = 1; i < input.count; i++) {
    const next = input.nextBaseFee(baseFees[i - 1]!);
    if (next === baseFees[i - 1]) break; // fixed point: the rest are equal
    baseFees.push(next);
  }
  const results = baseFees.map((fee) => ({ events: blockEvents(ZERO_BLOOM, fee), txResults: [], validatorUpdates: [], appHash: input.appHash }));
  return {
    results,
    app: { baseFees, gasLimit: input.gasLimit, coinbase: input.coinbase, stateRoot: input.stateRoot, parentHash: input.parentHash },
  };
}

function dataOf(s: EmptySegment): EvmSegmentData {
  return s.app as EvmSegmentData;
}

export function segmentBaseFee(s: EmptySegment, height: number): bigint {
  const fees = dataOf(s).baseFees;
  return fees[Math.min(height - s.from, fees.length - 1)]!;
}

/** The base fee of the segment's last block. */
export function lastBaseFee(s: EmptySegment): bigint {
  return segmentBaseFee(s, s.to);
}

export function segmentBlockRecord(s: EmptySegment, height: number): BlockRecord {
  const evm = dataOf(s);
  const hash = segmentBlockId(s, height).hash;
  const parentHash = height === s.from ? evm.parentHash : segmentBlockId(s, height - 1).hash;
  const coinbase = evm.coinbase ?? validatorSetAt(s, height).proposer.address;
  return {
    number: height,
    hash,
    parentHash,
    timestamp: BigInt(segmentTime(s, height).seconds),
    coinbase: new Address(Uint8Array.from(coinbase.length === 20 ? coinbase : new Uint8Array(20))),
    gasLimit: evm.gasLimit,
    gasUsed: 0n,
    baseFee: segmentBaseFee(s, height),
    stateRoot: evm.stateRoot,
    bloom: ZERO_BLOOM,
    txs: [],
  };
}

/** The app store's view of segment heights. */
export function segmentBlockSource(segments: SegmentReader): VirtualBlockSource {
  return {
    record: (height) => {
      const s = segments.find(height);
      return s === undefined ? undefined : segmentBlockRecord(s, height);
    },
    heightOfHash: (hash) => segments.heightOfHash(hash),
    rootAt: (height) => {
      const s = segments.find(height);
      return s === undefined ? undefined : dataOf(s).stateRoot;
    },
    hashAt: (height) => {
      const s = segments.find(height);
      return s === undefined ? undefined : segmentBlockId(s, height).hash;
    },
  };
}
