import { describe, expect, it } from 'vitest';
import { dispatchJsonRpc, type DispatchOptions, type JsonRpcCall } from './dispatch.js';
import { JsonRpcErrorException, invalidRequest, methodNotFound } from './errors.js';
import { parseJsonRpcBody } from './parse.js';
import type { JsonRpcRequest } from './types.js';

const OPTS: DispatchOptions = {
  maxBatch: 10,
  onBatchTooLarge: () => invalidRequest('batch request exceeds maximum (10) allowed number of requests'),
  notificationsGetNoResponse: true,
};

/** A tiny method table: echo, add, fail, bigint, nothing. */
const call: JsonRpcCall = async (req: JsonRpcRequest) => {
  const p = req.params as unknown[];
  switch (req.method) {
    case 'echo':
      return p?.[0];
    case 'add':
      return (p[0] as number) + (p[1] as number);
    case 'fail':
      throw new Error('height 99 must be less than or equal to the current blockchain height 5');
    case 'bigint':
      return 1n;
    case 'nothing':
      return undefined;
    default:
      throw new JsonRpcErrorException(methodNotFound(undefined, `the method ${req.method} does not exist/is not available`));
  }
};

const run = async (body: string, opts: Partial<DispatchOptions> = {}, fn: JsonRpcCall = call) => {
  const out = await dispatchJsonRpc(parseJsonRpcBody(body), fn, { ...OPTS, ...opts });
  return { ...out, json: out.body === undefined ? undefined : (JSON.parse(out.body) as unknown) };
};

describe('dispatchJsonRpc: single requests', () => {
  it('wraps a result, keeping the id and field order', async () => {
    const out = await run('{"jsonrpc":"2.0","id":"abc","method":"add","params":[2,3]}');
    expect(out.body).toBe('{"jsonrpc":"2.0","id":"abc","result":5}');
    expect(out.isBatch).toBe(false);
    expect(out.responses).toBe(1);
  });

  it('writes undefined results as null', async () => {
    expect((await run('{"jsonrpc":"2.0","id":1,"method":"nothing"}')).body).toBe('{"jsonrpc":"2.0","id":1,"result":null}');
  });

  it('answers a thrown JsonRpcErrorException with its error', async () => {
    const out = await run('{"jsonrpc":"2.0","id":2,"method":"eth_nope"}');
    expect(out.json).toEqual({ jsonrpc: '2.0', id: 2, error: { code: -32601, message: 'the method eth_nope does not exist/is not available' } });
  });

  it('answers other errors with an internal error carrying the message', async () => {
    const out = await run('{"jsonrpc":"2.0","id":3,"method":"fail"}', { texts: { internal: 'Internal error' } });
    expect(out.json).toEqual({
      jsonrpc: '2.0',
      id: 3,
      error: { code: -32603, message: 'Internal error', data: 'height 99 must be less than or equal to the current blockchain height 5' },
    });
  });

  it('lets the family map its own error classes', async () => {
    const out = await run('{"jsonrpc":"2.0","id":3,"method":"fail"}', { toError: (e) => ({ code: -32000, message: (e as Error).message.slice(0, 9) }) });
    expect(out.json).toMatchObject({ error: { code: -32000, message: 'height 99' } });
  });

  it('answers an unserialisable result with an internal error instead of throwing', async () => {
    const out = await run('{"jsonrpc":"2.0","id":4,"method":"bigint"}');
    expect(out.json).toMatchObject({ id: 4, error: { code: -32603 } });
  });

  it('answers a parse error', async () => {
    const out = await run('{oops');
    expect(out.json).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32700 } });
  });

  it('runs notifications without answering them', async () => {
    const seen: string[] = [];
    const spy: JsonRpcCall = (req) => {
      seen.push(req.method);
      return call(req);
    };
    const out = await run('{"jsonrpc":"2.0","method":"fail"}', {}, spy);
    expect(out).toEqual({ body: undefined, isBatch: false, responses: 0, json: undefined });
    expect(seen).toEqual(['fail']);
  });

  it('can skip notifications entirely and read id null as one (CometBFT)', async () => {
    const seen: string[] = [];
    const spy: JsonRpcCall = (req) => {
      seen.push(req.method);
      return call(req);
    };
    const comet = { executeNotifications: false, nullIdIsNotification: true };
    expect((await run('{"jsonrpc":"2.0","id":null,"method":"echo","params":[1]}', comet, spy)).body).toBeUndefined();
    expect(seen).toEqual([]);
    // By the spec, id null is a call.
    expect((await run('{"jsonrpc":"2.0","id":null,"method":"echo","params":[1]}')).body).toBe('{"jsonrpc":"2.0","id":null,"result":1}');
  });

  it('answers notifications (id null) when told to', async () => {
    const out = await run('{"jsonrpc":"2.0","method":"echo","params":["x"]}', { notificationsGetNoResponse: false });
    expect(out.body).toBe('{"jsonrpc":"2.0","id":null,"result":"x"}');
  });

  it('replaces a response over maxResponseBytes with an error under the same id', async () => {
    const big = JSON.stringify({ jsonrpc: '2.0', id: 'q"1', method: 'echo', params: ['x'.repeat(200)] });
    const out = await run(big, { maxResponseBytes: 100 });
    expect(out.json).toEqual({ jsonrpc: '2.0', id: 'q"1', error: { code: -32003, message: 'response too large' } });
    expect((await run(big, { maxResponseBytes: 1000 })).json).toMatchObject({ result: 'x'.repeat(200) });
  });
});

