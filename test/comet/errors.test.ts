/**
 * Bad input over HTTP and WebSocket: each case gets CometBFT's error form and status (REFERENCE
 * §1.8), and the server keeps serving afterwards.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { b64, call, get, post, signTransfer, startCometTestNode, WsProbe, type CometTestNode, type RawResponse } from './helpers.js';

let t: CometTestNode;

beforeAll(async () => {
  t = await startCometTestNode({ config: { rpc: { maxBodyBytes: 4096 }, mempool: { maxTxBytes: 1000 } } });
  await t.node.mine(1);
});

afterAll(async () => {
  await t?.stop();
});

describe('JSON-RPC over HTTP', () => {
  it('malformed JSON → HTTP 500, -32700, no id', async () => {
    const r = await post(t.url, '{"jsonrpc":"2.0","id":1,"method":');
    expect(r.status).toBe(500);
    expect(r.json.error.code).toBe(-32700);
    expect(r.json.error.message).toBe('Parse error. Invalid JSON');
    expect(r.json.error.data).toMatch(/^error unmarshaling request: /);
    expect(r.json).not.toHaveProperty('id');
    expect((await post(t.url, 'hello')).json.error.data).toBe("error unmarshaling request: invalid character 'h' looking for beginning of value");
    expect((await post(t.url, { id: { a: 1 }, method: 'status' })).status).toBe(500);
  });

  it('wrong param types → -32602 with the Go decoder text (HTTP 200)', async () => {
    const r = await post(t.url, { jsonrpc: '2.0', id: 7, method: 'block', params: { height: 5 } });
    expect(r.status).toBe(200);
    expect(r.json).toEqual({
      jsonrpc: '2.0',
      id: 7,
      error: {
        code: -32602,
        message: 'Invalid params',
        data: 'error converting json params to arguments: invalid 64-bit integer encoding "5", expected string',
      },
    });
    expect((await call(t.url, 'tx', { hash: 'not base64!' })).error.data).toBe(
      'error converting json params to arguments: illegal base64 data at input byte 3',
    );
    expect((await call(t.url, 'abci_query', { path: 1 })).error.code).toBe(-32602);
    expect((await call(t.url, 'blockchain', ['1'])).error.data).toMatch(
      /^error converting json params to arguments: expected 2 parameters \(\[minHeight maxHeight\]\), got 1/,
    );
    expect((await call(t.url, 'block', 'x')).error.code).toBe(-32602);
  });

  it('handler errors → -32603 with the error text (HTTP 200)', async () => {
    const r = await post(t.url, { jsonrpc: '2.0', id: 1, method: 'block', params: { height: '999' } });
    expect(r.status).toBe(200);
    expect(r.json.error).toEqual({
      code: -32603,
      message: 'Internal error',
      data: `height 999 must be less than or equal to the current blockchain height ${t.node.height}`,
    });
    expect((await call(t.url, 'block', { height: '0' })).error.data).toBe('height must be greater than 0, but got 0');
    expect((await call(t.url, 'tx_search', { query: "tm.event = 'Tx' OR" })).error.code).toBe(-32603);
  });

  it("mempool refusals → -32603 with CometBFT's texts", async () => {
    const big = b64(new Uint8Array(1500).fill(1));
    expect((await call(t.url, 'broadcast_tx_sync', { tx: big })).error.data).toBe('Tx too large. Max size is 1000, but got 1500');
    expect((await call(t.url, 'broadcast_tx_async', { tx: big })).error.data).toBe('Tx too large. Max size is 1000, but got 1500');
    expect((await call(t.url, 'broadcast_tx_commit', { tx: big })).error.data).toBe('error on broadcastTxCommit: Tx too large. Max size is 1000, but got 1500');
  });

  it('unknown and WebSocket-only methods → -32601', async () => {
    expect((await call(t.url, 'no_such_method')).error).toEqual({ code: -32601, message: 'Method not found' });
    expect((await call(t.url, 'subscribe', { query: "tm.event='NewBlock'" })).error.code).toBe(-32601);
    expect((await call(t.url, 'dial_seeds', { seeds: [] })).error.code).toBe(-32601);
  });

  it('batches: bare object for one response, array for more, nothing for notifications', async () => {
    const one = await post(t.url, [{ jsonrpc: '2.0', id: 1, method: 'health' }]);
    expect(one.json).toEqual({ jsonrpc: '2.0', id: 1, result: {} });
    const withNote = await post(t.url, [
      { jsonrpc: '2.0', method: 'health' },
      { jsonrpc: '2.0', id: 2, method: 'health' },
    ]);
    expect(withNote.json).toEqual({ jsonrpc: '2.0', id: 2, result: {} });
    const two = await post(t.url, [
      { jsonrpc: '2.0', id: 'a', method: 'health' },
      { jsonrpc: '2.0', id: 'b', method: 'nope' },
    ]);
    expect(two.json).toEqual([
      { jsonrpc: '2.0', id: 'a', result: {} },
      { jsonrpc: '2.0', id: 'b', error: { code: -32601, message: 'Method not found' } },
    ]);
    const notes = await post(t.url, [
      { jsonrpc: '2.0', method: 'health' },
      { jsonrpc: '2.0', id: null, method: 'status' },
    ]);
    expect(notes.status).toBe(200);
    expect(notes.text).toBe('');
    expect((await post(t.url, { jsonrpc: '2.0', method: 'health' })).text).toBe('');
  });

  it('a batch over max_request_batch_size → one bare -32600 error', async () => {
    const batch = Array.from({ length: 11 }, (_, i) => ({ jsonrpc: '2.0', id: i, method: 'health' }));
    const r = await post(t.url, batch);
    expect(r.status).toBe(200);
    expect(r.json).toEqual({
      jsonrpc: '2.0',
      error: { code: -32600, message: 'Invalid Request', data: 'batch request exceeds maximum (10) allowed number of requests' },
    });
    expect(Array.isArray((await post(t.url, batch.slice(0, 10))).json)).toBe(true);
  });

  it('an oversized body → 413 with a JSON-RPC error, and the server goes on', async () => {
    const big = { jsonrpc: '2.0', id: 1, method: 'broadcast_tx_sync', params: { tx: b64(new Uint8Array(8192)) } };
    const r = await post(t.url, big);
    expect(r.status).toBe(413);
    expect(r.json.error).toEqual({ code: -32600, message: 'Invalid Request', data: 'error reading request body: http: request body too large' });
    expect((await call(t.url, 'health')).result).toEqual({});
  });

  it('any path but / for JSON-RPC → plain 404', async () => {
    const r = await post(t.url, { jsonrpc: '2.0', id: 1, method: 'health' }, '/v2/rpc');
    expect(r.status).toBe(404);
    expect(r.text).toBe('404 page not found\n');
  });
});

describe('URI', () => {
  it('bad args → HTTP 500 with -32602', async () => {
    const r = await get(t.url, '/block?height=abc');
    expect(r.status).toBe(500);
    expect(r.json).toEqual({
      jsonrpc: '2.0',
      id: -1,
      error: {
        code: -32602,
        message: 'Invalid params',
        data: "error converting http params to arguments: invalid character 'a' looking for beginning of value",
      },
    });
    expect((await get(t.url, '/block?height=0x10')).json.error.data).toBe(
      "error converting http params to arguments: got a hex string arg, but expected 'int64'",
    );
    expect((await get(t.url, '/tx_search?query=tm.event')).status).toBe(500);
  });

  it('handler errors → HTTP 500 with -32603', async () => {
    const r = await get(t.url, `/tx?hash=0x${'AB'.repeat(32)}`);
    expect(r.status).toBe(500);
    expect(r.json.error).toEqual({ code: -32603, message: 'Internal error', data: `tx (${'AB'.repeat(32)}) not found` });
  });

  it('WebSocket-only methods → 404 with -32601; unknown paths → plain 404', async () => {
    const r = await get(t.url, '/subscribe?query="tm.event=\'Tx\'"');
    expect(r.status).toBe(404);
    expect(r.json).toEqual({ jsonrpc: '2.0', id: -1, error: { code: -32601, message: 'Method not found' } });
    const u = await get(t.url, '/no_such_method');
    expect(u.status).toBe(404);
    expect(u.text).toBe('404 page not found\n');
    expect((await get(t.url, '/dial_seeds')).status).toBe(404);
  });

  it('takes args from a POSTed form too', async () => {
    const r = await post(t.url, 'height=1', '/block', { 'content-type': 'application/x-www-form-urlencoded' });
    expect(r.json.result.block.header.height).toBe('1');
  });
});

describe('resilience', () => {
  /** A bad request and the answer it must get: HTTP status and JSON-RPC error code (undefined = plain text). */
  interface BadCase {
    send: () => Promise<RawResponse>;
    status: number;
    code: number | undefined;
  }

  it('answers several hundred bad requests each with its proper error, then serves a good one', async () => {
    const raw = b64(await signTransfer({ nonce: 0 }));
    const cases: BadCase[] = [
      { send: () => post(t.url, '{'), status: 500, code: -32700 },
      { send: () => post(t.url, '[1,2,3]'), status: 500, code: -32700 },
      { send: () => post(t.url, { id: 1, method: 'block', params: { height: -5 } }), status: 200, code: -32602 },
      { send: () => post(t.url, { id: 1, method: 'block', params: [1, 2, 3] }), status: 200, code: -32602 },
      { send: () => post(t.url, { id: 1, method: 'broadcast_tx_sync', params: { tx: '%%%' } }), status: 200, code: -32602 },
      { send: () => post(t.url, { id: 1, method: 'block', params: { height: '-5' } }), status: 200, code: -32603 },
      { send: () => post(t.url, { id: 1, method: 'tx_search', params: { query: ')(' } }), status: 200, code: -32603 },
      { send: () => post(t.url, { id: 1, method: 'abci_query', params: { path: '/evm/balance/zz', data: 'q' } }), status: 200, code: -32602 },
      { send: () => post(t.url, { id: 1, method: '__proto__' }), status: 200, code: -32601 },
      { send: () => post(t.url, { id: 1, method: 'constructor', params: null }), status: 200, code: -32601 },
      { send: () => get(t.url, '/block?height=9999999999999999999999'), status: 500, code: -32602 },
      { send: () => get(t.url, '/tx?hash="x"&prove=maybe'), status: 500, code: -32602 },
      { send: () => get(t.url, '/validators?page=-1&per_page=abc'), status: 500, code: -32602 },
      { send: () => get(t.url, '/%ff%fe'), status: 404, code: undefined },
      {
        send: () =>
          post(
            t.url,
            Array.from({ length: 50 }, () => ({ id: 1 })),
          ),
        status: 200,
        code: -32600,
      },
    ];
    let answered = 0;
    for (let round = 0; round < 20; round++) {
      const results = await Promise.all(cases.map((c) => c.send()));
      results.forEach((r, i) => {
        const c = cases[i]!;
        expect(r.status, `case ${i}`).toBe(c.status);
        if (c.code === undefined) expect(r.json, `case ${i}`).toBeUndefined();
        else expect(r.json?.error?.code, `case ${i}: ${r.text.slice(0, 200)}`).toBe(c.code);
        answered++;
      });
    }
    expect(answered).toBe(300);
    // A CheckTx rejection is a result with a code, not an error.
    expect((await call(t.url, 'broadcast_tx_sync', { tx: b64(new Uint8Array([1, 2, 3])) })).result.code).not.toBe(0);
    const good = await call(t.url, 'broadcast_tx_commit', { tx: raw });
    expect(good.result.tx_result.code).toBe(0);
    expect((await call(t.url, 'status')).result.sync_info.latest_block_height).toBe(String(t.node.height));
  });

  it('answers several hundred bad WebSocket frames on one connection, then a good call', async () => {
    const ws = await WsProbe.open(t.wsUrl);
    try {
      const frames: { frame: unknown; code: number | undefined }[] = [
        { frame: '{', code: -32700 },
        { frame: '[{"jsonrpc":"2.0","id":1,"method":"health"}]', code: -32700 },
        { frame: { jsonrpc: '2.0', id: 1, method: 'nope' }, code: -32601 },
        { frame: { jsonrpc: '2.0', id: 1, method: 'block', params: { height: 1 } }, code: -32603 },
        { frame: { jsonrpc: '2.0', id: 1, method: 'subscribe', params: { query: 'tm.event =' } }, code: -32603 },
        { frame: { jsonrpc: '2.0', id: 1, method: 'subscribe', params: { query: `a='${'x'.repeat(600)}'` } }, code: -32603 },
        { frame: { jsonrpc: '2.0', id: 1, method: 'unsubscribe', params: { query: "tm.event='Tx'" } }, code: -32603 },
        { frame: { jsonrpc: '2.0', method: 'health' }, code: undefined }, // notification: no answer
      ];
      const rounds = 40;
      for (let r = 0; r < rounds; r++) for (const f of frames) ws.send(f.frame);
      const expected = frames.filter((f) => f.code !== undefined).map((f) => f.code);
      for (let r = 0; r < rounds; r++) {
        for (const code of expected) expect((await ws.next()).error.code).toBe(code);
      }
      expect(rounds * frames.length).toBeGreaterThanOrEqual(300);
      expect(await ws.call('ok', 'health')).toEqual({ jsonrpc: '2.0', id: 'ok', result: {} });
      expect(ws.messages).toEqual([]);
    } finally {
      await ws.close();
    }
  });
});
