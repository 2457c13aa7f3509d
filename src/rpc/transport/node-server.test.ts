/**
 * An idle node:http server runs no timer: node's interval that looks for requests past their
 * timeouts is stopped while no connection is open and started again with the next one (the 408s
 * themselves: limits.test.ts).
 */
import { createServer, type Server } from 'node:http';
import { connect } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { testServer } from './test-helpers.js';
import { connectionChecks } from './node-server.js';
import type { RunningServer } from './types.js';

type Interval = { _destroyed: boolean; _repeat: number | null; hasRef(): boolean };
const intervalOf = (s: Server): Interval => {
  const key = Object.getOwnPropertySymbols(s).find((k) => k.description === 'http.server.connectionsCheckingInterval')!;
  return (s as unknown as Record<symbol, Interval>)[key];
};

let plain: Server | undefined;
let running: RunningServer | undefined;
afterEach(async () => {
  await new Promise<void>((r) => (plain ? plain.close(() => r()) : r()));
  plain = undefined;
  await running?.stop();
  running = undefined;
});

describe('the node:http backend while idle', () => {
  it('stops node’s connection-check interval while no connection is open, and restarts it (same period, unref’d) for the next', async () => {
    const s = (plain = createServer({ connectionsCheckingInterval: 1000 }));
    await new Promise<void>((r) => s.listen(0, '127.0.0.1', () => r()));
    const first = intervalOf(s);
    expect(first._destroyed).toBe(false);
    const checks = connectionChecks(s);
    checks.pause();
    expect(first._destroyed).toBe(true);
    checks.resume();
    const next = intervalOf(s);
    expect(next).not.toBe(first);
    expect(next._destroyed).toBe(false);
    expect(next._repeat).toBe(1000);
    expect(next.hasRef()).toBe(false);
    await new Promise<void>((r) => s.close(() => r()));
    plain = undefined;
    expect(next._destroyed).toBe(true);
  });

  it('answers after an idle stretch: a connection restarts the checks and the request is served', async () => {
    running = await testServer('node', { requestTimeoutMs: 200 });
    const port = running.port;
    const text = await new Promise<string>((resolve, reject) => {
      const sock = connect(port, '127.0.0.1', () => sock.end('GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n'));
      let out = '';
      sock.on('data', (d) => (out += d.toString('latin1')));
      sock.on('close', () => resolve(out));
      sock.on('error', reject);
    });
    expect(text.startsWith('HTTP/1.1 200')).toBe(true);
  });
});
