/**
 * What admin_startHTTP / stopHTTP / startWS / stopWS need of the eth server: its two listeners,
 * each one restartable on a new host and port. The server builds each listener as a
 * ManagedListener around its own `startHttpServer` options and hands both over with
 * `listenerControl(http, ws)` (see the note in docs/rpc-devnet.md).
 */
import type { RunningServer } from '../../transport/index.js';

export interface ListenerStatus {
  running: boolean;
  /** http://host:port (or ws://… for the WebSocket listener) while running. */
  url?: string;
}

export interface EthListenerControl {
  http(): ListenerStatus;
  ws(): ListenerStatus;
  /** Starts the HTTP listener (host/port default to the last ones); resolves with its URL. */
  startHttp(host?: string, port?: number): Promise<string>;
  /** Stops the HTTP listener; false when it was not running. */
  stopHttp(): Promise<boolean>;
  startWs(host?: string, port?: number): Promise<string>;
  stopWs(): Promise<boolean>;
}

export class ListenerRunningError extends Error {
  override name = 'ListenerRunningError';
  constructor(
    readonly kind: 'HTTP' | 'WebSocket',
    readonly endpoint: string,
  ) {
    // geth: "HTTP RPC already running on <endpoint>" / "WebSocket RPC already running on <endpoint>".
    super(`${kind} RPC already running on ${endpoint}`);
  }
}

/** One listener that can be stopped and started again (on the same or another address). */
export class ManagedListener {
  private server: RunningServer | undefined;
  private starting: Promise<RunningServer> | undefined;

  constructor(
    readonly kind: 'HTTP' | 'WebSocket',
    private host: string,
    private port: number,
    private readonly start: (host: string, port: number) => Promise<RunningServer>,
  ) {}

  /** Starts it (first start, or again after `stop`). */
  async open(host = this.host, port = this.port): Promise<RunningServer> {
    if (this.server) throw new ListenerRunningError(this.kind, `${this.server.host}:${this.server.port}`);
    if (this.starting) throw new ListenerRunningError(this.kind, `${host}:${port}`);
    this.starting = this.start(host, port);
    try {
      this.server = await this.starting;
      this.host = host;
      this.port = port;
      return this.server;
    } finally {
      this.starting = undefined;
    }
  }

  async close(): Promise<boolean> {
    const s = this.server;
    if (!s) return false;
    this.server = undefined;
    await s.stop();
    return true;
  }

  get current(): RunningServer | undefined {
    return this.server;
  }

  status(): ListenerStatus {
    const s = this.server;
    if (!s) return { running: false };
    return { running: true, url: this.kind === 'HTTP' ? s.url : s.wsUrl };
  }
}

export function listenerControl(http: ManagedListener, ws: ManagedListener): EthListenerControl {
  return {
    http: () => http.status(),
    ws: () => ws.status(),
    startHttp: async (host, port) => (await http.open(host, port)).url,
    stopHttp: () => http.close(),
    startWs: async (host, port) => (await ws.open(host, port)).wsUrl,
    stopWs: () => ws.close(),
  };
}
