/**
 * A FIFO lock between the production of a height and devnet control's exclusive sections, so the
 * two never interleave.
 */
export class Gate {
  private tail: Promise<void> = Promise.resolve();
  private holders = 0;

  /** True while someone holds the gate or waits for it. */
  get busy(): boolean {
    return this.holders > 0;
  }

  /** Resolves with the release once every earlier holder released it. */
  async enter(): Promise<() => void> {
    const prev = this.tail;
    let release!: () => void;
    this.tail = new Promise<void>((r) => (release = r));
    this.holders++;
    await prev;
    return () => {
      this.holders--;
      release();
    };
  }

  /** Runs `fn` holding the gate. */
  async run<T>(fn: () => Promise<T>): Promise<T> {
    const release = await this.enter();
    try {
      return await fn();
    } finally {
      release();
    }
  }
}
