/**
 * The SVM chain's slots: the open slot and block height, the blockhash window, the Clock sysvar,
 * and the wall clock that closes slots when read (slot-clock.ts).
 *
 * Each slot's blockhash is derived from the genesis hash and the slot number, so any slot's hash is
 * known without closing those before it. That lets a long run of due slots (an idle stretch)
 * close compactly: of `n` due slots, only the last `max(BLOCKHASH_WINDOW + 1, maxBlocks)` can
 * still be seen afterwards (the window, the kept blocks); the empty ones before them are skipped in
 * one step (`onSkip` listeners, one journal entry) with exactly the state closing them one by one
 * leaves, so a catch-up costs at most the window, not the idle time.
 */
import type { LiteSVM } from 'litesvm';
import { base58 } from '@scure/base';
import { createHash } from 'node:crypto';
import { SlotClock } from './slot-clock.js';
import type { SvmHistory } from './history.js';

export const BLOCKHASH_WINDOW = 150;
export const SLOTS_PER_EPOCH = 432_000n;

export type SlotListener = (slot: bigint, more: boolean) => void;
/** Slots `from`..`to` were closed empty in one step; slot `to` opened at `timeMs`. */
export type SkipListener = (from: bigint, to: bigint, timeMs: number) => void;

export interface SlotsHost {
  svm: LiteSVM;
  hist: SvmHistory;
  now: () => number;
  genesisHash: string;
  /** Forgets the signatures of slots before `oldest` (the replay window moved on). */
  pruneSeen(oldest: bigint): void;
}

/** The saved slot state: the open slot, the height and the window as [blockhash, slot, ms], oldest first. */
export interface SavedSlots {
  slot: string;
  blockHeight: string;
  blockhashes: [string, string, number][];
}

export class SvmSlots {
  private cur = 0n;
  private height = 0n;
  /** blockhash → slot, newest last; at most BLOCKHASH_WINDOW + 1. */
  private readonly blockhashes = new Map<string, bigint>();
  private readonly slotTimes = new Map<bigint, number>();
  private latest: string;
  private readonly listeners = new Set<SlotListener>();
  private readonly skipListeners = new Set<SkipListener>();
  /** Slot listeners that must hear of each slot as it closes (slotSubscribe): they keep the clock's timer armed. */
  private liveListeners = 0;
  private clock: SlotClock | undefined;
  /** Set while slots close or a tx runs: a nested read must not close a slot (see `hold`). */
  private syncing = false;

  /** `genesis`: slot 0's blockhash (a new chain); `saved`: a restored one. */
  constructor(
    private readonly host: SlotsHost,
    genesis: string,
    saved?: SavedSlots,
  ) {
    this.latest = genesis;
    if (saved) {
      this.cur = BigInt(saved.slot);
      this.height = BigInt(saved.blockHeight);
      for (const [h, s, t] of saved.blockhashes) {
        this.blockhashes.set(h, BigInt(s));
        this.slotTimes.set(BigInt(s), t);
      }
      this.latest = saved.blockhashes.at(-1)?.[0] ?? genesis;
    } else {
      this.blockhashes.set(genesis, 0n);
      this.slotTimes.set(0n, host.now());
    }
    this.setClock();
  }

  save(): SavedSlots {
    this.sync();
    const blockhashes: [string, string, number][] = [...this.blockhashes].map(([h, s]) => [h, s.toString(), this.slotTimes.get(s) ?? this.host.now()]);
    return { slot: this.cur.toString(), blockHeight: this.height.toString(), blockhashes };
  }

  /** The open slot (the clock's due slots closed first). */
  get slot(): bigint {
    this.sync();
    return this.cur;
  }

  get blockHeight(): bigint {
    this.sync();
    return this.height;
  }

  /** Runs `fn` in the open slot: no slot closes until it returns (a tx is recorded in the slot it ran in). */
  hold<T>(fn: (slot: bigint) => T): T {
    this.sync();
    if (this.syncing) return fn(this.cur);
    this.syncing = true;
    try {
      return fn(this.cur);
    } finally {
      this.syncing = false;
    }
  }

  startClock(slotMs: number): void {
    this.clock?.stop();
    this.clock = new SlotClock(slotMs, this.host.now, () => {
      this.sync();
      this.armIfWanted();
    });
    this.armIfWanted();
  }

  stopClock(): void {
    this.sync();
    this.clock?.stop();
    this.clock = undefined;
  }

  get clockArmed(): boolean {
    return this.clock?.armed ?? false;
  }

  /** Closes the current slot now (after any the clock has due): a new blockhash, the clock moves on. */
  advanceSlot(): void {
    this.sync();
    // As in `sync`: a listener's read must not close the next slot in the middle of this one
    // (the journal would write the later slot first, and refuse to replay it).
    const held = this.syncing;
    this.syncing = true;
    try {
      this.closeSlot(this.host.now(), false);
    } finally {
      // Called from a tx listener inside `hold`: the guard stays until the tx returns.
      this.syncing = held;
    }
    this.setClock();
    this.armIfWanted();
  }

  /** Closes the slots the clock has due; listeners (and a journal's sync) run per slot, in order. */
  sync(): void {
    if (!this.clock || this.syncing) return;
    this.syncing = true;
    try {
      const { firstMs, count } = this.clock.catchUp();
      if (count === 0) return;
      const slotMs = this.clock.slotMs;
      // The slots still visible after the run: the blockhash window and the kept blocks.
      const keep = Math.max(BLOCKHASH_WINDOW + 1, this.host.hist.blockLimit);
      let i = 0;
      if (count > keep + 1) {
        // The first closes the open slot's block (it may hold txs); the empty ones after it until
        // the last `keep` are skipped in one step.
        this.closeSlot(firstMs, true);
        const skip = count - 1 - keep;
        const from = this.cur + 1n;
        const timeMs = firstMs + skip * slotMs;
        this.skipTo(this.cur + BigInt(skip), timeMs);
        for (const l of this.skipListeners) l(from, this.cur, timeMs);
        i = 1 + skip;
      }
      for (; i < count; i++) this.closeSlot(firstMs + i * slotMs, i < count - 1);
      this.setClock();
    } finally {
      this.syncing = false;
    }
  }

