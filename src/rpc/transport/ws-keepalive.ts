/**
 * WebSocket liveness, done the same way on both backends (uWS's own idle timer has a 4 s
 * granularity and cannot ping on a schedule): one timer per server pings every open connection
 * each `pingIntervalMs`, and terminates a connection that has sent nothing, not even a pong,
 * for `idleTimeoutMs` (CometBFT: ping 27 s, read deadline 30 s).
 */

export interface KeepAliveTarget {
  /** performance.now() of the last frame received (message or pong). */
  lastSeen: number;
  readonly closed: boolean;
  ping(): void;
  /** Drop the connection without a close handshake: the peer is not answering anyway. */
  terminate(): void;
}

export const DEFAULT_PING_INTERVAL_MS = 27_000;
/** Extra time after a ping for the pong to arrive, as CometBFT's 30 s read wait vs 27 s ping. */
export const PONG_GRACE_MS = 3_000;

export class WsKeepAlive {
  private readonly targets = new Set<KeepAliveTarget>();
  private timer: NodeJS.Timeout | undefined;

  constructor(
    readonly pingIntervalMs: number,
    /** 0 = never close idle connections. */
    readonly idleTimeoutMs: number,
  ) {}

  add(t: KeepAliveTarget): void {
    this.targets.add(t);
    if (!this.timer && this.pingIntervalMs > 0) {
      this.timer = setInterval(() => this.tick(), this.pingIntervalMs);
      // The listen socket keeps the process alive; this timer alone must not.
      this.timer.unref();
    }
  }

  delete(t: KeepAliveTarget): void {
    this.targets.delete(t);
    if (this.targets.size === 0) this.clearTimer();
  }

  stop(): void {
    this.targets.clear();
    this.clearTimer();
  }

  private clearTimer(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }

  private tick(): void {
    const now = performance.now();
    for (const t of this.targets) {
      if (t.closed) {
        this.targets.delete(t);
      } else if (this.idleTimeoutMs > 0 && now - t.lastSeen > this.idleTimeoutMs) {
        this.targets.delete(t);
        t.terminate();
      } else {
        t.ping();
      }
    }
    if (this.targets.size === 0) this.clearTimer();
  }
}
