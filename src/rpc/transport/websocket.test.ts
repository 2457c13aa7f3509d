import { afterEach, describe, expect, it } from 'vitest';
import { WebSocket, type ClientOptions } from 'ws';
import { BACKENDS, closed, nextMessage, openWs, testServer, until } from './test-helpers.js';
import type { RunningServer, WebSocketOptions, WsConnection } from './types.js';

const echo: WebSocketOptions['handlers'] = { onMessage: (c, text) => c.send(`echo:${text}`) };

describe.each(BACKENDS)('WebSocket on %s', (backend) => {
  let server: RunningServer | undefined;
  const clients: WebSocket[] = [];
  afterEach(async () => {
    for (const c of clients.splice(0)) c.terminate();
    await server?.stop();
    server = undefined;
  });
  const open = async (url: string, opts?: ClientOptions): Promise<WebSocket> => {
    const ws = await openWs(url, opts);
    clients.push(ws);
    return ws;
  };

  it('echoes text frames and reports open/close with a unique ip:port address', async () => {
    const events: string[] = [];
    const conns: WsConnection[] = [];
    server = await testServer(backend, {
      websocket: {
        path: '/websocket',
        maxPayloadBytes: 1000,
        handlers: {
          onOpen: (c) => {
            conns.push(c);
            events.push(`open:${c.path}`);
          },
          onMessage: echo.onMessage,
          onClose: (c) => events.push(`close:${c.id}`),
        },
      },
    });
    expect(server.wsUrl).toBe(`ws://127.0.0.1:${server.port}/websocket`);
    const a = await open(server.wsUrl);
    const b = await open(server.wsUrl);
    a.send('héllo');
    expect(await nextMessage(a)).toBe('echo:héllo');
    b.send(Buffer.from('binary'), { binary: true });
    expect(await nextMessage(b)).toBe('echo:binary');

    expect(conns).toHaveLength(2);
    for (const c of conns) expect(c.remoteAddress).toMatch(/^127\.0\.0\.1:\d+$/);
    expect(conns[0]!.remoteAddress).not.toBe(conns[1]!.remoteAddress);
    expect(conns[0]!.id).not.toBe(conns[1]!.id);

    a.close();
    await until(() => conns[0]!.closed);
    expect(conns[0]!.send('late')).toBe(false);
    expect(events).toEqual(['open:/websocket', 'open:/websocket', `close:${conns[0]!.id}`]);
  });

  it('serves WebSockets only on their path; other upgrades and plain GETs go to onHttp', async () => {
    server = await testServer(backend, {
      onHttp: (req) => ({ status: 404, body: `no ${req.path}` }),
      websocket: { path: '/websocket', maxPayloadBytes: 1000, handlers: echo },
    });
    await expect(openWs(`ws://127.0.0.1:${server.port}/other`)).rejects.toThrow('unexpected-response 404');
    const plain = await fetch(`${server.url}/websocket`);
    expect(plain.status).toBe(404);
    expect(await plain.text()).toBe('no /websocket');
    const ok = await open(`${server.wsUrl}?client=1`);
    ok.send('x');
    expect(await nextMessage(ok)).toBe('echo:x');
  });

  it("accepts any path with '*' and tells the handler which one", async () => {
    const paths: string[] = [];
    server = await testServer(backend, {
      websocket: { path: '*', maxPayloadBytes: 1000, handlers: { onOpen: (c) => paths.push(c.path), onMessage: echo.onMessage } },
    });
    expect(server.wsUrl).toBe(`ws://127.0.0.1:${server.port}`);
    const a = await open(`${server.wsUrl}/`);
    const b = await open(`${server.wsUrl}/any/thing`);
    b.send('y');
    expect(await nextMessage(b)).toBe('echo:y');
    expect(a.readyState).toBe(WebSocket.OPEN);
    expect(paths).toEqual(['/', '/any/thing']);
    expect((await fetch(server.url)).status).toBe(200); // plain HTTP still served
  });

  it('closes from the server side with the given code and reason', async () => {
    server = await testServer(backend, {
      websocket: { path: '*', maxPayloadBytes: 1000, handlers: { onMessage: (c, t) => c.close(4001, `bye ${t}`) } },
    });
    const ws = await open(server.wsUrl);
    const done = closed(ws);
    ws.send('now');
    expect(await done).toEqual({ code: 4001, reason: 'bye now' });
  });

  it('closes a connection that sends a frame over maxPayloadBytes, without delivering it', async () => {
    const got: string[] = [];
    server = await testServer(backend, {
      websocket: { path: '*', maxPayloadBytes: 100, handlers: { onMessage: (c, t) => got.push(t) } },
    });
    const ws = await open(server.wsUrl);
    ws.on('error', () => {});
    const done = closed(ws);
    ws.send('z'.repeat(100));
    ws.send('z'.repeat(101));
    // ws sends a 1009 close frame; uWS drops the socket without one.
    expect((await done).code).toBe(backend === 'node' ? 1009 : 1006);
    expect(got).toEqual(['z'.repeat(100)]);
  });

  it('checks the Origin of browser upgrades against allowedOrigins', async () => {
    server = await testServer(backend, {
      websocket: { path: '*', maxPayloadBytes: 1000, handlers: echo, allowedOrigins: ['localhost', 'https://app.example'] },
    });
    await open(server.wsUrl, { origin: 'http://localhost:5173' });
    await open(server.wsUrl, { origin: 'https://app.example' });
    await open(server.wsUrl); // no Origin: not a browser
    await expect(openWs(server.wsUrl, { origin: 'https://evil.example' })).rejects.toThrow('unexpected-response 403');
  });

  it('pings every pingIntervalMs and keeps answering clients open', async () => {
    server = await testServer(backend, {
      websocket: { path: '*', maxPayloadBytes: 1000, handlers: echo, pingIntervalMs: 40, idleTimeoutMs: 2000 },
    });
    const ws = await open(server.wsUrl);
    let pings = 0;
    ws.on('ping', () => pings++);
    await until(() => pings >= 3);
    expect(ws.readyState).toBe(WebSocket.OPEN);
  });

  it('terminates a client that answers nothing for idleTimeoutMs, but not one that pongs', async () => {
    const closedIds: number[] = [];
    server = await testServer(backend, {
      websocket: {
        path: '*',
        maxPayloadBytes: 1000,
        pingIntervalMs: 40,
        idleTimeoutMs: 400,
        handlers: { onMessage: () => {}, onClose: (c) => closedIds.push(c.id) },
      },
    });
    const live = await open(server.wsUrl);
    const silent = await open(server.wsUrl, { autoPong: false });
    const silentClosed = closed(silent);
    expect((await silentClosed).code).toBe(1006); // dropped, no close frame
    expect(closedIds).toHaveLength(1);
    expect(live.readyState).toBe(WebSocket.OPEN);
  });

  it('survives handlers that throw', async () => {
    server = await testServer(backend, {
      websocket: {
        path: '*',
        maxPayloadBytes: 1000,
        handlers: {
          onOpen: () => {
            throw new Error('open boom');
          },
          onMessage: (c, t) => {
            if (t === 'throw') throw new Error('message boom');
            c.send(t);
          },
        },
      },
    });
    const ws = await open(server.wsUrl);
    ws.send('throw');
    ws.send('after');
    expect(await nextMessage(ws)).toBe('after');
  });
});
