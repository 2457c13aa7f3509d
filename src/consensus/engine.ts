/**
 * The consensus engine: Tendermint rounds run by the in-process validators.
 *
 *   wait to produce (mode) ──> height H, round R:
 *     NewRound ─> propose (proposer by weighted round-robin; offline → TimeoutPropose)
 *              ─> prevotes (signed, verified; +2/3 for the block = Polka; none → TimeoutWait)
 *              ─> precommits (+2/3 for the block = commit; else TimeoutWait, round R+1)
 *     commit ─> save block + seen commit ─> BlockExecutor.applyBlock ─> next height
 *
 * While the online validators hold no more than 2/3 of the power, a round cannot reach a quorum:
 * the engine publishes `ChainHalted` and waits until enough validators are back.
 */
import type { Logger } from 'pino';
import type { ConsensusConfig, ProductionMode } from '../config/types.js';
import type { EventBus } from '../events/bus.js';
import type { EventPayloads, EventTypeName } from '../events/types.js';
import type { Mempool } from '../mempool/mempool.js';
import type { BlockStore } from '../store/block-store.js';
import { EMPTY_BLOCK_ID, SignedMsgType, type Block, type BlockID, type Commit } from '../types/block.js';
import { compareTime, timestampFromMs, timestampToMs, type Timestamp } from '../types/time.js';
import type { ValidatorSet } from '../types/validator-set.js';
import { nextHeight, type ChainState } from '../store/chain-state.js';
import type { ConsensusAdmin, EmptySegmentOptions } from './admin.js';
import type { BlockExecutor } from './block-executor.js';
import { buildEmptySegment } from './empty-segment.js';
import { ConsensusError, NodeStoppedError, SegmentNotApplicableError, ValidatorIndexError } from './errors.js';
import type { EmptySegment } from '../store/segments/empty-segment.js';
import { segmentCommit } from '../store/segments/segment-synthesis.js';
import type { StateStore } from '../store/state-store.js';
import type { LocalValidator } from './validator.js';
import { blockIdKey, VoteSet } from './vote-set.js';
import { Waker } from './waker.js';

export interface ConsensusEngineDeps {
  executor: BlockExecutor;
  blockStore: BlockStore;
  /** Read again by `admin.reloadHead` after the db was rewritten underneath. */
  stateStore: StateStore;
  mempool: Mempool;
  eventBus: EventBus;
  /** The validators this process runs, in genesis order. */
  validators: LocalValidator[];
  config: ConsensusConfig;
  logger: Logger;
}

interface Proposal {
  block: Block;
  blockId: BlockID;
  size: number;
  accepted: boolean;
}

const EMPTY_COMMIT: Commit = { height: 0, round: 0, blockId: EMPTY_BLOCK_ID, signatures: [] };

export class ConsensusEngine {
  private readonly waker = new Waker();
  private running = false;
  private stopped = false;
  private loop: Promise<void> | undefined;
  private forced = 0;
  private mode: ProductionMode;
  private intervalMs: number;
  private lastCommitAt = 0;
  private halted = false;
  private fatal: Error | undefined;
  private clockOffsetMs = 0;
  private nextTime: Timestamp | undefined;
  /** anvil_setBlockTimestampInterval: each block this much after the previous one (instead of the clock). */
  private timestampIntervalMs: number | undefined;
  private readonly heightWaiters: { height: number; resolve: () => void; reject: (e: Error) => void }[] = [];
  private lastCommit: Commit;
  /** Held while a height is produced and by `exclusive` (devnet control), so the two never interleave. */
  private gate: Promise<void> = Promise.resolve();
  private gateHolders = 0;

  constructor(
    private readonly d: ConsensusEngineDeps,
    public state: ChainState,
    lastCommit: Commit | undefined,
  ) {
    this.mode = d.config.mode;
    this.intervalMs = d.config.timeoutCommitMs;
    this.lastCommit = lastCommit ?? EMPTY_COMMIT;
    d.mempool.onTxsAvailable(() => this.waker.wake());
  }

  get height(): number {
    return this.state.lastBlockHeight;
  }

  get productionMode(): ProductionMode {
    return this.mode;
  }

  start(): void {
    if (this.running || this.stopped) return;
    this.running = true;
    this.lastCommitAt = Date.now();
    this.loop = this.run();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.waker.close();
    await this.loop?.catch(() => undefined);
    for (const w of this.heightWaiters.splice(0)) w.reject(new NodeStoppedError());
  }

