/**
 * Mining on demand (evm_mine, anvil_mine / hardhat_mine, miner_*) and the production mode
 * (evm_setAutomine, evm_setIntervalMining, miner_start / miner_stop).
 *
 *   mine(n): blocks with executable mempool txs ── one by one, through consensus rounds
 *            the empty rest                      ── one empty segment when n > 1, committed by the
 *                                                   block executor (ConsensusAdmin.mineEmptySegment)
 *
 * Blocks mined together are `interval` apart (default 1 s, as hardhat_mine); the first one gets
 * the requested timestamp, else the next-block timestamp, else the clock.
 */
import { NodeStoppedError, SegmentNotApplicableError } from '../consensus/errors.js';
import { timestampFromMs, timestampToMs, type Timestamp } from '../types/time.js';
import { DevnetStoppedError, MineLimitError, TimestampTooLowError } from './errors.js';
import type { DevnetParts } from './parts.js';
import { startProgress } from '../util/progress.js';

/** Mining at least this many blocks at once logs its progress (anvil_mine of 100 000 blocks). */
const MINE_PROGRESS_MIN = 1000;

export interface MineOptions {
  /** Unix seconds of the first block. */
  timestamp?: number;
  /** Seconds between the blocks (default 1). */
  interval?: number;
  /** Most blocks one call may mine (`[evm] max-mine-blocks`); more is a MineLimitError. */
  maxBlocks?: number;
  /** True once the node is stopping: a segment being computed stops at its next chunk. */
  cancelled?: () => boolean;
}

/** Mines `count` blocks now; resolves with the first and last new heights (undefined for 0). */
export async function mineBlocks(parts: DevnetParts, count: number, opts: MineOptions = {}): Promise<{ from: number; to: number } | undefined> {
  if (!Number.isSafeInteger(count) || count < 0) throw new RangeError(`block count must be a non-negative integer, got ${count}`);
  if (opts.maxBlocks !== undefined && count > opts.maxBlocks) throw new MineLimitError(count, opts.maxBlocks);
  if (count === 0) return undefined;
  const { consensus, mempool } = parts;
  const intervalMs = Math.round((opts.interval ?? 1) * 1000);
  if (opts.timestamp !== undefined) checkTimestamp(parts, opts.timestamp);
  let next: Timestamp | undefined = opts.timestamp === undefined ? undefined : { seconds: opts.timestamp, nanos: 0 };
  const from = consensus.height + 1;
  let remaining = count;
  const progress = count >= MINE_PROGRESS_MIN ? startProgress(parts.logger, 'mining', count) : undefined;
  const mineOne = async () => {
    await consensus.mine(1, next ? { timestamp: next } : {});
    next = timestampFromMs(timestampToMs(consensus.head().state.lastBlockTime) + intervalMs);
    remaining--;
    progress?.update(count - remaining);
  };
  while (remaining > 0) {
    if (remaining === 1 || mempool.hasPending()) {
      await mineOne();
      continue;
    }
    try {
      const segment = await consensus.exclusive(async () => {
        if (mempool.hasPending()) throw new SegmentNotApplicableError('transactions are pending');
        return consensus.mineEmptySegment(remaining, { timestamp: next, intervalMs, cancelled: opts.cancelled });
      });
      remaining = 0;
      progress?.update(count);
      await consensus.announceEmptySegment(segment);
    } catch (e) {
      if (e instanceof NodeStoppedError) throw new DevnetStoppedError();
      if (!(e instanceof SegmentNotApplicableError)) throw e;
      parts.logger.debug({ reason: e.reason }, 'mining blocks one by one');
      await mineOne();
    }
  }
  progress?.finish();
  return { from, to: from + count - 1 };
}

/** Hardhat refuses a timestamp not after the latest block's. */
export function checkTimestamp(parts: DevnetParts, seconds: number): void {
  const { state } = parts.consensus.head();
  if (state.lastBlockHeight === 0) return;
  const latest = state.lastBlockTime.seconds;
  if (!Number.isSafeInteger(seconds) || seconds <= latest) throw new TimestampTooLowError(seconds, latest);
}

/**
 * The block production mode as devnet users set it: automine and interval mining are two
 * switches (Hardhat); miner_stop pauses whatever they say until miner_start.
 */
export class MiningMode {
  private automine: boolean;
  private intervalMs: number;
  private stopped = false;

  constructor(
    private readonly parts: DevnetParts,
    configIntervalMs: number,
  ) {
    const mode = parts.consensus.productionMode;
    this.automine = mode === 'automine';
    this.intervalMs = mode === 'interval' ? configIntervalMs : 0;
  }

  get isAutomine(): boolean {
    return this.automine;
  }

  /** 0 when interval mining is off. */
  get interval(): number {
    return this.intervalMs;
  }

  get isMining(): boolean {
    return !this.stopped;
  }

  setAutomine(on: boolean): void {
    this.automine = on;
    this.apply();
  }

  setInterval(ms: number): void {
    if (!Number.isFinite(ms) || ms < 0) throw new RangeError(`interval must be a non-negative number of milliseconds, got ${ms}`);
    this.intervalMs = Math.round(ms);
    // As Anvil: interval mining replaces automine (the engine produces in one mode at a time).
    if (this.intervalMs > 0) this.automine = false;
    this.apply();
  }

  /** miner_stop: no blocks until miner_start (evm_mine still mines on demand). */
  stop(): void {
    this.stopped = true;
    this.apply();
  }

  start(): void {
    this.stopped = false;
    this.apply();
  }

  private apply(): void {
    const c = this.parts.consensus;
    if (this.stopped) c.setMode('manual');
    else if (this.automine) c.setMode('automine');
    else if (this.intervalMs > 0) c.setMode('interval', this.intervalMs);
    else c.setMode('manual');
  }
}
