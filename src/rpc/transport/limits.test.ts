import { afterEach, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { BACKENDS, closed, openWs, rawHttp, testServer, until } from './test-helpers.js';
import { jsonRpcTransportError } from './transport-errors.js';
import type { RunningServer } from './types.js';

describe.each(BACKENDS)('limits on %s', (backend) => {
  let server: RunningServer | undefined;
  const clients: WebSocket[] = [];
  afterEach(async () => {
    for (const c of clients.splice(0)) c.terminate();
    await server?.stop();
    server = undefined;
  });

  describe('maxBodyBytes', () => {
    it('accepts a body exactly at the limit', async () => {
      server = await testServer(backend, { maxBodyBytes: 1000, onHttp: (req) => ({ status: 200, body: String(req.body.length) }) });
      const res = await fetch(server.url, { method: 'POST', body: 'x'.repeat(1000) });
      expect(res.status).toBe(200);
      expect(await res.text()).toBe('1000');
    });

    it('answers 413 in the family form (formatTransportError), without calling the handler', async () => {
      let calls = 0;
      server = await testServer(backend, {
        maxBodyBytes: 1000,
        formatTransportError: jsonRpcTransportError,
        onHttp: () => {
          calls++;
          return { status: 200, body: 'ok' };
        },
      });
      const res = await fetch(server.url, { method: 'POST', body: 'x'.repeat(1001) });
      expect(res.status).toBe(413);
      expect(res.headers.get('content-type')).toBe('application/json');
      expect(await res.json()).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32600, message: 'request body too large (max 1000 bytes)' } });
      expect(calls).toBe(0);
    });

    it('defaults to a plain-text 413', async () => {
      server = await testServer(backend, { maxBodyBytes: 10 });
      const res = await fetch(server.url, { method: 'POST', body: 'x'.repeat(11) });
      expect(res.status).toBe(413);
      expect(await res.text()).toBe('request body too large (max 10 bytes)\n');
    });

    it('falls back to plain text when the formatter throws', async () => {
      server = await testServer(backend, {
        maxBodyBytes: 10,
        formatTransportError: () => {
          throw new Error('boom');
        },
      });
      const res = await fetch(server.url, { method: 'POST', body: 'x'.repeat(11) });
      expect(res.status).toBe(413);
      expect(await res.text()).toBe('request body too large (max 10 bytes)\n');
    });

    it('lets a client that sends its whole oversized body before reading still read the 413', async () => {
      server = await testServer(backend, { maxBodyBytes: 1000, formatTransportError: jsonRpcTransportError });
      const declared = await rawHttp(server.port, [`POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 2000000\r\n\r\n`, Buffer.alloc(2_000_000, 0x78)]);
      expect(declared.status).toBe(413);
      expect(JSON.parse(declared.body)).toMatchObject({ error: { code: -32600 } });
      const chunk = Buffer.concat([Buffer.from('10000\r\n'), Buffer.alloc(0x10000, 0x79), Buffer.from('\r\n')]);
      const chunked = await rawHttp(server.port, [
        'POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n',
        ...Array.from({ length: 32 }, () => chunk),
        '0\r\n\r\n',
      ]);
      expect(chunked.status).toBe(413);
      expect(chunked.error).toBeUndefined();
    });

    it('refuses a huge declared Content-Length before any of the body arrives', async () => {
      server = await testServer(backend, { maxBodyBytes: 1000 });
      // 100 MB declared. (uWS's parser drops the connection outright from 1e9 bytes on.)
      const res = await rawHttp(server.port, 'POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 100000000\r\n\r\nabc');
      expect(res.status).toBe(413);
    });

    it('stops a chunked body once it passes the limit', async () => {
      let calls = 0;
      server = await testServer(backend, {
        maxBodyBytes: 100,
        onHttp: () => {
          calls++;
          return { status: 200, body: 'ok' };
        },
      });
      const chunk = `40\r\n${'y'.repeat(64)}\r\n`;
      const res = await rawHttp(server.port, ['POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n', chunk, chunk, chunk]);
      expect(res.status).toBe(413);
      expect(calls).toBe(0);
    });
  });

  it('answers 431 when the request head is over maxHeaderBytes', async () => {
    let calls = 0;
    server = await testServer(backend, {
      maxHeaderBytes: 2048,
      onHttp: () => {
        calls++;
        return { status: 200, body: 'ok' };
      },
    });
    const big = await rawHttp(server.port, `GET / HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(4096)}\r\n\r\n`);
    expect(big.status).toBe(431);
    const small = await rawHttp(server.port, `GET / HTTP/1.1\r\nHost: x\r\nX-Small: ${'a'.repeat(512)}\r\n\r\n`);
    expect(small.status).toBe(200);
    expect(calls).toBe(1);
  });

  it('answers 414 (family form) when the request target is over maxUrlBytes, and serves one at the limit', async () => {
    server = await testServer(backend, {
      maxUrlBytes: 1000,
      maxHeaderBytes: 65_536,
      formatTransportError: jsonRpcTransportError,
      onHttp: (req) => ({ status: 200, body: String(req.path.length) }),
    });
    const long = await rawHttp(server.port, `GET /${'a'.repeat(1000)} HTTP/1.1\r\nHost: x\r\n\r\n`);
    expect(long.status).toBe(414);
    expect(JSON.parse(long.body)).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32600, message: 'request URI too long (max 1000 bytes)' } });
    const atLimit = await rawHttp(server.port, `GET /${'a'.repeat(999)} HTTP/1.1\r\nHost: x\r\n\r\n`);
    expect(atLimit.status).toBe(200);
  });

  it('answers 431 in the family form', async () => {
    server = await testServer(backend, { maxHeaderBytes: 2048, formatTransportError: jsonRpcTransportError });
    const big = await rawHttp(server.port, `GET / HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(4096)}\r\n\r\n`);
    expect(big.status).toBe(431);
    expect(big.headers['content-type']).toBe('application/json');
    expect(JSON.parse(big.body)).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32600 } });
  });

  it('answers a HEAD over a limit without failing, and keeps serving', async () => {
    server = await testServer(backend, { maxBodyBytes: 1000, maxHeaderBytes: 2048 });
    const cl = await rawHttp(server.port, 'HEAD / HTTP/1.1\r\nHost: x\r\nContent-Length: 5242881\r\n\r\n');
    expect(cl.status).toBe(413);
    const hdr = await rawHttp(server.port, `HEAD / HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(4096)}\r\n\r\n`);
    expect(hdr.status).toBe(431);
    const url = await rawHttp(server.port, `HEAD /${'a'.repeat(70_000)} HTTP/1.1\r\nHost: x\r\n\r\n`);
    expect(url.status).toBe(414);
    const ok = await rawHttp(server.port, 'HEAD / HTTP/1.1\r\nHost: x\r\n\r\n');
    expect(ok.status).toBe(200);
    expect(ok.body).toBe('');
    expect((await fetch(server.url)).status).toBe(200);
  });

  it('answers 408 when the body does not arrive within requestTimeoutMs', async () => {
    server = await testServer(backend, { requestTimeoutMs: 200 });
    const started = Date.now();
    // Promises 10 bytes, sends 2, then goes quiet.
    const res = await rawHttp(server.port, 'POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\n\r\nab', 5000);
    expect(res.status).toBe(408);
    expect(Date.now() - started).toBeLessThan(4000);
  });

  it('closes connections beyond maxOpenConnections and accepts again once one closes', async () => {
    server = await testServer(backend, {
      maxOpenConnections: 2,
      websocket: { path: '*', maxPayloadBytes: 1000, handlers: { onMessage: (c, t) => c.send(t) } },
    });
    const s = server;
    const a = await openWs(s.wsUrl);
    const b = await openWs(s.wsUrl);
    clients.push(a, b);
    await until(() => s.connections() === 2);

    await expect(openWs(s.wsUrl)).rejects.toThrow();
    const refused = await rawHttp(s.port, 'GET / HTTP/1.1\r\nHost: x\r\n\r\n');
    expect(refused.status).toBe(0); // closed without an answer

    a.close();
    await closed(a);
    await until(() => s.connections() === 1);
    const c = await openWs(s.wsUrl);
    clients.push(c);
    expect(c.readyState).toBe(WebSocket.OPEN);
  });
});
