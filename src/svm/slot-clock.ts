/**
 * The SVM chain's slot clock, read rather than ticking: a slot closes every `slotMs` of wall-clock
 * time, and the ledger closes the slots due when it is asked (`catchUp`), so an idle chain runs no
 * timer. Slot numbers still follow the wall clock (~2.5 a second at 400 ms), each closed slot
 * stamped with the time it was due. A one-shot timer (`arm`) runs only while someone must hear of
 * a slot as it closes: a slot subscriber, or an open slot holding transactions (its block closes
 * on time for the activity log and the journal).
 */
export class SlotClock {
  /** Wall-clock time (ms) at which the open slot closes. */
  private next: number;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private stopped = false;

  constructor(
    readonly slotMs: number,
    private readonly now: () => number,
    private readonly onTimer: () => void,
  ) {
    if (!Number.isSafeInteger(slotMs) || slotMs <= 0) throw new Error(`svm slot clock: slotMs must be a positive integer, got ${slotMs}`);
    this.next = now() + slotMs;
  }

  /**
   * Takes the slots due by now off the clock: `count` of them, the i-th (from 0) due at
   * `firstMs + i·slotMs`. The caller closes them (compactly for a long run: slots.ts).
   */
  catchUp(): { firstMs: number; count: number } {
    const now = this.now();
    if (now < this.next) return { firstMs: this.next, count: 0 };
    const count = Math.floor((now - this.next) / this.slotMs) + 1;
    const firstMs = this.next;
    this.next += count * this.slotMs;
    return { firstMs, count };
  }

  /** Wakes `onTimer` once when the open slot is due (no-op while armed or stopped). */
  arm(): void {
    if (this.timer !== undefined || this.stopped) return;
    this.timer = setTimeout(
      () => {
        this.timer = undefined;
        this.onTimer();
      },
      Math.max(1, this.next - this.now()),
    );
    // As the interval it replaces: the clock alone does not keep the process alive.
    this.timer.unref?.();
  }

  get armed(): boolean {
    return this.timer !== undefined;
  }

  stop(): void {
    this.stopped = true;
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
  }
}
