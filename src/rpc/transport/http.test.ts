import { STATUS_CODES } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { startHttpServer } from './server.js';
import { ListenError } from './errors.js';
import { COMMON_REASONS, statusLine } from './pipeline.js';
import { BACKENDS, rawHttp, testServer } from './test-helpers.js';
import type { HttpRequest, RunningServer } from './types.js';

describe.each(BACKENDS)('HTTP on %s', (backend) => {
  let server: RunningServer | undefined;
  afterEach(async () => {
    await server?.stop();
    server = undefined;
  });

  it('runs on the requested backend, on an OS-picked port', async () => {
    server = await testServer(backend, {});
    expect(server.backend).toBe(backend);
    expect(server.port).toBeGreaterThan(0);
    expect(server.url).toBe(`http://127.0.0.1:${server.port}`);
    expect(server.wsUrl).toBe(`ws://127.0.0.1:${server.port}`);
  });

  it('hands GET requests to onHttp with path, query, lower-case headers and client address', async () => {
    const seen: HttpRequest[] = [];
    server = await testServer(backend, {
      onHttp: (req) => {
        seen.push(req);
        return { status: 202, headers: { 'content-type': 'text/plain', 'X-Custom': 'yes' }, body: 'hello' };
      },
    });
    const res = await fetch(`${server.url}/status/x?height=5&q=a%20b`, { headers: { 'X-Trace': 'abc' } });
    expect(res.status).toBe(202);
    expect(res.headers.get('x-custom')).toBe('yes');
    expect(await res.text()).toBe('hello');
    const req = seen[0]!;
    expect(req.method).toBe('GET');
    expect(req.path).toBe('/status/x');
    expect(req.rawQuery).toBe('height=5&q=a%20b');
    expect(req.query.get('height')).toBe('5');
    expect(req.query.get('q')).toBe('a b');
    expect(req.headers['x-trace']).toBe('abc');
    expect(req.body.byteLength).toBe(0);
    expect(req.remoteAddress).toBe('127.0.0.1');
  });

  it('delivers POST bodies byte for byte and answers asynchronously', async () => {
    server = await testServer(backend, {
      onHttp: async (req) => {
        await new Promise((r) => setTimeout(r, 5));
        return { status: 200, headers: { 'content-type': 'application/octet-stream' }, body: Uint8Array.from(req.body).reverse() };
      },
    });
    const sent = Uint8Array.from({ length: 70_000 }, (_, i) => i % 251);
    const res = await fetch(server.url, { method: 'POST', body: sent });
    const got = Buffer.from(await res.arrayBuffer());
    expect(got.length).toBe(sent.length);
    expect(got.equals(Buffer.from(Uint8Array.from(sent).reverse()))).toBe(true);
  });

  it('reads chunked request bodies', async () => {
    server = await testServer(backend, { onHttp: (req) => ({ status: 200, body: Buffer.from(req.body).toString() }) });
    const res = await rawHttp(server.port, 'POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n4\r\ndefg\r\n0\r\n\r\n');
    expect(res.status).toBe(200);
    expect(res.body).toBe('abcdefg');
  });

  it('computes Content-Length itself and answers HEAD without a body', async () => {
    server = await testServer(backend, { onHttp: () => ({ status: 200, headers: { 'content-length': '999' }, body: 'four' }) });
    const get = await rawHttp(server.port, 'GET / HTTP/1.1\r\nHost: x\r\n\r\n');
    expect(get.headers['content-length']).toBe('4');
    expect(get.body).toBe('four');
    const head = await fetch(server.url, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
  });

  it('turns a throwing or rejecting handler into 500 {"error":"internal error"} and logs it', async () => {
    const logged: string[] = [];
    const logger = { info: () => {}, warn: () => {}, error: (_o: object, msg: string) => logged.push(msg) };
    server = await testServer(backend, {
      logger: logger as never,
      onHttp: (req) => {
        if (req.path === '/sync') throw new Error('boom');
        if (req.path === '/async') return Promise.reject(new Error('late boom'));
        return { status: 200, body: 'fine' };
      },
    });
    for (const path of ['/sync', '/async']) {
      const res = await fetch(server.url + path);
      expect(res.status).toBe(500);
      expect(res.headers.get('content-type')).toBe('application/json');
      expect(await res.json()).toEqual({ error: 'internal error' });
    }
    expect(logged).toEqual(['http handler failed', 'http handler failed']);
    // The server is still fine afterwards.
    expect(await (await fetch(server.url + '/ok')).text()).toBe('fine');
  });

  it('answers 500 instead of writing a malformed response (header injection, bad body)', async () => {
    server = await testServer(backend, {
      onHttp: (req) =>
        req.path === '/inject'
          ? { status: 200, headers: { 'x-a': 'ok\r\nSet-Cookie: evil=1' }, body: 'x' }
          : ({ status: 200, body: { not: 'bytes' } } as never),
    });
    for (const path of ['/inject', '/body']) {
      const res = await rawHttp(server.port, `GET ${path} HTTP/1.1\r\nHost: x\r\n\r\n`);
      expect(res.status).toBe(500);
      expect(res.headers['set-cookie']).toBeUndefined();
    }
  });

  it('keeps one connection alive across requests', async () => {
    server = await testServer(backend, { onHttp: (req) => ({ status: 200, body: req.path }) });
    const res = await rawHttp(server.port, 'GET /a HTTP/1.1\r\nHost: x\r\n\r\nGET /b HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    expect(res.raw).toMatch(/\r\n\r\n\/a/);
    expect(res.raw).toMatch(/\r\n\r\n\/b$/);
  });

  it('fails with ListenError when the port is taken', async () => {
    server = await testServer(backend, {});
    const port = server.port;
    await expect(
      startHttpServer({
        host: '127.0.0.1',
        port,
        backend,
        maxBodyBytes: 1,
        maxHeaderBytes: 1000,
        maxOpenConnections: 0,
        onHttp: () => ({ status: 200, body: '' }),
      }),
    ).rejects.toBeInstanceOf(ListenError);
  });
});

describe('status lines', () => {
  it("use node:http's reason phrases, from a table for the common statuses and from node:http for the rest", () => {
    for (const [code, reason] of Object.entries(COMMON_REASONS)) expect(reason, code).toBe(STATUS_CODES[code]);
    expect(statusLine(200)).toBe('200 OK');
    expect(statusLine(418)).toBe(`418 ${STATUS_CODES[418]}`);
    expect(statusLine(599)).toBe('599 Unknown');
  });
});