  /** Produces `n` blocks now, whatever the mode; resolves with the heights once they are committed. */
  async mine(n = 1, opts: { timestamp?: Timestamp } = {}): Promise<number[]> {
    if (this.fatal) throw this.fatal;
    if (this.stopped) throw new NodeStoppedError();
    if (!Number.isInteger(n) || n < 0) throw new RangeError(`block count must be a non-negative integer, got ${n}`);
    if (opts.timestamp) this.nextTime = opts.timestamp;
    const from = this.state.lastBlockHeight + this.forced + 1;
    this.forced += n;
    const target = from + n - 1;
    this.waker.wake();
    await this.waitForHeight(target);
    return Array.from({ length: n }, (_, i) => from + i);
  }

  waitForHeight(height: number): Promise<void> {
    if (this.state.lastBlockHeight >= height) return Promise.resolve();
    if (this.fatal) return Promise.reject(this.fatal);
    if (this.stopped) return Promise.reject(new NodeStoppedError());
    return new Promise((resolve, reject) => this.heightWaiters.push({ height, resolve, reject }));
  }

  setMode(mode: ProductionMode, intervalMs?: number): void {
    this.mode = mode;
    if (intervalMs !== undefined) this.intervalMs = intervalMs;
    this.waker.wake();
  }

  /** Takes a validator (genesis order) offline or back; the running round picks it up at once. */
  setValidatorOnline(index: number, online: boolean): void {
    const v = this.d.validators[index];
    if (!v) throw new ValidatorIndexError(index, this.d.validators.length);
    if (v.online === online) return;
    v.online = online;
    this.d.eventBus.publish(online ? 'ValidatorOnline' : 'ValidatorOffline', {
      address: v.address,
      height: this.state.lastBlockHeight + 1,
      reason: `validator ${index} ${online ? 'back online' : 'taken offline'}`,
    });
    this.d.logger.info({ validator: index, online }, online ? 'validator back online' : 'validator taken offline');
    this.waker.wake();
  }

  /** Address of the validator that proposes the next height in round 0 (its EVM coinbase). */
  nextProposer(): Uint8Array {
    return this.state.validators.proposer.address;
  }

  /** The timestamp of the next block (evm_setNextBlockTimestamp). */
  setNextBlockTime(t: Timestamp): void {
    this.nextTime = t;
  }

  /** Blocks `ms` apart whatever the clock says (anvil_setBlockTimestampInterval); undefined: back to the clock. */
  setBlockTimestampInterval(ms: number | undefined): void {
    this.timestampIntervalMs = ms;
  }

  /** Moves the block clock forward (evm_increaseTime); returns the total offset in ms. */
  increaseTime(ms: number): number {
    this.clockOffsetMs += ms;
    return this.clockOffsetMs;
  }

  // ───────────────────────────── devnet control (src/devnet), through `admin` ─────────────────────────────

  /** The engine as devnet control sees it (admin.ts): the exclusive section, the clock, the head. */
  readonly admin: ConsensusAdmin = this.makeAdmin();

  private makeAdmin(): ConsensusAdmin {
    const engine = this; // the getters below read the engine
    return {
      get height() {
        return engine.height;
      },
      get productionMode() {
        return engine.mode;
      },
      exclusive: (fn) => this.exclusive(fn),
      head: () => ({ state: this.state, lastCommit: this.lastCommit }),
      clock: () => ({ offsetMs: this.clockOffsetMs, nextTime: this.nextTime }),
      setClock: (c) => {
        this.clockOffsetMs = c.offsetMs;
        this.nextTime = c.nextTime;
      },
      increaseTime: (ms) => this.increaseTime(ms),
      setNextBlockTime: (t) => this.setNextBlockTime(t),
      setBlockTimestampInterval: (ms) => this.setBlockTimestampInterval(ms),
      setMode: (mode, intervalMs) => this.setMode(mode, intervalMs),
      setValidatorOnline: (index, online) => this.setValidatorOnline(index, online),
      mine: (n, opts) => this.mine(n, opts),
      mineEmptySegment: (count, opts) => this.mineEmptySegment(count, opts),
      announceEmptySegment: (segment) =>
        this.d.executor.announceEmptySegment(segment, (err) => this.d.logger.error({ err }, 'a block listener failed on an empty segment')),
      amendHead: async (fn) => {
        const next = fn(this.state);
        await this.d.executor.saveState(next);
        this.moveHead(next, this.lastCommit);
      },
      reloadHead: async () => {
        await this.d.executor.reloadStores();
        const state = await this.d.stateStore.loadState();
        if (state === undefined) throw new ConsensusError('the reloaded db holds no chain state');
        const lastCommit = state.lastBlockHeight > 0 ? await this.d.blockStore.loadSeenCommit(state.lastBlockHeight) : undefined;
        this.moveHead(state, lastCommit);
      },
      flushIndex: () => this.d.executor.flushIndex(),
    };
  }

