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
 * the engine publishes `ChainHalted` and waits until enough validators are back (vote-collector.ts).
 * A failed commit (a block's, or an empty segment's after the block store took it) stops block
 * production for good, as CometBFT stops on a failed store: `mine` and height waits then fail with
 * that error, and the handshake at the next start finishes what was stored.
 *
 * Parts: engine-clock.ts (block times), gate.ts (production vs devnet control), engine-admin.ts
 * (`admin`, the commit of empty segments).
 */
import type { Logger } from 'pino';
import type { ConsensusConfig, ProductionMode } from '../config/types.js';
import type { EventBus } from '../events/bus.js';
import type { EventPayloads, EventTypeName } from '../events/types.js';
import type { Mempool } from '../mempool/mempool.js';
import type { BlockStore } from '../store/block-store.js';
import { EMPTY_BLOCK_ID, SignedMsgType, type Block, type BlockID, type Commit } from '../types/block.js';
import type { Timestamp } from '../types/time.js';
import { nextHeight, type ChainState } from '../store/chain-state.js';
import type { ConsensusAdmin } from './admin.js';
import type { BlockExecutor } from './block-executor.js';
import { makeAdmin, type EngineCore } from './engine-admin.js';
import { EngineClock } from './engine-clock.js';
import { Gate } from './gate.js';
import { NodeStoppedError, ValidatorIndexError } from './errors.js';
import type { StateStore } from '../store/state-store.js';
import type { LocalValidator } from './validator.js';
import { VoteCollector } from './vote-collector.js';
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
  private fatal: Error | undefined;
  private readonly clock = new EngineClock();
  private readonly heightWaiters: { height: number; resolve: () => void; reject: (e: Error) => void }[] = [];
  private lastCommit: Commit;
  /** Held while a height is produced and by `exclusive` (devnet control), so the two never interleave. */
  private readonly gate = new Gate();
  private readonly votes: VoteCollector;

  constructor(
    private readonly d: ConsensusEngineDeps,
    public state: ChainState,
    lastCommit: Commit | undefined,
  ) {
    this.mode = d.config.mode;
    this.intervalMs = d.config.timeoutCommitMs;
    this.lastCommit = lastCommit ?? EMPTY_COMMIT;
    this.admin = makeAdmin(this, this.core());
    this.votes = new VoteCollector({
      ...d,
      waker: this.waker,
      isStopped: () => this.stopped,
      voteTime: (t) => this.clock.voteTime(t),
    });
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
    if (opts.timestamp) this.clock.nextTime = opts.timestamp;
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
    this.clock.nextTime = t;
  }

  /** Blocks `ms` apart whatever the clock says (anvil_setBlockTimestampInterval); undefined: back to the clock. */
  setBlockTimestampInterval(ms: number | undefined): void {
    this.clock.stepMs = ms;
  }

  /** Moves the block clock forward (evm_increaseTime); returns the total offset in ms. */
  increaseTime(ms: number): number {
    this.clock.offsetMs += ms;
    return this.clock.offsetMs;
  }

  // ───────────────────────────── devnet control (src/devnet), through `admin` ─────────────────────────────

  /** The engine as devnet control sees it (admin.ts, engine-admin.ts): the exclusive section, the clock, the head. */
  readonly admin: ConsensusAdmin;

  private core(): EngineCore {
    const d = this.d;
    return {
      executor: d.executor,
      blockStore: d.blockStore,
      stateStore: d.stateStore,
      validators: d.validators,
      logger: d.logger,
      head: () => ({ state: this.state, lastCommit: this.lastCommit }),
      moveHead: (state, lastCommit) => this.moveHead(state, lastCommit),
      clock: () => ({ offsetMs: this.clock.offsetMs, nextTime: this.clock.nextTime }),
      setClock: (c) => {
        this.clock.offsetMs = c.offsetMs;
        this.clock.nextTime = c.nextTime;
      },
      now: () => this.clock.now(),
      assertProducing: () => {
        if (this.fatal) throw this.fatal;
        if (this.stopped) throw new NodeStoppedError();
      },
      isStopped: () => this.stopped,
      halt: (err, message, context) => this.halt(err, message, context),
      exclusive: (fn) => this.gate.run(fn),
    };
  }

  /** Replaces the head (after a segment, an edit, a revert or a state load; inside `exclusive`). */
  private moveHead(state: ChainState, lastCommit: Commit | undefined): void {
    this.state = state;
    this.lastCommit = lastCommit ?? EMPTY_COMMIT;
    this.lastCommitAt = Date.now();
    this.resolveHeightWaiters();
    this.waker.wake();
  }

  /**
   * Stops block production for good (a commit failed and the stores may disagree, as CometBFT
   * stops on a failed store): every later `mine` and height wait gets `err`; a restart recovers.
   */
  private halt(err: Error, message: string, context: Record<string, unknown> = {}): void {
    if (this.fatal) return;
    this.fatal = err;
    this.d.logger.error({ err, ...context }, message);
    for (const w of this.heightWaiters.splice(0)) w.reject(err);
    this.waker.wake();
  }

  // ───────────────────────────── production loop ─────────────────────────────

  private async run(): Promise<void> {
    try {
      while (!this.stopped && !this.fatal) {
        await this.waitUntilProducing();
        if (this.stopped || this.fatal) break;
        const contended = this.gate.busy;
        const release = await this.gate.enter();
        try {
          // Devnet control ran meanwhile (and may have changed the head or the mempool): decide again.
          if (!contended && !this.stopped && !this.fatal) await this.produceHeight();
        } finally {
          release();
        }
      }
    } catch (err) {
      if (err instanceof NodeStoppedError) return;
      this.halt(err as Error, 'consensus failed: block production stopped');
    }
  }

  /** Resolves when the mode says a block is due. */
  private async waitUntilProducing(): Promise<void> {
    const c = this.d.config;
    for (;;) {
      if (this.stopped || this.fatal) return;
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

  /**
   * The time the next block gets if it is proposed now (the `pending` block of eth_call and
   * eth_estimateGas), strictly after the last block.
   */
  pendingBlockTime(): Timestamp {
    return this.clock.pendingBlockTime(this.state);
  }

  /** Runs rounds for the next height until a block commits. */
  private async produceHeight(): Promise<void> {
    const state = this.state;
    const height = nextHeight(state);
    const time = this.clock.takeBlockTime(state);
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
      const proposer = this.votes.local(proposerVal.address);
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
      await this.votes.collect(prevotes, prevoteFor, state.validators, time);
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
      await this.votes.collect(precommits, polka ?? EMPTY_BLOCK_ID, state.validators, time);
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

  private publish<T extends EventTypeName>(type: T, data: EventPayloads[T]): void {
    this.d.eventBus.publish(type, data);
  }

  private async sleep(ms: number): Promise<void> {
    await this.waker.sleep(ms);
    if (this.stopped) throw new NodeStoppedError();
  }
}
