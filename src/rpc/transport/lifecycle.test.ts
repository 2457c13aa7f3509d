import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { WebSocket } from 'ws';
import { BACKENDS, closed, openWs, rawHttp, testServer, until } from './test-helpers.js';
import type { RunningServer } from './types.js';

const MALFORMED = [
  'garbage\r\n\r\n',
  'GET\r\n\r\n',
  'GET / HTTP/9.9\r\n\r\n',
  'POST / HTTP/1.1\r\nContent-Length: abc\r\n\r\n',
  'POST / HTTP/1.1\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\nhello',
  'GET / HTTP/1.1\r\nBad Header\r\n\r\n',
  'GET / HTTP/1.1\r\n\x00\x01\x02\r\n\r\n',
  'POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n',
  '\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03', // a TLS ClientHello on the plain port
  'GET /websocket HTTP/1.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: short\r\n\r\n',
];

describe.each(BACKENDS)('lifecycle on %s', (backend) => {
  let server: RunningServer | undefined;
  afterEach(async () => {
    await server?.stop();
    server = undefined;
  });

  it('stop() closes WebSocket clients with 1001, lets in-flight requests finish, then refuses connections', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let entered = false;
    const s = await testServer(backend, {
      onHttp: async () => {
        entered = true;
        await gate;
        return { status: 200, body: 'finished' };
      },
      websocket: { path: '/websocket', maxPayloadBytes: 1000, handlers: { onMessage: () => {} } },
    });
    const a = await openWs(s.wsUrl);
    const b = await openWs(s.wsUrl);
    const closings = [closed(a), closed(b)];
    const slow = fetch(s.url, { method: 'POST', body: 'x' });
    await until(() => entered);

    const stopping = s.stop();
    for (const c of await Promise.all(closings)) expect(c).toEqual({ code: 1001, reason: 'server shutting down' });
    release();
    const res = await slow;
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('finished');
    await stopping;
    expect(s.stop()).toBe(stopping); // idempotent
    await expect(fetch(s.url)).rejects.toThrow();
  });

  it('stop() with no WebSocket open and nothing in flight takes no grace period', async () => {
    const s = await testServer(backend, { onHttp: async () => ({ status: 200, body: 'ok' }) });
    expect(await (await fetch(s.url, { method: 'POST', body: 'x' })).text()).toBe('ok');
    // With setTimeout faked, a stop that armed a grace timer would never end; loop turns are real.
    vi.useFakeTimers({ toFake: ['setTimeout'] });
    try {
      let done = false;
      const stopping = s.stop().then(() => (done = true));
      for (let i = 0; i < 50 && !done; i++) await new Promise((r) => setImmediate(r));
      expect(done).toBe(true);
      await stopping;
    } finally {
      vi.useRealTimers();
    }
    await expect(fetch(s.url)).rejects.toThrow();
  });

  it('stop() does not wait forever for a handler that never answers', async () => {
    const s = await testServer(backend, { shutdownTimeoutMs: 100, onHttp: () => new Promise(() => {}) });
    const hung = rawHttp(s.port, 'GET / HTTP/1.1\r\nHost: x\r\n\r\n', 5000);
    await until(() => s.connections() > 0);
    const started = Date.now();
    await s.stop();
    expect(Date.now() - started).toBeLessThan(2000);
    expect((await hung).status).toBe(0); // cut off
  });

  it('keeps serving after several hundred malformed requests', async () => {
    server = await testServer(backend, {
      onHttp: (req) => ({ status: 200, body: `good ${req.path}` }),
      websocket: { path: '/websocket', maxPayloadBytes: 1000, handlers: { onMessage: () => {} } },
    });
    const port = server.port;
    // 300 in all, 100 at a time. uWS leaves some of them open (until its idle timeout) rather
    // than answering 400 as node does, so each one gets a short wait only.
    for (let round = 0; round < 3; round++) {
      const wave = Array.from({ length: 100 }, (_, i) => rawHttp(port, MALFORMED[i % MALFORMED.length]!, 300));
      await Promise.all(wave);
    }
    const res = await fetch(`${server.url}/after`);
    expect(await res.text()).toBe('good /after');
    const ws = await openWs(server.wsUrl);
    expect(ws.readyState).toBe(WebSocket.OPEN);
    ws.terminate();
  });
});

// Vitest must exit by itself, so stop() must leave no handle behind: checked in a fresh process.
const EXIT_SCRIPT = `
const { startHttpServer } = await import(process.env.SERVER_MODULE);
const { WebSocket } = await import('ws');
const backend = process.env.BACKEND;
const s = await startHttpServer({
  host: '127.0.0.1', port: 0, backend, maxBodyBytes: 1000, maxHeaderBytes: 8000, maxOpenConnections: 0,
  requestTimeoutMs: 5000, onHttp: () => ({ status: 200, body: 'ok' }),
  websocket: { path: '*', maxPayloadBytes: 1000, pingIntervalMs: 1000, handlers: { onMessage: () => {} } },
});
await (await fetch(s.url)).text(); // leaves a keep-alive connection open
const ws = new WebSocket(s.wsUrl);
await new Promise((r) => ws.on('open', r));
await s.stop();
console.log('stopped ' + s.backend);
`;

describe('process exit', () => {
  it.each(BACKENDS)('a process that starts and stops a %s server with open clients exits by itself', async (backend) => {
    const root = fileURLToPath(new URL('../../../', import.meta.url));
    const serverModule = fileURLToPath(new URL('./server.ts', import.meta.url));
    const result = await new Promise<{ code: number | null; stdout: string }>((resolve) => {
      let stdout = '';
      const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', EXIT_SCRIPT], {
        cwd: root,
        env: { ...process.env, BACKEND: backend, SERVER_MODULE: serverModule },
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      const killer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
      child.on('exit', (code) => {
        clearTimeout(killer);
        resolve({ code, stdout });
      });
    });
    expect(result.stdout).toContain(`stopped ${backend}`);
    expect(result.code).toBe(0);
  });
});