  /** Runs `fn` between heights: no block is produced while it runs (so `fn` must not wait for one). */
  private async exclusive<T>(fn: () => Promise<T>): Promise<T> {
    const release = await this.enterGate();
    try {
      return await fn();
    } finally {
      release();
    }
  }

  /** Replaces the head (after a segment, an edit, a revert or a state load; inside `exclusive`). */
  private moveHead(state: ChainState, lastCommit: Commit | undefined): void {
    this.state = state;
    this.lastCommit = lastCommit ?? EMPTY_COMMIT;
    this.lastCommitAt = Date.now();
    this.resolveHeightWaiters();
    this.waker.wake();
  }

  /** `count` empty blocks as one segment, through the block executor (inside `exclusive`). */
  private async mineEmptySegment(count: number, opts: EmptySegmentOptions = {}): Promise<EmptySegment> {
    if (this.fatal) throw this.fatal;
    if (this.stopped) throw new NodeStoppedError();
    const state = this.state;
    if (state.lastBlockHeight === 0) throw new SegmentNotApplicableError('the chain has no block yet');
    const intervalMs = opts.intervalMs ?? 1000;
    // The first block's time, as produceHeight would pick it.
    const wanted = opts.timestamp ?? this.nextTime ?? this.now();
    const firstTime = compareTime(wanted, state.lastBlockTime) > 0 ? wanted : timestampFromMs(timestampToMs(state.lastBlockTime) + 1);
    const { results, app } = this.d.executor.prepareEmptyBlocks(count);
    const { segment, after } = await buildEmptySegment({
      state,
      lastCommit: this.lastCommit,
      signers: this.d.validators,
      count,
      firstTime,
      intervalMs,
      results,
      app,
      cancelled: () => this.stopped || opts.cancelled?.() === true,
    });
    await this.d.executor.commitEmptySegment(segment, after);
    // The clock continues after the segment, as Hardhat moves its time offset past reserved blocks.
    const lastMs = timestampToMs(after.lastBlockTime);
    const ahead = lastMs + intervalMs - (Date.now() + this.clockOffsetMs);
    this.clockOffsetMs += ahead > 0 && count > 1 ? ahead : 0;
    this.nextTime = undefined;
    this.moveHead(after, segmentCommit(segment, segment.to));
    return segment;
  }

  private async enterGate(): Promise<() => void> {
    const prev = this.gate;
    let release!: () => void;
    const mine = new Promise<void>((r) => (release = r));
    this.gate = mine;
    this.gateHolders++;
    await prev;
    return () => {
      this.gateHolders--;
      release();
    };
  }

  private get gateBusy(): boolean {
    return this.gateHolders > 0;
  }

  // ───────────────────────────── production loop ─────────────────────────────

  private async run(): Promise<void> {
    try {
      while (!this.stopped) {
        await this.waitUntilProducing();
        if (this.stopped) break;
        const contended = this.gateBusy;
        const release = await this.enterGate();
        try {
          // Devnet control ran meanwhile (and may have changed the head or the mempool): decide again.
          if (!contended && !this.stopped) await this.produceHeight();
        } finally {
          release();
        }
      }
    } catch (err) {
      if (err instanceof NodeStoppedError) return;
      this.fatal = err as Error;
      this.d.logger.error({ err }, 'consensus failed: block production stopped');
      for (const w of this.heightWaiters.splice(0)) w.reject(this.fatal);
    }
  }

