import { describe, expect, it } from 'vitest';
import { createOriginCheck, parseOriginParts } from './ws-origin.js';

describe('parseOriginParts', () => {
  it('splits full origins, host:port and bare hosts', () => {
    expect(parseOriginParts('https://App.Example:8443')).toEqual({ scheme: 'https', host: 'app.example', port: '8443' });
    expect(parseOriginParts('localhost:3000')).toEqual({ scheme: '', host: 'localhost', port: '3000' });
    expect(parseOriginParts('127.0.0.1')).toEqual({ scheme: '', host: '127.0.0.1', port: '' });
    expect(parseOriginParts('http://[::1]:8545')).toEqual({ scheme: 'http', host: '::1', port: '8545' });
    expect(parseOriginParts('http://a:b')).toBeUndefined();
  });
});

describe('createOriginCheck', () => {
  it('allows everything without a list, with an empty list or with *', () => {
    for (const list of [undefined, [], ['*'], ['localhost', '*']]) {
      expect(createOriginCheck(list)('https://evil.example')).toBe(true);
    }
  });

  it('matches the Cosmos EVM default ws-origins by host, any scheme and port', () => {
    const check = createOriginCheck(['127.0.0.1', 'localhost']);
    expect(check('http://localhost:5173')).toBe(true);
    expect(check('https://127.0.0.1')).toBe(true);
    expect(check('https://localhost.evil.example')).toBe(false);
    expect(check('null')).toBe(false);
  });

  it('requires scheme and port when the rule gives them', () => {
    const check = createOriginCheck(['https://app.example:8443']);
    expect(check('https://app.example:8443')).toBe(true);
    expect(check('http://app.example:8443')).toBe(false);
    expect(check('https://app.example')).toBe(false);
  });

  it('lets requests without an Origin header through (not from a browser)', () => {
    expect(createOriginCheck(['localhost'])(undefined)).toBe(true);
  });
});
