import { describe, expect, it } from 'vitest';
import {
  ErrorCode,
  JsonRpcErrorException,
  internalError,
  invalidParams,
  invalidRequest,
  methodNotFound,
  parseError,
  resolveTexts,
  serverError,
} from './errors.js';

describe('JSON-RPC error constructors', () => {
  it('use the spec codes and texts by default and leave out undefined data', () => {
    expect(parseError()).toEqual({ code: -32700, message: 'Parse error' });
    expect(invalidRequest()).toEqual({ code: -32600, message: 'Invalid Request' });
    expect(methodNotFound()).toEqual({ code: -32601, message: 'Method not found' });
    expect(invalidParams()).toEqual({ code: -32602, message: 'Invalid params' });
    expect(internalError()).toEqual({ code: -32603, message: 'Internal error' });
    expect(serverError()).toEqual({ code: -32000, message: 'Server error' });
    expect(Object.keys(parseError())).toEqual(['code', 'message']);
  });

  it('take data and a family message', () => {
    expect(parseError('unexpected end of JSON input', 'Parse error. Invalid JSON')).toEqual({
      code: ErrorCode.ParseError,
      message: 'Parse error. Invalid JSON',
      data: 'unexpected end of JSON input',
    });
  });

  it('merge partial text tables over the spec texts', () => {
    const t = resolveTexts({ parse: 'Parse error. Invalid JSON' });
    expect(t.parse).toBe('Parse error. Invalid JSON');
    expect(t.invalidParams).toBe('Invalid params');
  });
});

describe('JsonRpcErrorException', () => {
  it('carries the error object and its code', () => {
    const e = new JsonRpcErrorException(invalidParams('height must be a number'), { cause: new Error('NaN') });
    expect(e).toBeInstanceOf(Error);
    expect(e.error).toEqual({ code: -32602, message: 'Invalid params', data: 'height must be a number' });
    expect(e.code).toBe(-32602);
    expect(e.message).toBe('Invalid params');
    expect((e.cause as Error).message).toBe('NaN');
  });
});