  /** Resolves when the mode says a block is due. */
  private async waitUntilProducing(): Promise<void> {
    const c = this.d.config;
    for (;;) {
      if (this.stopped) return;
      if (this.forced > 0) return;
      // CometBFT commits the block at initial_height at once in every mode: it is the proof block
      // of the genesis app hash, made even with create_empty_blocks = false.
      if (this.state.lastBlockHeight === 0) return;
      const hasTxs = this.d.mempool.hasPending();
      if (this.mode === 'automine') {
        // One macrotask first: the reply to the tx's sender (and other pending I/O) goes out before
        // the block is produced, so a client can prepare its next request meanwhile.
        if (hasTxs) return new Promise((r) => setImmediate(r));
        await this.waker.wait(c.createEmptyBlocksIntervalMs > 0 && c.createEmptyBlocks ? this.untilInterval(c.createEmptyBlocksIntervalMs) : undefined);
        if (c.createEmptyBlocks && c.createEmptyBlocksIntervalMs > 0 && Date.now() - this.lastCommitAt >= c.createEmptyBlocksIntervalMs) return;
      } else if (this.mode === 'interval') {
        const wait = this.untilInterval(this.intervalMs);
        if (wait > 0) {
          await this.waker.wait(wait);
          continue;
        }
        if (c.createEmptyBlocks || hasTxs) return;
        await this.waker.wait(c.createEmptyBlocksIntervalMs > 0 ? this.untilInterval(c.createEmptyBlocksIntervalMs) : undefined);
        if (c.createEmptyBlocksIntervalMs > 0 && Date.now() - this.lastCommitAt >= c.createEmptyBlocksIntervalMs) return;
      } else {
        await this.waker.wait();
      }
    }
  }

  private untilInterval(ms: number): number {
    return Math.max(0, this.lastCommitAt + ms - Date.now());
  }

  private now(): Timestamp {
    return timestampFromMs(Date.now() + this.clockOffsetMs);
  }

  /** Proposer-based block time: the requested one, else the clock, strictly after the last block. */
  private blockTime(): Timestamp {
    const t = this.pendingBlockTime();
    this.nextTime = undefined;
    return t;
  }

  /**
   * The time the next block gets if it is proposed now (the `pending` block of eth_call and
   * eth_estimateGas): the one asked for by evm_setNextBlockTimestamp, else the clock with its
   * evm_increaseTime offset, strictly after the last block.
   */
  pendingBlockTime(): Timestamp {
    const interval = this.timestampIntervalMs;
    const fixedStep =
      interval !== undefined && this.state.lastBlockHeight > 0 ? timestampFromMs(timestampToMs(this.state.lastBlockTime) + interval) : undefined;
    const wanted = this.nextTime ?? fixedStep ?? this.now();
    const min = timestampToMs(this.state.lastBlockTime) + 1;
    return this.state.lastBlockHeight === 0 || compareTime(wanted, this.state.lastBlockTime) > 0 ? wanted : timestampFromMs(min);
  }

  private voteTime(blockTime: Timestamp): Timestamp {
    const now = this.now();
    return compareTime(now, blockTime) > 0 ? now : timestampFromMs(timestampToMs(blockTime) + 1);
  }