describe('dispatchJsonRpc: batches', () => {
  it('runs elements concurrently and answers in request order', async () => {
    // The first call can only finish once the last one has started: a sequential dispatcher
    // would never get there and the first call would report it.
    let lastStarted!: () => void;
    const started = new Promise<void>((r) => (lastStarted = r));
    const finished: number[] = [];
    const gated: JsonRpcCall = async (req) => {
      const id = req.id as number;
      if (id === 3) lastStarted();
      if (id === 1) {
        const timeout = new Promise<string>((r) => setTimeout(() => r('ran sequentially'), 2000).unref());
        const outcome = await Promise.race([started.then(() => 'concurrent'), timeout]);
        finished.push(id);
        return outcome;
      }
      finished.push(id);
      return id;
    };
    const batch = JSON.stringify([1, 2, 3].map((id) => ({ jsonrpc: '2.0', id, method: 'm' })));
    const out = await run(batch, {}, gated);
    expect(finished).toEqual([2, 3, 1]);
    expect(out.isBatch).toBe(true);
    expect(out.json).toEqual([
      { jsonrpc: '2.0', id: 1, result: 'concurrent' },
      { jsonrpc: '2.0', id: 2, result: 2 },
      { jsonrpc: '2.0', id: 3, result: 3 },
    ]);
  });

  it('mixes results, errors, invalid elements and skipped notifications', async () => {
    const out = await run(
      '[{"jsonrpc":"2.0","id":1,"method":"add","params":[1,1]},{"jsonrpc":"2.0","method":"echo","params":[0]},7,' +
        '{"jsonrpc":"2.0","id":"x","method":"nope"},{"jsonrpc":"2.0","id":4,"method":"fail"}]',
    );
    expect(out.responses).toBe(4);
    expect(out.json).toEqual([
      { jsonrpc: '2.0', id: 1, result: 2 },
      { jsonrpc: '2.0', id: null, error: { code: -32600, message: 'Invalid Request', data: 'request must be an object' } },
      { jsonrpc: '2.0', id: 'x', error: { code: -32601, message: 'the method nope does not exist/is not available' } },
      { jsonrpc: '2.0', id: 4, error: expect.objectContaining({ code: -32603 }) },
    ]);
  });

  it('answers nothing for a batch of notifications only', async () => {
    const out = await run('[{"jsonrpc":"2.0","method":"echo"},{"jsonrpc":"2.0","method":"echo"}]');
    expect(out.body).toBeUndefined();
    expect(out.responses).toBe(0);
  });

  it('keeps a batch of one as an array (unwrapping is a family quirk)', async () => {
    const out = await run('[{"jsonrpc":"2.0","id":1,"method":"echo","params":[1]}]');
    expect(out.body).toBe('[{"jsonrpc":"2.0","id":1,"result":1}]');
    expect(out.responses).toBe(1);
  });

  it('answers an oversized batch with one bare error, without calling anything (CometBFT)', async () => {
    let calls = 0;
    const counting: JsonRpcCall = () => ++calls;
    const batch = JSON.stringify(Array.from({ length: 11 }, (_, i) => ({ jsonrpc: '2.0', id: i, method: 'echo' })));
    const out = await run(batch, {}, counting);
    expect(out.isBatch).toBe(false);
    expect(out.json).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32600, message: 'Invalid Request', data: 'batch request exceeds maximum (10) allowed number of requests' },
    });
    expect(calls).toBe(0);
  });

  it('can answer an oversized batch as geth does: an array of one error under the first call id', async () => {
    const batch = JSON.stringify([{ jsonrpc: '2.0', method: 'echo' }, ...Array.from({ length: 3 }, (_, i) => ({ jsonrpc: '2.0', id: i + 5, method: 'echo' }))]);
    const out = await run(batch, { maxBatch: 2, batchTooLargeAsArray: true, onBatchTooLarge: () => ({ code: -32600, message: 'batch too large' }) });
    expect(out.json).toEqual([{ jsonrpc: '2.0', id: 5, error: { code: -32600, message: 'batch too large' } }]);
  });

  it('turns the response that crosses maxResponseBytes, and all after it, into errors', async () => {
    const req = (id: number, n: number) => ({ jsonrpc: '2.0', id, method: 'echo', params: ['x'.repeat(n)] });
    const out = await run(JSON.stringify([req(1, 10), req(2, 100), req(3, 1)]), { maxResponseBytes: 120 });
    expect(out.json).toEqual([
      { jsonrpc: '2.0', id: 1, result: 'x'.repeat(10) },
      { jsonrpc: '2.0', id: 2, error: { code: -32003, message: 'response too large' } },
      { jsonrpc: '2.0', id: 3, error: { code: -32003, message: 'response too large' } },
    ]);
  });
});
