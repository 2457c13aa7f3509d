/** The fuzz's WebSocket side: one message at a time on a connection, each answered or named as a failure. */
import WebSocket from 'ws';

export interface WsReply {
  /** The answer's text, or undefined when the server closed the connection instead. */
  text?: string;
  closed?: { code: number; reason: string };
  error?: string;
}

/**
 * A connection that sends one message and waits for the next message that answers a request
 * (notifications — a `method` field, or CometBFT's `…#event` ids — are only scanned, through `seen`).
 */
export class FuzzSocket {
  private ws: WebSocket | undefined;
  private waiting: ((r: WsReply) => void) | undefined;

  constructor(
    private readonly url: string,
    private readonly seen: (text: string) => void,
  ) {}

  private open(): Promise<WebSocket> {
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(this.url, { maxPayload: 256 * 1024 * 1024 });
      ws.on('open', () => resolve(ws));
      ws.on('error', (e) => {
        if (this.ws !== ws) reject(e);
        else this.settle({ error: e.message });
      });
      ws.on('message', (data, isBinary) => {
        const text = isBinary ? `<binary ${(data as Buffer).length}>` : String(data);
        this.seen(text);
        if (isNotification(text)) return;
        this.settle({ text });
      });
      ws.on('close', (code, reason) => {
        if (this.ws === ws) this.ws = undefined;
        this.settle({ closed: { code, reason: String(reason) } });
      });
      this.ws = ws;
    });
  }

  private settle(r: WsReply): void {
    const w = this.waiting;
    this.waiting = undefined;
    w?.(r);
  }

  /** Sends `text`; with `expectReply`, resolves with the reply, a close, or a timeout error. */
  async send(text: string | Buffer, expectReply: boolean, timeoutMs: number): Promise<WsReply> {
    const ws = this.ws && this.ws.readyState === WebSocket.OPEN ? this.ws : await this.open();
    return new Promise((resolve) => {
      const timer = setTimeout(() => this.settle({ error: `no reply in ${timeoutMs} ms` }), expectReply ? timeoutMs : 50);
      this.waiting = (r) => {
        clearTimeout(timer);
        resolve(expectReply || r.text === undefined ? r : { error: `a reply to a notification: ${r.text.slice(0, 80)}` });
      };
      ws.send(text, { binary: Buffer.isBuffer(text) }, (e) => {
        if (e) this.settle({ error: `send: ${e.message}` });
      });
      if (!expectReply) {
        // A notification gets no answer: waiting out the short timer is the check.
        this.waiting = (r) => {
          clearTimeout(timer);
          resolve(r.error?.startsWith('no reply') ? {} : r);
        };
      }
    });
  }

  close(): Promise<void> {
    const ws = this.ws;
    this.ws = undefined;
    if (!ws || ws.readyState === WebSocket.CLOSED) return Promise.resolve();
    return new Promise((resolve) => {
      ws.once('close', () => resolve());
      ws.terminate();
    });
  }
}

function isNotification(text: string): boolean {
  try {
    const v = JSON.parse(text) as { method?: unknown; id?: unknown; params?: { subscription?: unknown } };
    if (Array.isArray(v)) return false;
    if (typeof v?.method === 'string' && v.params?.subscription !== undefined) return true;
    return typeof v?.id === 'string' && v.id.endsWith('#event');
  } catch {
    return false;
  }
}
