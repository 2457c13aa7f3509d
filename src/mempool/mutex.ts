/**
 * A FIFO async mutex. The block executor holds it over app Commit + mempool update, and every
 * CheckTx takes it, so a tx is never checked against half-committed state (CometBFT's updateMtx;
 * its local ABCI client also serialises all calls, which this mirrors).
 */
export class AsyncMutex {
  private held = false;
  private readonly waiters: Array<() => void> = [];

  get locked(): boolean {
    return this.held;
  }

  /** Resolves with a release function once the caller owns the lock. Releasing twice is a no-op. */
  acquire(): Promise<() => void> {
    return new Promise((resolve) => {
      const grant = (): void => {
        this.held = true;
        resolve(this.releaser());
      };
      if (this.held) this.waiters.push(grant);
      else grant();
    });
  }

  private releaser(): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.waiters.shift();
      if (next)
        next(); // hand over directly: the lock never looks free to a newcomer in between
      else this.held = false;
    };
  }
}
