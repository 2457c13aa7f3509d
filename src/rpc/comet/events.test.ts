/**
 * subscribe's delivery path with a fake WebSocket session: events wait for the `{}` answer, a
 * write refused by backpressure is dropped (or, with experimental_close_on_slow_client, ends the
 * subscription with CometBFT's -32000 text), and node-side cancels reach the client.
 */
import { pino } from 'pino';
import { describe, expect, it, vi } from 'vitest';
import { defaultConfig } from '../../config/defaults.js';
import { EventBus } from '../../events/bus.js';
import type { CallContext, WsSession } from './context.js';
import type { CometEnv } from './env.js';
import { subscribe } from './events.js';

class FakeSession implements WsSession {
  readonly sent: string[] = [];
  /** When false, every send is refused as a full write buffer would be. */
  accepting = true;
  closed = false;
  private hooks: (() => void)[] = [];

  send(text: string): boolean {
    if (!this.accepting || this.closed) return false;
    this.sent.push(text);
    return true;
  }

  afterResponse(fn: () => void): void {
    this.hooks.push(fn);
  }

  /** What the ws handler does once the call's response is written. */
  responseWritten(): void {
    for (const fn of this.hooks.splice(0)) fn();
  }

  parsed(): any[] {
    return this.sent.map((s) => JSON.parse(s));
  }
}

function setup(closeOnSlowClient: boolean) {
  const bus = new EventBus();
  const rpc = { ...defaultConfig().rpc, experimentalCloseOnSlowClient: closeOnSlowClient };
  const env = { config: rpc, eventBus: bus, logger: pino({ level: 'silent' }) } as unknown as CometEnv;
  const ws = new FakeSession();
  const ctx: CallContext = { remoteAddr: '10.0.0.1:5555', transport: 'ws', id: 7, ws, signal: new AbortController().signal };
  const step = (height: number) => bus.publish('NewRoundStep', { height, round: 0, step: 'RoundStepPropose' });
  return { bus, env, ws, ctx, step };
}

const QUERY = "tm.event = 'NewRoundStep'";

describe('subscribe delivery', () => {
  it('holds events until the {} answer is written, then streams them under the call id', () => {
    const { env, ws, ctx, step } = setup(false);
    expect(subscribe(env, ctx, QUERY)).toEqual({});
    step(1);
    expect(ws.sent).toEqual([]);
    ws.responseWritten();
    step(2);
    const msgs = ws.parsed();
    expect(msgs.map((m) => m.result.data.value.height)).toEqual(['1', '2']);
    expect(msgs[0]).toEqual({
      jsonrpc: '2.0',
      id: 7,
      result: {
        query: QUERY,
        data: { type: 'tendermint/event/RoundState', value: { height: '1', round: 0, step: 'RoundStepPropose' } },
        events: { 'tm.event': ['NewRoundStep'] },
      },
    });
  });

  it('drops an event a slow client cannot take and keeps the subscription (default)', () => {
    const { bus, env, ws, ctx, step } = setup(false);
    subscribe(env, ctx, QUERY);
    ws.responseWritten();
    ws.accepting = false;
    step(1);
    ws.accepting = true;
    step(2);
    expect(ws.parsed().map((m) => m.result.data.value.height)).toEqual(['2']);
    expect(bus.numClientSubscriptions(ctx.remoteAddr)).toBe(1);
  });

  it('ends the subscription of a slow client with -32000 when experimental_close_on_slow_client is set', () => {
    const { bus, env, ws, ctx, step } = setup(true);
    subscribe(env, ctx, QUERY);
    ws.responseWritten();
    // Only the event write fails; the cancel notice gets through (as TryWriteRPCResponse may).
    let refused = 0;
    const send = ws.send.bind(ws);
    ws.send = (text) => (text.includes('"result"') ? (refused++, false) : send(text));
    step(1);
    expect(refused).toBe(1);
    expect(ws.parsed()).toEqual([
      { jsonrpc: '2.0', id: 7, error: { code: -32000, message: 'Server error', data: 'subscription was canceled (reason: slow client)' } },
    ]);
    expect(bus.numClientSubscriptions(ctx.remoteAddr)).toBe(0);
    step(2);
    expect(refused).toBe(1);
  });

  it('tells the client when the node cancels, but not after its own unsubscribe', () => {
    const a = setup(false);
    subscribe(a.env, a.ctx, QUERY);
    a.ws.responseWritten();
    a.bus.unsubscribe(a.ctx.remoteAddr, QUERY);
    expect(a.ws.sent).toEqual([]);

    const b = setup(false);
    subscribe(b.env, b.ctx, QUERY);
    b.ws.responseWritten();
    b.bus.close();
    expect(b.ws.parsed()).toEqual([
      { jsonrpc: '2.0', id: 7, error: { code: -32000, message: 'Server error', data: 'subscription was canceled (reason: CometBFT exited)' } },
    ]);
  });

  it('encodes an event once for every subscriber, each envelope the bytes of the whole object', () => {
    const { env, step } = setup(false);
    const sessions = [0, 1, 2].map((i) => {
      const ws = new FakeSession();
      const ctx: CallContext = {
        remoteAddr: `10.0.0.${i + 2}:5555`,
        transport: 'ws',
        id: i === 1 ? 'sub-"1"' : 100 + i,
        ws,
        signal: new AbortController().signal,
      };
      subscribe(env, ctx, QUERY);
      ws.responseWritten();
      return { ws, ctx };
    });
    const stringify = vi.spyOn(JSON, 'stringify');
    try {
      step(9);
      expect(stringify).toHaveBeenCalledTimes(1);
    } finally {
      stringify.mockRestore();
    }
    const texts = sessions.map((s) => s.ws.sent);
    for (const [i, { ctx }] of sessions.entries()) {
      expect(texts[i]).toHaveLength(1);
      const data = { type: 'tendermint/event/RoundState', value: { height: '9', round: 0, step: 'RoundStepPropose' } };
      expect(texts[i]![0]).toBe(JSON.stringify({ jsonrpc: '2.0', id: ctx.id, result: { query: QUERY, data, events: { 'tm.event': ['NewRoundStep'] } } }));
    }
    // The result text is the same for all: only the id differs.
    const resultOf = (t: string) => t.slice(t.indexOf(',"result":'));
    expect(resultOf(texts[1]![0]!)).toBe(resultOf(texts[0]![0]!));
    expect(resultOf(texts[2]![0]!)).toBe(resultOf(texts[0]![0]!));
  });
});
