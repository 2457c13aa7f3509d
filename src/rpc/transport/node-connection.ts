/** A `ws` WebSocket behind the transport's WsConnection interface. */
import type { WebSocket } from 'ws';
import { clampReason } from './context.js';
import { SLOW_CLIENT_CLOSE_CODE, slowClientReason } from './transport-errors.js';
import type { WsConnection } from './types.js';
import type { KeepAliveTarget } from './ws-keepalive.js';

/** ws's readyState for an open socket (a constant, read here without loading `ws` before its first connection). */
const OPEN = 1;

export class NodeWsConnection implements WsConnection, KeepAliveTarget {
  closed = false;
  lastSeen = performance.now();

  /**
   * `onClosed` runs once, at the first of close(), terminate() or the socket's 'close' event:
   * like uWS, the transport reports a connection closed as soon as closing starts.
   */
  constructor(
    readonly id: number,
    readonly remoteAddress: string,
    readonly path: string,
    readonly socket: WebSocket,
    private readonly maxBackpressureBytes: number,
    private readonly onClosed: (c: NodeWsConnection) => void,
  ) {}

  send(text: string): boolean {
    if (this.closed || this.socket.readyState !== OPEN) return false;
    // Over the bound, the client is not reading: close it (1008) rather than buffer more.
    if (this.socket.bufferedAmount > this.maxBackpressureBytes) {
      this.close(SLOW_CLIENT_CLOSE_CODE, slowClientReason(this.maxBackpressureBytes));
      return false;
    }
    this.socket.send(text);
    return true;
  }

  close(code = 1000, reason?: string): void {
    if (this.closed) return;
    this.markClosed();
    try {
      this.socket.close(code, clampReason(reason));
    } catch {
      // invalid close code: drop the connection instead
      this.socket.terminate();
    }
  }

  ping(): void {
    if (!this.closed && this.socket.readyState === OPEN) this.socket.ping();
  }

  terminate(): void {
    this.markClosed();
    this.socket.terminate();
  }

  /** Called for the socket's 'close' event too. */
  markClosed(): void {
    if (this.closed) return;
    this.closed = true;
    this.onClosed(this);
  }
}