  /** The timer runs only while someone waits for a slot to close as it happens. */
  armIfWanted(): void {
    if (this.clock && (this.liveListeners > 0 || this.host.hist.txCount(this.cur) > 0)) this.clock.arm();
  }

  /** The blockhash and start time (ms) of slot `slot`, while it is in the window. */
  slotInfo(slot: bigint): { blockhash: string; timeMs: number; txs: number } | undefined {
    this.sync();
    for (const [h, s] of this.blockhashes)
      if (s === slot) return { blockhash: h, timeMs: this.slotTimes.get(slot) ?? this.host.now(), txs: this.host.hist.txCount(slot) };
    return undefined;
  }

  latestBlockhash(): { blockhash: string; lastValidBlockHeight: bigint } {
    this.sync();
    return { blockhash: this.latest, lastValidBlockHeight: this.height + BigInt(BLOCKHASH_WINDOW) };
  }

  /** Valid while fewer than 150 newer blockhashes exist (as on Solana). */
  isBlockhashValid(blockhash: string): boolean {
    this.sync();
    const s = this.blockhashes.get(blockhash);
    return s !== undefined && this.cur - s <= BigInt(BLOCKHASH_WINDOW);
  }

  onSlot(l: SlotListener, opts: { live?: boolean } = {}): () => void {
    // Each registration is its own entry (one function may be added twice, live or not).
    const entry: SlotListener = (slot, more) => l(slot, more);
    this.listeners.add(entry);
    if (opts.live) {
      this.liveListeners++;
      this.armIfWanted();
    }
    let on = true;
    return () => {
      if (!on) return;
      on = false;
      this.listeners.delete(entry);
      if (opts.live) this.liveListeners--;
    };
  }

  onSkip(l: SkipListener): () => void {
    const entry: SkipListener = (from, to, t) => l(from, to, t);
    this.skipListeners.add(entry);
    return () => this.skipListeners.delete(entry);
  }

  // ── replay of a journal ──

  replaySlot(slot: bigint, blockhash: string, timeMs: number): void {
    if (slot !== this.cur + 1n) throw new Error(`svm journal: slot ${slot} does not follow slot ${this.cur}`);
    this.enterSlot(blockhash, timeMs);
    this.setClock();
  }

  replaySkip(from: bigint, to: bigint, timeMs: number): void {
    if (from !== this.cur + 1n || to < from) throw new Error(`svm journal: slots ${from}..${to} do not follow slot ${this.cur}`);
    this.skipTo(to, timeMs);
    this.setClock();
  }

  // ── internals ──

  private closeSlot(timeMs: number, more: boolean): void {
    // LiteSVM's own blockhash (durable nonces) moves on too; its check is off (the window is here).
    this.host.svm.expireBlockhash();
    this.enterSlot(this.blockhashOf(this.cur + 1n), timeMs);
    for (const l of this.listeners) l(this.cur, more);
  }

  /** The current slot's block is closed (history); slot `slot + 1` starts with `blockhash`. */
  private enterSlot(blockhash: string, timeMs: number): void {
    this.host.hist.closeBlock({ slot: this.cur, blockhash: this.latest, timeMs: this.slotTimes.get(this.cur) ?? timeMs, blockHeight: this.height });
    this.cur += 1n;
    this.height += 1n;
    this.latest = blockhash;
    this.blockhashes.set(this.latest, this.cur);
    this.slotTimes.set(this.cur, timeMs);
    while (this.blockhashes.size > BLOCKHASH_WINDOW + 1) this.blockhashes.delete(this.blockhashes.keys().next().value!);
    while (this.slotTimes.size > BLOCKHASH_WINDOW + 1) this.slotTimes.delete(this.slotTimes.keys().next().value!);
    this.host.pruneSeen(this.cur - BigInt(BLOCKHASH_WINDOW) - 1n);
  }

  /**
   * Moves from the open (empty) slot to slot `to`, which opens at `timeMs`, closing no block: the
   * caller closes at least `max(window, maxBlocks)` slots after it, which evict every block and
   * blockhash these slots would have left, so the state is that of closing them one by one.
   */
  private skipTo(to: bigint, timeMs: number): void {
    this.height += to - this.cur;
    this.cur = to;
    this.latest = this.blockhashOf(to);
    this.blockhashes.clear();
    this.slotTimes.clear();
    this.blockhashes.set(this.latest, to);
    this.slotTimes.set(to, timeMs);
    this.host.pruneSeen(to - BigInt(BLOCKHASH_WINDOW) - 1n);
    this.host.svm.expireBlockhash();
  }

  /** Slot `slot`'s blockhash: a function of the chain and the slot, unique per slot (restarts included). */
  private blockhashOf(slot: bigint): string {
    // @scure/base: a third of the cost of kit's codec, paid on every slot closed.
    return base58.encode(createHash('sha256').update(`chainlet svm blockhash ${this.host.genesisHash} ${slot}`).digest());
  }

  private setClock(): void {
    const c = this.host.svm.getClock();
    c.slot = this.cur;
    c.epoch = this.cur / SLOTS_PER_EPOCH;
    c.unixTimestamp = BigInt(Math.floor(this.host.now() / 1000));
    this.host.svm.setClock(c);
  }
}
