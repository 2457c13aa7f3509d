import { describe, expect, it } from 'vitest';
import { InvalidRequestItem, parseJsonRpcBody } from './parse.js';

describe('parseJsonRpcBody', () => {
  it('parses a single request, keeping params untouched', () => {
    const parsed = parseJsonRpcBody('{"jsonrpc":"2.0","id":7,"method":"status","params":{"height":"5"}}');
    expect(parsed).toEqual({ kind: 'single', req: { jsonrpc: '2.0', id: 7, method: 'status', params: { height: '5' } } });
  });

  it('reads bytes as UTF-8', () => {
    const parsed = parseJsonRpcBody(new TextEncoder().encode('{"jsonrpc":"2.0","id":"ü","method":"m"}'));
    expect(parsed).toMatchObject({ kind: 'single', req: { id: 'ü' } });
  });

  it('answers bad JSON with a parse error under id null', () => {
    const parsed = parseJsonRpcBody('{"jsonrpc":"2.0",');
    expect(parsed.kind).toBe('error');
    if (parsed.kind !== 'error') return;
    expect(parsed.id).toBeNull();
    expect(parsed.error.code).toBe(-32700);
    expect(parsed.error.message).toBe('Parse error');
    expect(String(parsed.error.data)).toMatch(/^error unmarshaling request: /);
    expect(parseJsonRpcBody('').kind).toBe('error');
  });

  it('uses the family texts and can leave the reason out', () => {
    const parsed = parseJsonRpcBody('nope', { texts: { parse: 'Parse error. Invalid JSON' }, reasonAsData: false });
    expect(parsed).toEqual({ kind: 'error', id: null, error: { code: -32700, message: 'Parse error. Invalid JSON' } });
  });

  it.each([
    ['a number', '5', null, 'request must be an object'],
    ['null', 'null', null, 'request must be an object'],
    ['a wrong version', '{"jsonrpc":"1.0","id":3,"method":"m"}', 3, 'jsonrpc must be "2.0"'],
    ['no version', '{"id":"a","method":"m"}', 'a', 'jsonrpc must be "2.0"'],
    ['a non-string method', '{"jsonrpc":"2.0","id":4,"method":1}', 4, 'method must be a string'],
    ['no method', '{"jsonrpc":"2.0","id":4}', 4, 'method must be a string'],
    ['an object id', '{"jsonrpc":"2.0","id":{},"method":"m"}', null, 'id must be a string, a number or null'],
    ['a boolean id', '{"jsonrpc":"2.0","id":true,"method":"m"}', null, 'id must be a string, a number or null'],
    ['an array id', '{"jsonrpc":"2.0","id":[1],"method":"m"}', null, 'id must be a string, a number or null'],
    ['an id JSON.parse makes Infinity', '{"jsonrpc":"2.0","id":1e400,"method":"m"}', null, 'id must be a string, a number or null'],
    ['an id JSON.parse makes -Infinity', '{"jsonrpc":"2.0","id":-1e400,"method":"m"}', null, 'id must be a string, a number or null'],
  ])('rejects %s as an invalid request', (_what, body, id, reason) => {
    expect(parseJsonRpcBody(body)).toEqual({ kind: 'error', id, error: { code: -32600, message: 'Invalid Request', data: reason } });
  });

  it('accepts null and missing ids (the dispatcher decides what they mean)', () => {
    expect(parseJsonRpcBody('{"jsonrpc":"2.0","id":null,"method":"m"}')).toMatchObject({ kind: 'single', req: { id: null } });
    const n = parseJsonRpcBody('{"jsonrpc":"2.0","method":"m"}');
    expect(n.kind === 'single' && !('id' in n.req)).toBe(true);
  });

  it('treats an empty batch as one invalid request', () => {
    expect(parseJsonRpcBody('[]')).toMatchObject({ kind: 'error', id: null, error: { code: -32600 } });
  });

  it('validates each batch element on its own', () => {
    const parsed = parseJsonRpcBody('[{"jsonrpc":"2.0","id":1,"method":"a"}, 2, {"jsonrpc":"2.0","id":3}, {"jsonrpc":"2.0","method":"n"}]');
    expect(parsed.kind).toBe('batch');
    if (parsed.kind !== 'batch') return;
    const [a, b, c, d] = parsed.reqs;
    expect(a).toEqual({ jsonrpc: '2.0', id: 1, method: 'a' });
    expect(b).toBeInstanceOf(InvalidRequestItem);
    expect(b).toMatchObject({ id: null, error: { code: -32600 } });
    expect(c).toMatchObject({ id: 3, error: { code: -32600, data: 'method must be a string' } });
    expect(d).toEqual({ jsonrpc: '2.0', method: 'n' });
  });

  it('does not mistake a request carrying extra fields for an invalid item', () => {
    const parsed = parseJsonRpcBody('[{"jsonrpc":"2.0","id":1,"method":"a","error":{"code":1},"invalid":true}]');
    expect(parsed.kind === 'batch' && parsed.reqs[0] instanceof InvalidRequestItem).toBe(false);
  });

  it('refuses a body nested deeper than maxDepth before parsing it (default 128), id null', () => {
    const body = (depth: number) => `{"jsonrpc":"2.0","id":1,"method":"m","params":${'['.repeat(depth - 1)}${']'.repeat(depth - 1)}}`;
    expect(parseJsonRpcBody(body(128)).kind).toBe('single');
    expect(parseJsonRpcBody(body(129))).toEqual({
      kind: 'error',
      id: null,
      error: { code: -32700, message: 'Parse error', data: 'request nests deeper than 128 levels of arrays and objects' },
    });
    expect(parseJsonRpcBody(body(4), { maxDepth: 4 }).kind).toBe('single');
    expect(parseJsonRpcBody(new TextEncoder().encode(body(5)), { maxDepth: 4, reasonAsData: false })).toEqual({
      kind: 'error',
      id: null,
      error: { code: -32700, message: 'Parse error' },
    });
    expect(parseJsonRpcBody(body(500), { maxDepth: 0 }).kind).toBe('single');
  });
});
