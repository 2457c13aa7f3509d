import { afterEach, describe, expect, it } from 'vitest';
import type { WebSocket } from 'ws';
import { BACKENDS, closed, openWs, testServer } from './test-helpers.js';
import { SLOW_CLIENT_CLOSE_CODE } from './transport-errors.js';
import type { RunningServer, WsConnection } from './types.js';

/** The underlying TCP socket of a `ws` client, to stop reading from it. */
function tcp(ws: WebSocket): { pause(): void; resume(): void } {
  return (ws as unknown as { _socket: { pause(): void; resume(): void } })._socket;
}

describe.each(BACKENDS)('slow WebSocket clients on %s', (backend) => {
  let server: RunningServer | undefined;
  const clients: WebSocket[] = [];
  afterEach(async () => {
    for (const c of clients.splice(0)) c.terminate();
    await server?.stop();
    server = undefined;
  });

  it('closes a client that stops reading once its queue passes the bound (1008), and keeps serving the others', async () => {
    const conns: WsConnection[] = [];
    const closedIds: number[] = [];
    server = await testServer(backend, {
      websocket: {
        path: '/ws',
        maxPayloadBytes: 1000,
        maxBackpressureBytes: 64 * 1024,
        handlers: { onOpen: (c) => conns.push(c), onMessage: () => undefined, onClose: (c) => closedIds.push(c.id) },
      },
    });
    const slow = await openWs(server.wsUrl);
    const fast = await openWs(server.wsUrl);
    clients.push(slow, fast);
    let fastGot = 0;
    fast.on('message', () => fastGot++);
    tcp(slow).pause();
    const slowClosed = closed(slow);
    const [slowConn, fastConn] = conns;
    // Push until the server gives up on the slow one (kernel buffers first, then the bound).
    const msg = 'x'.repeat(8192);
    let sent = 0;
    while (!slowConn!.closed && sent < 20_000) {
      slowConn!.send(msg);
      fastConn!.send(msg);
      sent++;
      await new Promise((r) => setImmediate(r));
    }
    expect(slowConn!.closed).toBe(true);
    expect(slowConn!.send('more')).toBe(false);
    expect(closedIds).toEqual([slowConn!.id]);
    tcp(slow).resume();
    const { code, reason } = await slowClosed;
    expect(code).toBe(SLOW_CLIENT_CLOSE_CODE);
    expect(reason).toBe('slow client: over 65536 bytes waiting to be sent');
    // The reading client got every message and is still served.
    await new Promise<void>((resolve) => {
      const check = (): void => (fastGot >= sent ? resolve() : void fast.once('message', check));
      check();
    });
    expect(fastConn!.send('still here')).toBe(true);
    expect((await fetch(server.url)).status).toBe(200);
  });
});