  /** Runs rounds for the next height until a block commits. */
  private async produceHeight(): Promise<void> {
    const state = this.state;
    const height = nextHeight(state);
    const time = this.blockTime();
    let proposal: Proposal | undefined;
    for (let round = 0; ; round++) {
      if (this.stopped) throw new NodeStoppedError();
      const vals = round === 0 ? state.validators : state.validators.copyIncrementProposerPriority(round);
      const proposerVal = vals.proposer;
      this.publish('NewRound', {
        height,
        round,
        step: 'RoundStepNewRound',
        proposer: { address: proposerVal.address, index: vals.getByAddress(proposerVal.address)!.index },
      });

      // ── PROPOSE ──
      const proposer = this.local(proposerVal.address);
      if (proposer?.online) {
        // A block that already got a polka in an earlier round is proposed again (the valid block).
        if (!proposal) {
          const p = await this.d.executor.createProposalBlock(state, height, this.lastCommit, proposerVal.address, time);
          const accepted = await this.d.executor.processProposal(state, p.block, p.blockId);
          proposal = { ...p, accepted };
        }
        proposer.signProposal(height, round, proposal.blockId, time);
        this.publish('CompleteProposal', { height, round, step: 'RoundStepPropose', blockId: proposal.blockId });
      } else {
        await this.sleep(this.d.config.timeoutProposeMs + round * this.d.config.timeoutProposeDeltaMs);
        this.publish('TimeoutPropose', { height, round, step: 'RoundStepPropose' });
      }
      const proposedThisRound = proposer?.online ? proposal : undefined;

      // ── PREVOTE ──
      const prevotes = new VoteSet(state.chainId, height, round, SignedMsgType.Prevote, state.validators);
      const prevoteFor = proposedThisRound?.accepted ? proposedThisRound.blockId : EMPTY_BLOCK_ID;
      await this.collectVotes(prevotes, prevoteFor, state.validators, time);
      let polka = prevotes.twoThirdsMajority();
      if (polka && polka.hash.length > 0) {
        this.publish('Polka', { height, round, step: 'RoundStepPrevote' });
        this.publish('Lock', { height, round, step: 'RoundStepPrecommit' });
      } else {
        await this.sleep(this.d.config.timeoutPrevoteMs + round * this.d.config.timeoutPrevoteDeltaMs);
        this.publish('TimeoutWait', { height, round, step: 'RoundStepPrevoteWait' });
        polka = undefined;
      }

      // ── PRECOMMIT ──
      const precommits = new VoteSet(state.chainId, height, round, SignedMsgType.Precommit, state.validators);
      await this.collectVotes(precommits, polka ?? EMPTY_BLOCK_ID, state.validators, time);
      const decided = precommits.twoThirdsMajority();
      if (decided && decided.hash.length > 0 && proposal && blockIdKey(decided) === blockIdKey(proposal.blockId)) {
        await this.commit(proposal, precommits.makeCommit(decided));
        return;
      }
      await this.sleep(this.d.config.timeoutPrecommitMs + round * this.d.config.timeoutPrecommitDeltaMs);
      this.publish('TimeoutWait', { height, round, step: 'RoundStepPrecommitWait' });
      if (!polka) proposal = undefined;
    }
  }

  /**
   * Every online validator signs `blockId` (or nil) and its vote is verified into the set; while
   * the online power cannot reach +2/3 the chain halts here until validators come back.
   */
  private async collectVotes(set: VoteSet, blockId: BlockID, vals: ValidatorSet, blockTime: Timestamp): Promise<void> {
    for (;;) {
      vals.validators.forEach((v, index) => {
        const local = this.local(v.address);
        if (!local?.online) return;
        const vote = local.signVote(set.type, set.height, set.round, blockId, index, this.voteTime(blockTime));
        if (set.addVote(vote)) this.publish('Vote', { vote });
      });
      if (set.hasTwoThirdsAny()) {
        if (this.halted) {
          this.halted = false;
          this.d.logger.info({ height: set.height }, 'quorum restored: block production resumes');
        }
        return;
      }
      if (!this.halted) {
        this.halted = true;
        const online = set.power();
        this.d.logger.warn(
          { height: set.height, round: set.round, online, total: vals.totalVotingPower() },
          'chain halted: online voting power is not more than 2/3',
        );
        this.publish('ChainHalted', {
          height: set.height,
          reason: `online voting power ${online} of ${vals.totalVotingPower()} is not more than 2/3 (round ${set.round})`,
        });
      }
      await this.waker.wait();
      if (this.stopped) throw new NodeStoppedError();
    }
  }

  private async commit(p: Proposal, seenCommit: Commit): Promise<void> {
    const { block, blockId, size } = p;
    await this.d.blockStore.saveBlock(block, blockId, size, seenCommit);
    this.state = await this.d.executor.applyBlock(this.state, blockId, block, (next) => {
      this.state = next;
      this.lastCommit = seenCommit;
      this.lastCommitAt = Date.now();
      if (this.forced > 0) this.forced--;
    });
    this.resolveHeightWaiters();
  }

  private resolveHeightWaiters(): void {
    const h = this.state.lastBlockHeight;
    for (let i = this.heightWaiters.length - 1; i >= 0; i--) {
      const w = this.heightWaiters[i]!;
      if (w.height <= h) {
        this.heightWaiters.splice(i, 1);
        w.resolve();
      }
    }
  }

  private local(address: Uint8Array): LocalValidator | undefined {
    return this.d.validators.find((v) => Buffer.compare(v.address, address) === 0);
  }

  private publish<T extends EventTypeName>(type: T, data: EventPayloads[T]): void {
    this.d.eventBus.publish(type, data);
  }

  private async sleep(ms: number): Promise<void> {
    await this.waker.sleep(ms);
    if (this.stopped) throw new NodeStoppedError();
  }
}
