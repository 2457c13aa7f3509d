/**
 * The JSON-RPC core mounted on the real transport, over HTTP and WebSocket on both backends:
 * the way every family will use the two together.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { BACKENDS, nextMessage, openWs, testServer } from '../transport/test-helpers.js';
import type { HttpResponse, RunningServer } from '../transport/types.js';
import { dispatchJsonRpc, type DispatchOptions, type JsonRpcCall } from './dispatch.js';
import { JsonRpcErrorException, invalidRequest, methodNotFound } from './errors.js';
import { parseJsonRpcBody } from './parse.js';

const opts: DispatchOptions = {
  maxBatch: 10,
  onBatchTooLarge: () => invalidRequest('batch request exceeds maximum (10) allowed number of requests'),
  notificationsGetNoResponse: true,
};

const call: JsonRpcCall = (req) => {
  if (req.method === 'health') return {};
  if (req.method === 'echo') return (req.params as unknown[])[0];
  throw new JsonRpcErrorException(methodNotFound(req.method));
};

async function onHttp(req: { method: string; body: Uint8Array }): Promise<HttpResponse> {
  if (req.method !== 'POST') return { status: 405, body: '' };
  const out = await dispatchJsonRpc(parseJsonRpcBody(req.body), call, opts);
  return { status: 200, headers: { 'content-type': 'application/json' }, body: out.body ?? '' };
}

describe.each(BACKENDS)('JSON-RPC over the %s transport', (backend) => {
  let server: RunningServer | undefined;
  afterEach(async () => {
    await server?.stop();
    server = undefined;
  });

  const post = async (body: string): Promise<{ status: number; text: string }> => {
    const res = await fetch(server!.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    return { status: res.status, text: await res.text() };
  };

  it('answers single calls, batches, notifications and bad bodies over HTTP', async () => {
    server = await testServer(backend, { onHttp });
    expect(await post('{"jsonrpc":"2.0","id":1,"method":"health"}')).toEqual({ status: 200, text: '{"jsonrpc":"2.0","id":1,"result":{}}' });
    expect(JSON.parse((await post('[{"jsonrpc":"2.0","id":1,"method":"echo","params":["a"]},{"jsonrpc":"2.0","id":2,"method":"x"}]')).text)).toEqual([
      { jsonrpc: '2.0', id: 1, result: 'a' },
      { jsonrpc: '2.0', id: 2, error: { code: -32601, message: 'Method not found', data: 'x' } },
    ]);
    expect(await post('{"jsonrpc":"2.0","method":"health"}')).toEqual({ status: 200, text: '' });
    expect(JSON.parse((await post('{"jsonrpc":')).text)).toMatchObject({ id: null, error: { code: -32700 } });
  });

  it('answers calls over WebSocket with the same dispatcher', async () => {
    server = await testServer(backend, {
      websocket: {
        path: '/websocket',
        maxPayloadBytes: 10_000,
        handlers: {
          onMessage: (c, text) => {
            void dispatchJsonRpc(parseJsonRpcBody(text), call, opts).then((out) => out.body !== undefined && c.send(out.body));
          },
        },
      },
    });
    const ws = await openWs(server.wsUrl);
    ws.send('{"jsonrpc":"2.0","id":"w1","method":"echo","params":[42]}');
    expect(await nextMessage(ws)).toBe('{"jsonrpc":"2.0","id":"w1","result":42}');
    ws.send('not json');
    expect(JSON.parse(await nextMessage(ws))).toMatchObject({ error: { code: -32700 } });
    ws.terminate();
  });
});
