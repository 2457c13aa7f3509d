/** A uWS WebSocket behind the transport's WsConnection interface. */
import type { WebSocket } from '@trufflesuite/uws-js-unofficial';
import { clampReason } from './context.js';
import { SLOW_CLIENT_CLOSE_CODE, slowClientReason } from './transport-errors.js';
import type { WsConnection } from './types.js';
import type { KeepAliveTarget } from './ws-keepalive.js';

export interface UwsUserData {
  path: string;
  conn?: UwsWsConnection;
}

/** uWS send() results. */
const DROPPED = 2;

export class UwsWsConnection implements WsConnection, KeepAliveTarget {
  /** Set by the server's close handler; every uWS call after that would throw. */
  closed = false;
  lastSeen = performance.now();

  constructor(
    readonly id: number,
    readonly remoteAddress: string,
    readonly path: string,
    private readonly ws: WebSocket<UwsUserData>,
    private readonly maxBackpressureBytes: number,
  ) {}

  /** Over the bound, the client is not reading: close it (1008) rather than buffer more. */
  send(text: string): boolean {
    if (this.closed) return false;
    if (this.ws.getBufferedAmount() > this.maxBackpressureBytes || this.ws.send(text, false, false) === DROPPED) {
      this.close(SLOW_CLIENT_CLOSE_CODE, slowClientReason(this.maxBackpressureBytes));
      return false;
    }
    return true;
  }

  /** uWS runs the close handler synchronously inside end(), so `closed` is true on return. */
  close(code = 1000, reason?: string): void {
    if (this.closed) return;
    try {
      this.ws.end(code, clampReason(reason));
    } catch {
      this.terminate();
    }
  }

  ping(): void {
    if (!this.closed) this.ws.ping();
  }

  terminate(): void {
    if (!this.closed) this.ws.close();
  }
}
