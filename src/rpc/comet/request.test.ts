import { describe, expect, expectTypeOf, it } from 'vitest';
import { argsFromJson, argsFromUri } from './call.js';
import { ParamError } from './errors.js';
import { parseCometRequests, parseCometWsRequest } from './request.js';
import type { ResultBlock, ResultStatus } from './results.js';
import { COMET_ROUTES, isCacheable, type CometMethod, type CometResultOf } from './routes.js';
import { getHeight, orderBy, paginate, validatePage, validatePerPage } from './rules.js';

describe('parseCometRequests', () => {
  it('reads single requests, batches and notifications', () => {
    const single = parseCometRequests('{"jsonrpc":"2.0","id":1,"method":"status","params":{}}');
    expect(single).toEqual({ kind: 'requests', isArray: false, requests: [{ id: 1, method: 'status', params: {}, hasParams: true }] });
    const batch = parseCometRequests('[{"id":"a","method":"health"},{"method":"status"},{"id":null,"method":"x"}]');
    expect(batch.kind === 'requests' && batch.requests.map((r) => r.id)).toEqual(['a', undefined, undefined]);
    expect(parseCometRequests('[]')).toEqual({ kind: 'requests', isArray: true, requests: [] });
  });

  it('fails the whole body on a bad element or id, as Go unmarshals it in one go', () => {
    expect(parseCometRequests('{"id":true,"method":"status"}')).toEqual({ kind: 'parse-error', reason: 'json-rpc ID (true) is of unknown type (bool)' });
    expect(parseCometRequests('{"id":1.5,"method":"status"}')).toEqual({ kind: 'parse-error', reason: 'json-rpc ID must be a whole number, got 1.5' });
    expect(parseCometRequests('[{"id":1,"method":"a"}, 5]')).toEqual({
      kind: 'parse-error',
      reason: 'json: cannot unmarshal array into Go value of type types.RPCRequest',
    });
    expect(parseCometRequests('not json').kind).toBe('parse-error');
    expect(parseCometRequests('{"id":1,"method":5}').kind).toBe('parse-error');
  });

  it('refuses arrays over WebSocket', () => {
    expect(parseCometWsRequest('[{"id":1,"method":"status"}]').kind).toBe('parse-error');
    expect(parseCometWsRequest('{"id":1,"method":"status"}').kind).toBe('request');
  });
});

describe('argument decoding against the routes table', () => {
  const block = COMET_ROUTES.get('block')!;
  const blockchain = COMET_ROUTES.get('blockchain')!;

  it('decodes by name and by position, zero values for missing params', () => {
    expect(argsFromJson(block, { height: '3' })).toEqual({ height: 3 });
    expect(argsFromJson(block, {})).toEqual({ height: undefined });
    expect(argsFromJson(block, undefined)).toEqual({ height: undefined });
    expect(argsFromJson(blockchain, ['1', '2'])).toEqual({ minHeight: 1, maxHeight: 2 });
  });

  it('needs exactly as many positional params as the method has', () => {
    expect(() => argsFromJson(blockchain, ['1'])).toThrow(ParamError);
    try {
      argsFromJson(blockchain, ['1']);
    } catch (err) {
      expect((err as ParamError).reason).toBe('expected 2 parameters ([minHeight maxHeight]), got 1 ([[34 49 34]])');
    }
    expect(() => argsFromJson(block, 5)).toThrow(/unknown type for JSON params/);
  });

  it('decodes URI values and treats empty as missing', () => {
    const q = new URLSearchParams('height=7&prove=');
    expect(argsFromUri(block, (n) => q.get(n) ?? '')).toEqual({ height: 7 });
    const tx = COMET_ROUTES.get('tx')!;
    expect(argsFromUri(tx, (n) => ({ hash: '0x0A0B', prove: '' })[n] ?? '')).toEqual({ hash: new Uint8Array([10, 11]), prove: false });
  });

  it('infers method names and result types from the table', () => {
    expectTypeOf<CometResultOf<'status'>>().toEqualTypeOf<ResultStatus>();
    expectTypeOf<CometResultOf<'block'>>().toEqualTypeOf<ResultBlock>();
    expectTypeOf<'broadcast_tx_commit'>().toExtend<CometMethod>();
    expect(COMET_ROUTES.has('broadcast_tx_commit')).toBe(true);
  });

  it('marks height-cacheable routes cacheable only with a height', () => {
    expect(isCacheable(block, { height: undefined })).toBe(false);
    expect(isCacheable(block, { height: 2 })).toBe(true);
    expect(isCacheable(COMET_ROUTES.get('genesis')!, {})).toBe(true);
    expect(isCacheable(COMET_ROUTES.get('status')!, {})).toBe(false);
  });
});

describe('shared param rules', () => {
  it('checks heights with CometBFT texts', () => {
    expect(getHeight(10, 1, undefined)).toBe(10);
    expect(() => getHeight(10, 1, 0)).toThrow('height must be greater than 0, but got 0');
    expect(() => getHeight(10, 1, 11)).toThrow('height 11 must be less than or equal to the current blockchain height 10');
    expect(() => getHeight(10, 5, 3)).toThrow('height 3 is not available, lowest height is 5');
  });

  it('pages with defaults, clamps and range errors', () => {
    expect(validatePerPage(undefined)).toBe(30);
    expect(validatePerPage(0)).toBe(30);
    expect(validatePerPage(500)).toBe(100);
    expect(validatePage(undefined, 30, 0)).toBe(1);
    expect(validatePage(1, 30, 0)).toBe(1);
    expect(() => validatePage(2, 30, 0)).toThrow('page should be within [1, 1] range, given 2');
    expect(() => validatePage(0, 10, 25)).toThrow('page should be within [1, 3] range, given 0');
    expect(paginate([1, 2, 3, 4, 5], 2, 2)).toEqual([3, 4]);
    expect(paginate([1, 2, 3, 4, 5], 3, 2)).toEqual([5]);
  });

  it('accepts asc, desc and empty order_by', () => {
    expect(orderBy('', 'desc')).toBe('desc');
    expect(orderBy('asc', 'desc')).toBe('asc');
    expect(() => orderBy('up', 'asc')).toThrow("expected order_by to be either 'asc' or 'desc' or empty");
  });
});

describe('parseCometRequests depth limit', () => {
  const nested = (n: number) => '['.repeat(n) + ']'.repeat(n);
  it('refuses a body nested deeper than max_json_depth unparsed, over HTTP and WebSocket', () => {
    const reason = 'request nests deeper than 4 levels of arrays and objects';
    expect(parseCometRequests(`{"id":1,"method":"status","params":${nested(3)}}`, 4).kind).toBe('requests');
    expect(parseCometRequests(`{"id":1,"method":"status","params":${nested(4)}}`, 4)).toEqual({ kind: 'too-deep', reason });
    expect(parseCometWsRequest(`{"id":${nested(5000)},"method":"status"}`, 4)).toEqual({ kind: 'too-deep', reason });
    expect(parseCometRequests(`{"id":${nested(5000)},"method":"status"}`).kind).toBe('too-deep');
  });
});
