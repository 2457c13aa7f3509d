/**
 * Fixtures for the CometBFT RPC tests: a devnet with its node RPC on an OS-chosen port, raw HTTP
 * and WebSocket helpers, and a wait for a subscription to reach the event bus.
 */
import WebSocket from 'ws';
import type { DeepPartial, NodeConfig } from '../../src/config/types.js';
import type { ChainletNode } from '../../src/node/node.js';
import { startCometRpc } from '../../src/node/rpc-comet.js';
import type { CometRpcOptions } from '../../src/rpc/comet/server.js';
import { startTestNode } from '../helpers/node.js';

export { signTransfer, DEV } from '../helpers/txs.js';

export interface CometTestNode {
  node: ChainletNode;
  /** http://127.0.0.1:port */
  url: string;
  /** ws://127.0.0.1:port (cosmjs adds /websocket) */
  wsBase: string;
  /** ws://127.0.0.1:port/websocket */
  wsUrl: string;
  stop(): Promise<void>;
}

/** A devnet plus its CometBFT RPC (the node's own when it starts one, else a dedicated one). */
export async function startCometTestNode(opts: { config?: DeepPartial<NodeConfig>; rpc?: CometRpcOptions } = {}): Promise<CometTestNode> {
  const node = await startTestNode({ config: opts.config });
  let url = node.urls.rpc;
  let stopRpc = async (): Promise<void> => {};
  if (!url || opts.rpc) {
    const rpc = await startCometRpc(node, opts.rpc);
    url = rpc.url;
    stopRpc = () => rpc.stop();
  }
  const wsBase = url.replace(/^http/, 'ws');
  return {
    node,
    url,
    wsBase,
    wsUrl: `${wsBase}/websocket`,
    async stop() {
      await stopRpc();
      await node.stop();
    },
  };
}

export interface RawResponse {
  status: number;
  headers: Headers;
  text: string;
  /** Parsed body (undefined when it is not JSON). */
  json: any;
}

async function toRaw(r: Response): Promise<RawResponse> {
  const text = await r.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: r.status, headers: r.headers, text, json };
}

export async function get(base: string, path: string): Promise<RawResponse> {
  return toRaw(await fetch(base + path));
}

export async function post(
  base: string,
  body: unknown,
  path = '/',
  headers: Record<string, string> = { 'content-type': 'application/json' },
): Promise<RawResponse> {
  return toRaw(await fetch(base + path, { method: 'POST', headers, body: typeof body === 'string' ? body : JSON.stringify(body) }));
}

/** One JSON-RPC call over HTTP; returns the parsed envelope. */
export async function call(base: string, method: string, params: unknown = {}, id: number | string = 1): Promise<any> {
  return (await post(base, { jsonrpc: '2.0', id, method, params })).json;
}

export const b64 = (b: Uint8Array) => Buffer.from(b).toString('base64');

/** A raw WebSocket client that queues every message it receives. */
export class WsProbe {
  readonly messages: any[] = [];
  private waiters: { pred: (m: any) => boolean; resolve: (m: any) => void }[] = [];
  readonly closed: Promise<{ code: number }>;

  private constructor(readonly socket: WebSocket) {
    socket.on('message', (data) => {
      const m = JSON.parse(String(data));
      const w = this.waiters.find((x) => x.pred(m));
      if (w) {
        this.waiters.splice(this.waiters.indexOf(w), 1);
        w.resolve(m);
      } else this.messages.push(m);
    });
    this.closed = new Promise((resolve) => socket.on('close', (code) => resolve({ code })));
  }

  static async open(url: string): Promise<WsProbe> {
    const socket = new WebSocket(url);
    await new Promise<void>((resolve, reject) => {
      socket.once('open', () => resolve());
      socket.once('error', reject);
    });
    return new WsProbe(socket);
  }

  send(msg: unknown): void {
    this.socket.send(typeof msg === 'string' ? msg : JSON.stringify(msg));
  }

  /** The next message matching `pred` (already received or still to come). */
  next(pred: (m: any) => boolean = () => true, timeoutMs = 10_000): Promise<any> {
    const i = this.messages.findIndex(pred);
    if (i >= 0) return Promise.resolve(this.messages.splice(i, 1)[0]);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no matching WebSocket message within ${timeoutMs} ms`)), timeoutMs);
      this.waiters.push({
        pred,
        resolve: (m) => {
          clearTimeout(timer);
          resolve(m);
        },
      });
    });
  }

  /** Sends a call and waits for the response with its id. */
  async call(id: number | string, method: string, params: unknown = {}): Promise<any> {
    this.send({ jsonrpc: '2.0', id, method, params });
    return this.next((m) => m.id === id && ('result' in m || 'error' in m) && !isEvent(m));
  }

  close(): Promise<{ code: number }> {
    this.socket.close();
    return this.closed;
  }
}

/** An event message (result with `data`) rather than a call's response. */
export function isEvent(m: any): boolean {
  return m?.result !== undefined && m.result !== null && typeof m.result === 'object' && 'data' in m.result && 'events' in m.result;
}

/** Resolves once the event bus holds at least `n` subscriptions in total across clients. */
export async function waitForSubscribers(node: ChainletNode, n: number, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (node.internals.eventBus.numClients() < n) {
    if (Date.now() > deadline) throw new Error(`fewer than ${n} subscribers after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 10));
  }
}
