/**
 * The consensus engine as devnet control sees it (`ConsensusEngine.admin`, admin.ts), and the
 * commit of an empty segment, built over the few engine internals they need (EngineCore).
 *
 *   mineEmptySegment: compute the segment (empty-segment.ts) ─> BlockExecutor.commitEmptySegment
 *                     ─> move the head and the clock past it
 *                     a failure after the block store took it (SegmentCommitError) halts the engine
 */
import type { Logger } from 'pino';
import type { StateStore } from '../store/state-store.js';
import type { BlockStore } from '../store/block-store.js';
import type { ChainState } from '../store/chain-state.js';
import type { EmptySegment } from '../store/segments/empty-segment.js';
import { segmentCommit } from '../store/segments/segment-synthesis.js';
import type { Commit } from '../types/block.js';
import { compareTime, timestampFromMs, timestampToMs, type Timestamp } from '../types/time.js';
import type { BlockClock, ConsensusAdmin, EmptySegmentOptions } from './admin.js';
import type { BlockExecutor } from './block-executor.js';
import { buildEmptySegment } from './empty-segment.js';
import { ConsensusError, SegmentCommitError, SegmentNotApplicableError } from './errors.js';
import type { LocalValidator } from './validator.js';

/** The engine's public calls devnet control passes on as they are. */
export type EnginePublic = Pick<
  ConsensusAdmin,
  'height' | 'productionMode' | 'increaseTime' | 'setNextBlockTime' | 'setBlockTimestampInterval' | 'setMode' | 'setValidatorOnline' | 'mine'
>;

/** The engine internals the admin works on (the engine builds it over its private state). */
export interface EngineCore {
  readonly executor: BlockExecutor;
  readonly blockStore: BlockStore;
  readonly stateStore: StateStore;
  readonly validators: LocalValidator[];
  readonly logger: Logger;
  head(): { state: ChainState; lastCommit: Commit };
  /** Replaces the head (wakes the loop, resolves height waiters). */
  moveHead(state: ChainState, lastCommit: Commit | undefined): void;
  clock(): BlockClock;
  setClock(clock: BlockClock): void;
  /** The clock with its offset. */
  now(): Timestamp;
  /** Throws when no block may be made any more (the halt's error, or NodeStoppedError). */
  assertProducing(): void;
  isStopped(): boolean;
  /** Stops block production for good, as a failed block commit does. */
  halt(err: Error, message: string, context: Record<string, unknown>): void;
  exclusive<T>(fn: () => Promise<T>): Promise<T>;
}

export function makeAdmin(engine: EnginePublic, core: EngineCore): ConsensusAdmin {
  return {
    get height() {
      return engine.height;
    },
    get productionMode() {
      return engine.productionMode;
    },
    exclusive: (fn) => core.exclusive(fn),
    head: () => core.head(),
    clock: () => core.clock(),
    setClock: (c) => core.setClock(c),
    increaseTime: (ms) => engine.increaseTime(ms),
    setNextBlockTime: (t) => engine.setNextBlockTime(t),
    setBlockTimestampInterval: (ms) => engine.setBlockTimestampInterval(ms),
    setMode: (mode, intervalMs) => engine.setMode(mode, intervalMs),
    setValidatorOnline: (index, online) => engine.setValidatorOnline(index, online),
    mine: (n, opts) => engine.mine(n, opts),
    mineEmptySegment: (count, opts) => mineEmptySegment(core, count, opts),
    announceEmptySegment: (segment) =>
      core.executor.announceEmptySegment(segment, (err) => core.logger.error({ err }, 'a block listener failed on an empty segment')),
    amendHead: async (fn) => {
      const next = fn(core.head().state);
      await core.executor.saveState(next);
      core.moveHead(next, core.head().lastCommit);
    },
    reloadHead: async () => {
      await core.executor.reloadStores();
      const state = await core.stateStore.loadState();
      if (state === undefined) throw new ConsensusError('the reloaded db holds no chain state');
      const lastCommit = state.lastBlockHeight > 0 ? await core.blockStore.loadSeenCommit(state.lastBlockHeight) : undefined;
      core.moveHead(state, lastCommit);
    },
    flushIndex: () => core.executor.flushIndex(),
  };
}

/** `count` empty blocks as one segment, through the block executor (inside `exclusive`). */
async function mineEmptySegment(core: EngineCore, count: number, opts: EmptySegmentOptions = {}): Promise<EmptySegment> {
  core.assertProducing();
  const { state, lastCommit } = core.head();
  if (state.lastBlockHeight === 0) throw new SegmentNotApplicableError('the chain has no block yet');
  const intervalMs = opts.intervalMs ?? 1000;
  // The first block's time, as produceHeight would pick it.
  const wanted = opts.timestamp ?? core.clock().nextTime ?? core.now();
  const firstTime = compareTime(wanted, state.lastBlockTime) > 0 ? wanted : timestampFromMs(timestampToMs(state.lastBlockTime) + 1);
  const { results, app } = core.executor.prepareEmptyBlocks(count);
  const { segment, after } = await buildEmptySegment({
    state,
    lastCommit,
    signers: core.validators,
    count,
    firstTime,
    intervalMs,
    results,
    app,
    cancelled: () => core.isStopped() || opts.cancelled?.() === true,
  });
  try {
    await core.executor.commitEmptySegment(segment, after);
  } catch (err) {
    // Stored but not committed: the next block would not follow the block store. Halt, and let
    // the handshake finish the segment at the next start.
    if (err instanceof SegmentCommitError)
      core.halt(err, 'consensus failed: the commit of an empty segment failed; block production stopped', { from: err.from, to: err.to });
    throw err;
  }
  // The clock continues after the segment, as Hardhat moves its time offset past reserved blocks.
  const { offsetMs } = core.clock();
  const ahead = timestampToMs(after.lastBlockTime) + intervalMs - (Date.now() + offsetMs);
  core.setClock({ offsetMs: offsetMs + (ahead > 0 && count > 1 ? ahead : 0), nextTime: undefined });
  core.moveHead(after, segmentCommit(segment, segment.to));
  return segment;
}
