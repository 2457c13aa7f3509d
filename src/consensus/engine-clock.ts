/**
 * The engine's block clock: the wall clock moved by evm_increaseTime, the next block's time set by
 * evm_setNextBlockTimestamp, and a fixed step between blocks (anvil_setBlockTimestampInterval).
 * Block times are proposer-based and strictly increasing, as in CometBFT.
 */
import type { ChainState } from '../store/chain-state.js';
import { compareTime, timestampFromMs, timestampToMs, type Timestamp } from '../types/time.js';

export class EngineClock {
  /** evm_increaseTime's total, in ms. */
  offsetMs = 0;
  /** The time asked for the next block (used once). */
  nextTime: Timestamp | undefined;
  /** anvil_setBlockTimestampInterval: each block this much after the previous one (instead of the clock). */
  stepMs: number | undefined;

  now(): Timestamp {
    return timestampFromMs(Date.now() + this.offsetMs);
  }

  /**
   * The time the next block gets if it is proposed now (the `pending` block of eth_call and
   * eth_estimateGas): the one asked for, else the fixed step, else the clock, strictly after the last block.
   */
  pendingBlockTime(state: ChainState): Timestamp {
    const step = this.stepMs;
    const fixedStep = step !== undefined && state.lastBlockHeight > 0 ? timestampFromMs(timestampToMs(state.lastBlockTime) + step) : undefined;
    const wanted = this.nextTime ?? fixedStep ?? this.now();
    const min = timestampToMs(state.lastBlockTime) + 1;
    return state.lastBlockHeight === 0 || compareTime(wanted, state.lastBlockTime) > 0 ? wanted : timestampFromMs(min);
  }

  /** The next block's time; the one asked for is used up. */
  takeBlockTime(state: ChainState): Timestamp {
    const t = this.pendingBlockTime(state);
    this.nextTime = undefined;
    return t;
  }

  /** A vote's time: the clock, strictly after the block's. */
  voteTime(blockTime: Timestamp): Timestamp {
    const now = this.now();
    return compareTime(now, blockTime) > 0 ? now : timestampFromMs(timestampToMs(blockTime) + 1);
  }
}
