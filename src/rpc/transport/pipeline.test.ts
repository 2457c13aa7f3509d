/**
 * The pipeline's per-request work: a handler's frozen headers are checked and merged with CORS's
 * frozen answer once (the same object answers every request after), mutable ones every time; a
 * request's query is parsed only when read.
 */
import { describe, expect, it } from 'vitest';
import { createHttpRequest, createPipeline, silentLog } from './pipeline.js';
import type { HttpRequest, HttpResponse, ServerOptions } from './types.js';

const JSON_HEADERS = Object.freeze({ 'content-type': 'application/json' });

function pipelineOf(onHttp: (req: HttpRequest) => HttpResponse) {
  const opts: ServerOptions = {
    host: '127.0.0.1',
    port: 0,
    maxBodyBytes: 1024,
    maxHeaderBytes: 1024,
    maxOpenConnections: 0,
    cors: { allowedOrigins: ['*'], allowedMethods: ['POST'], allowedHeaders: ['Content-Type'] },
    onHttp,
  };
  return createPipeline(opts, silentLog);
}

const post = (headers: Record<string, string> = {}) => createHttpRequest('POST', '/', '', headers, new Uint8Array(0), '127.0.0.1');

describe('the HTTP pipeline', () => {
  it('merges CORS into a handler’s frozen headers once, and answers each request with that object', () => {
    const p = pipelineOf(() => ({ status: 200, headers: JSON_HEADERS, body: '{}' }));
    const a = p.handle(post()) as HttpResponse;
    const b = p.handle(post()) as HttpResponse;
    expect(a.headers).toEqual({ 'content-type': 'application/json', vary: 'Origin' });
    expect(b.headers).toBe(a.headers);
    expect(Object.isFrozen(a.headers)).toBe(true);
    // An allowed origin is echoed per request.
    const c = p.handle(post({ origin: 'https://app.example' })) as HttpResponse;
    expect(c.headers).toEqual({ 'content-type': 'application/json', vary: 'Origin', 'access-control-allow-origin': '*' });
  });

  it('checks a mutable headers object on every response (a value changed to hold CR/LF becomes a 500)', () => {
    const headers: Record<string, string> = { 'content-type': 'application/json', vary: 'Accept' };
    const p = pipelineOf(() => ({ status: 200, headers, body: '{}' }));
    const ok = p.handle(post()) as HttpResponse;
    expect(ok.status).toBe(200);
    expect(ok.headers).toEqual({ 'content-type': 'application/json', vary: 'Accept, Origin' });
    headers['x-bad'] = 'a\r\nb';
    expect((p.handle(post()) as HttpResponse).status).toBe(500);
  });

  it('parses a request’s query only when a handler reads it', () => {
    const req = createHttpRequest('GET', '/status', 'a=1&b=two', {}, new Uint8Array(0), '::1');
    expect(req.query.get('b')).toBe('two');
    expect(req.query).toBe(req.query);
    expect(req).toMatchObject({ method: 'GET', path: '/status', rawQuery: 'a=1&b=two', remoteAddress: '::1' });
  });
});
