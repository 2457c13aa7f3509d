/**
 * What devnet control (src/devnet) may do to the consensus engine, and nothing more: hold an
 * exclusive section (no block is made while it is held), read and set the block clock, mine, commit
 * empty blocks as one segment through the block executor, and move the head after the database
 * was edited or rewritten underneath (a state edit, a revert, a state load). The engine exposes it
 * as `ConsensusEngine.admin`.
 */
import type { ProductionMode } from '../config/types.js';
import type { ChainState } from '../store/chain-state.js';
import type { EmptySegment } from '../store/segments/empty-segment.js';
import type { Commit } from '../types/block.js';
import type { Timestamp } from '../types/time.js';

/** The block clock: the evm_increaseTime offset and the evm_setNextBlockTimestamp time. */
export interface BlockClock {
  offsetMs: number;
  nextTime: Timestamp | undefined;
}

export interface EmptySegmentOptions {
  /** Time of the first block (else the next-block time set, else the clock). */
  timestamp?: Timestamp;
  /** Between consecutive blocks; default 1 s (as hardhat_mine). */
  intervalMs?: number;
  /** True once the node is stopping: the segment stops at its next chunk (NodeStoppedError). */
  cancelled?: () => boolean;
}

export interface ConsensusAdmin {
  readonly height: number;
  readonly productionMode: ProductionMode;
  /** Runs `fn` between heights: no block is made while it runs (so `fn` must not wait for one). */
  exclusive<T>(fn: () => Promise<T>): Promise<T>;
  /** The chain head and the LastCommit for the next block. */
  head(): { state: ChainState; lastCommit: Commit };
  clock(): BlockClock;
  /** Sets the block clock (a snapshot's, on revert); inside `exclusive`. */
  setClock(clock: BlockClock): void;
  /** Moves the block clock forward; returns the total offset in ms. */
  increaseTime(ms: number): number;
  setNextBlockTime(t: Timestamp): void;
  setBlockTimestampInterval(ms: number | undefined): void;
  setMode(mode: ProductionMode, intervalMs?: number): void;
  setValidatorOnline(index: number, online: boolean): void;
  /** Produces `n` blocks through consensus rounds (outside `exclusive`). */
  mine(n: number, opts?: { timestamp?: Timestamp }): Promise<number[]>;
  /**
   * Commits `count` empty blocks after the head as one segment, through the block executor; moves
   * the head and the clock past it. Inside `exclusive`; throws SegmentNotApplicableError when the
   * blocks cannot be one segment (a validator offline, a validator-set change pending, no support).
   */
  mineEmptySegment(count: number, opts?: EmptySegmentOptions): Promise<EmptySegment>;
  /** Publishes a committed segment's blocks to the event bus and the app's listeners (outside `exclusive`). */
  announceEmptySegment(segment: EmptySegment): Promise<void>;
  /** Changes the head's next-block fields (app hash after a state edit, consensus params) and saves it; inside `exclusive`. */
  amendHead(fn: (state: ChainState) => ChainState): Promise<void>;
  /** After the database was rewritten underneath: the stores and the head are read again; inside `exclusive`. */
  reloadHead(): Promise<void>;
  /** Waits until every committed block is indexed (before a snapshot or a dump). */
  flushIndex(): Promise<void>;
}
