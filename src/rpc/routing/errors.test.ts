import { describe, expect, it } from 'vitest';
import {
  ChainNotSupportedError,
  errorResponse,
  InternalError,
  MethodNotAllowedError,
  RateLimitedError,
  TxInvalidOnChainError,
  TxNotBase64Error,
  TxNotFoundError,
  UnauthenticatedError,
} from './errors.js';

describe('errorResponse', () => {
  it('maps gRPC codes to gRPC-gateway HTTP statuses with the fixed texts', () => {
    const cases: [unknown, number, number, string][] = [
      [new TxNotBase64Error(), 400, 3, 'tx must be base64 encoded'],
      [new TxInvalidOnChainError({ chainCode: 0, chainLog: 'execution reverted' }), 400, 3, 'tx is invalid on chain'],
      [new ChainNotSupportedError('x'), 404, 5, 'chain ID not supported'],
      [new TxNotFoundError('ab'), 404, 5, 'tx not found'],
      [new InternalError(new Error('disk')), 500, 2, 'internal server error'],
      [new UnauthenticatedError(), 401, 16, 'invalid API key'],
      [new RateLimitedError(1500), 429, 8, 'rate limit exceeded'],
    ];
    for (const [err, status, code, message] of cases) {
      const r = errorResponse(err);
      expect(r.status).toBe(status);
      expect(r.body).toEqual({ code, message, details: [] });
    }
  });

  it('turns anything unexpected into code 2 and flags it for logging', () => {
    const r = errorResponse(new TypeError('x is undefined'));
    expect(r).toMatchObject({ status: 500, body: { code: 2, message: 'internal server error', details: [] }, internal: true });
    expect(errorResponse(new TxNotBase64Error()).internal).toBe(false);
  });

  it('carries extra headers: Retry-After in whole seconds, Allow on 405', () => {
    expect(errorResponse(new RateLimitedError(1500)).headers).toEqual({ 'retry-after': '2' });
    expect(errorResponse(new RateLimitedError(10)).headers).toEqual({ 'retry-after': '1' });
    expect(errorResponse(new MethodNotAllowedError(['POST']))).toMatchObject({ status: 405, headers: { allow: 'POST' }, body: { code: 12 } });
  });
});
