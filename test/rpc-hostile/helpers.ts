/**
 * Raw HTTP and WebSocket clients for hostile-input tests: bodies are sent as given (not
 * re-encoded), so invalid ids, prototype names and deep nesting reach the server unchanged.
 */
import WebSocket from 'ws';

/** `[[[…]]]`, n levels. */
export const nested = (n: number): string => '['.repeat(n) + ']'.repeat(n);

/** The names every plain object answers from Object.prototype. */
export const PROTOTYPE_NAMES = ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf'] as const;

export interface RawReply {
  status: number;
  text: string;
  /** The parsed body, or undefined when it is not JSON. */
  json: any;
}

function parsed(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

export async function postRaw(url: string, body: string, contentType = 'application/json'): Promise<RawReply> {
  const r = await fetch(url, { method: 'POST', headers: { 'content-type': contentType }, body });
  const text = await r.text();
  return { status: r.status, text, json: parsed(text) };
}

export async function getRaw(url: string): Promise<RawReply> {
  const r = await fetch(url);
  const text = await r.text();
  return { status: r.status, text, json: parsed(text) };
}

/** One WebSocket connection that answers each sent frame with the next frame received. */
export class RawWs {
  private readonly queue: string[] = [];
  private waiting: ((text: string) => void) | undefined;
  private constructor(private readonly ws: WebSocket) {
    ws.on('message', (data) => {
      const text = data.toString();
      const w = this.waiting;
      if (w) {
        this.waiting = undefined;
        w(text);
      } else this.queue.push(text);
    });
  }

  static open(url: string): Promise<RawWs> {
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(url);
      ws.once('open', () => resolve(new RawWs(ws)));
      ws.once('error', reject);
    });
  }

  /** Sends `text` and resolves with the next frame (rejects if the socket closes first). */
  ask(text: string): Promise<RawReply> {
    return new Promise((resolve, reject) => {
      const done = (t: string) => {
        this.ws.off('close', onClose);
        resolve({ status: 0, text: t, json: parsed(t) });
      };
      const onClose = () => reject(new Error('websocket closed without an answer'));
      this.ws.once('close', onClose);
      const queued = this.queue.shift();
      if (queued !== undefined) done(queued);
      else this.waiting = done;
      this.ws.send(text);
    });
  }

  close(): Promise<void> {
    return new Promise((resolve) => {
      if (this.ws.readyState === WebSocket.CLOSED) return resolve();
      this.ws.once('close', () => resolve());
      this.ws.close();
    });
  }
}
