import { afterEach, describe, expect, it } from 'vitest';
import { createCorsPolicy } from './cors.js';
import { BACKENDS, testServer } from './test-helpers.js';
import type { CorsOptions, RunningServer } from './types.js';

// CometBFT's defaults when cors_allowed_origins is set.
const COMET: Omit<CorsOptions, 'allowedOrigins'> = {
  allowedMethods: ['HEAD', 'GET', 'POST'],
  allowedHeaders: ['Origin', 'Accept', 'Content-Type', 'X-Requested-With', 'X-Server-Time'],
};

describe('createCorsPolicy', () => {
  it('is off without options or with no allowed origins', () => {
    expect(createCorsPolicy(undefined)).toBeUndefined();
    expect(createCorsPolicy({ ...COMET, allowedOrigins: [] })).toBeUndefined();
  });

  it('answers a preflight for an allowed origin with the requested method and headers', () => {
    const p = createCorsPolicy({ ...COMET, allowedOrigins: ['https://app.example'] })!;
    const res = p.preflight('OPTIONS', {
      origin: 'https://app.example',
      'access-control-request-method': 'post',
      'access-control-request-headers': 'Content-Type, X-Requested-With',
    });
    expect(res).toEqual({
      status: 204,
      body: '',
      headers: {
        vary: 'Origin, Access-Control-Request-Method, Access-Control-Request-Headers',
        'access-control-allow-origin': 'https://app.example',
        'access-control-allow-methods': 'POST',
        'access-control-allow-headers': 'Content-Type, X-Requested-With',
      },
    });
  });

  it('answers a refused preflight without allow headers', () => {
    const p = createCorsPolicy({ ...COMET, allowedOrigins: ['https://app.example'] })!;
    const other = p.preflight('OPTIONS', { origin: 'https://evil.example', 'access-control-request-method': 'POST' });
    expect(other?.headers?.['access-control-allow-origin']).toBeUndefined();
    const method = p.preflight('OPTIONS', { origin: 'https://app.example', 'access-control-request-method': 'DELETE' });
    expect(method?.headers?.['access-control-allow-origin']).toBeUndefined();
    const header = p.preflight('OPTIONS', {
      origin: 'https://app.example',
      'access-control-request-method': 'POST',
      'access-control-request-headers': 'X-Secret',
    });
    expect(header?.headers?.['access-control-allow-origin']).toBeUndefined();
  });

  it('does not treat a plain OPTIONS request as a preflight', () => {
    const p = createCorsPolicy({ ...COMET, allowedOrigins: ['*'] })!;
    expect(p.preflight('OPTIONS', { origin: 'https://a.example' })).toBeUndefined();
    expect(p.preflight('GET', { origin: 'https://a.example', 'access-control-request-method': 'GET' })).toBeUndefined();
  });

  it('sends * for a wildcard config and echoes listed origins, including pattern matches', () => {
    const any = createCorsPolicy({ ...COMET, allowedOrigins: ['*'] })!;
    expect(any.actualHeaders('GET', { origin: 'https://x.example' })).toEqual({ vary: 'Origin', 'access-control-allow-origin': '*' });
    const listed = createCorsPolicy({ ...COMET, allowedOrigins: ['https://*.example.org', 'http://localhost:3000'] })!;
    expect(listed.actualHeaders('POST', { origin: 'https://app.example.org' })['access-control-allow-origin']).toBe('https://app.example.org');
    expect(listed.actualHeaders('POST', { origin: 'HTTP://LOCALHOST:3000' })['access-control-allow-origin']).toBe('HTTP://LOCALHOST:3000');
    expect(listed.actualHeaders('POST', { origin: 'https://example.com' })).toEqual({ vary: 'Origin' });
    expect(listed.actualHeaders('DELETE', { origin: 'http://localhost:3000' })).toEqual({ vary: 'Origin' });
    expect(listed.actualHeaders('GET', {})).toEqual({ vary: 'Origin' });
  });

  it('allows no origin on a sameOriginOnly path, even with "*"', () => {
    const p = createCorsPolicy({ ...COMET, allowedOrigins: ['*'], sameOriginOnly: (path) => path.startsWith('/private/') })!;
    const pre = { origin: 'https://evil.example', 'access-control-request-method': 'POST' };
    expect(p.preflight('OPTIONS', pre, '/private/x')).toEqual({
      status: 204,
      body: '',
      headers: { vary: 'Origin, Access-Control-Request-Method, Access-Control-Request-Headers' },
    });
    expect(p.actualHeaders('POST', { origin: 'https://evil.example' }, '/private/x')).toEqual({ vary: 'Origin' });
    expect(p.preflight('OPTIONS', pre, '/public')?.headers?.['access-control-allow-origin']).toBe('*');
    expect(p.actualHeaders('POST', { origin: 'https://evil.example' }, '/public')['access-control-allow-origin']).toBe('*');
  });
});

describe.each(BACKENDS)('CORS over HTTP on %s', (backend) => {
  let server: RunningServer | undefined;
  afterEach(async () => {
    await server?.stop();
    server = undefined;
  });

  it('answers preflights itself and adds Access-Control-Allow-Origin to responses', async () => {
    const methods: string[] = [];
    server = await testServer(backend, {
      cors: { ...COMET, allowedOrigins: ['https://app.example'] },
      onHttp: (req) => {
        methods.push(req.method);
        return { status: 200, headers: { 'content-type': 'application/json', vary: 'Accept-Encoding' }, body: '{}' };
      },
    });
    const pre = await fetch(server.url, {
      method: 'OPTIONS',
      headers: { Origin: 'https://app.example', 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'content-type' },
    });
    expect(pre.status).toBe(204);
    expect(pre.headers.get('access-control-allow-origin')).toBe('https://app.example');
    expect(pre.headers.get('access-control-allow-methods')).toBe('POST');
    expect(pre.headers.get('access-control-allow-headers')).toBe('content-type');

    const res = await fetch(server.url, { method: 'POST', headers: { Origin: 'https://app.example' }, body: '{}' });
    expect(res.headers.get('access-control-allow-origin')).toBe('https://app.example');
    expect(res.headers.get('vary')).toBe('Accept-Encoding, Origin');

    const foreign = await fetch(server.url, { headers: { Origin: 'https://evil.example' } });
    expect(foreign.headers.get('access-control-allow-origin')).toBeNull();
    expect(methods).toEqual(['POST', 'GET']);
  });

  it('adds nothing and passes OPTIONS to the handler when CORS is off', async () => {
    const methods: string[] = [];
    server = await testServer(backend, {
      cors: { ...COMET, allowedOrigins: [] },
      onHttp: (req) => {
        methods.push(req.method);
        return { status: 405, body: 'no' };
      },
    });
    const pre = await fetch(server.url, { method: 'OPTIONS', headers: { Origin: 'https://app.example', 'Access-Control-Request-Method': 'POST' } });
    expect(pre.status).toBe(405);
    expect(pre.headers.get('access-control-allow-origin')).toBeNull();
    expect(pre.headers.get('vary')).toBeNull();
    expect(methods).toEqual(['OPTIONS']);
  });
});
