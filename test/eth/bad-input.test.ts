/**
 * Bad input gets geth's errors and never takes the server down: malformed JSON, invalid
 * requests, wrong param types and counts, oversized batches, unknown filters and methods,
 * wrong HTTP method or content type; refused txs surface in viem as its typed node errors.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { encodeErrorResult, InsufficientFundsError, IntrinsicGasTooLowError, NonceTooLowError, parseGwei, type Address, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { call, DEV, httpClients, post, rpc, startEthTestNode, type EthTestNode } from './helpers.js';

let t: EthTestNode;

beforeAll(async () => {
  t = await startEthTestNode();
});

afterAll(async () => {
  await t?.stop();
});

const body = async (payload: unknown) => JSON.parse((await post(t.url, payload)).text) as unknown;

describe('malformed requests', () => {
  it('parse errors, invalid requests, empty batches', async () => {
    expect(await body('{"jsonrpc":"2.0","method":')).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'parse error' } });
    expect(await body('[]')).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32600, message: 'empty batch' } });
    expect(await body('42')).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32600, message: 'invalid request' } });
    expect(await body({ jsonrpc: '2.0', id: 7, method: 5 })).toEqual({ jsonrpc: '2.0', id: 7, error: { code: -32600, message: 'invalid request' } });
    const batch = (await body([{ jsonrpc: '2.0', id: 1, method: 'eth_chainId' }, 'x', { jsonrpc: '2.0', id: 3, method: 'nope_x' }])) as unknown[];
    expect(batch).toEqual([
      { jsonrpc: '2.0', id: 1, result: '0x2328' },
      { jsonrpc: '2.0', id: null, error: { code: -32600, message: 'invalid request' } },
      { jsonrpc: '2.0', id: 3, error: { code: -32601, message: 'the method nope_x does not exist/is not available' } },
    ]);
  });

  it('notifications get no response', async () => {
    const r = await post(t.url, { jsonrpc: '2.0', method: 'eth_chainId' });
    expect(r).toEqual({ status: 200, text: '' });
  });

  it('an oversized batch (batch-request-limit 1000) answers one error', async () => {
    const reqs = Array.from({ length: 1001 }, (_, i) => ({ jsonrpc: '2.0', id: i + 1, method: 'eth_chainId' }));
    expect(await body(reqs)).toEqual([{ jsonrpc: '2.0', id: 1, error: { code: -32600, message: 'batch too large' } }]);
  });

  it('wrong HTTP method or content type', async () => {
    expect((await fetch(t.url)).status).toBe(405);
    expect((await post(t.url, { jsonrpc: '2.0', id: 1, method: 'eth_chainId' }, { 'content-type': 'text/plain' })).status).toBe(415);
  });

  it('hundreds of malformed requests, then a good one', async () => {
    const junk = ['{', 'null', '[1,2', '{"id":1}', '"str"', '{"jsonrpc":"1.0","id":1,"method":"x"}', '\u0000\u0001'];
    await Promise.all(Array.from({ length: 300 }, (_, i) => post(t.url, junk[i % junk.length]!)));
    expect(await call(t.url, 'eth_chainId')).toBe('0x2328');
  });
});

describe('params are checked with geth texts', () => {
  it.each([
    ['eth_getBalance', [123, 'latest'], 'invalid argument 0: json: cannot unmarshal non-string into Go value of type common.Address'],
    [
      'eth_getBalance',
      ['f39fd6e51aad88f6f4ce6ab8827279cfffb92266'],
      'invalid argument 0: json: cannot unmarshal hex string without 0x prefix into Go value of type common.Address',
    ],
    ['eth_getBalance', ['0x1234', 'latest'], 'invalid argument 0: hex string has length 4, want 40 for common.Address'],
    ['eth_getBalance', [DEV[0]!.address, '0x01'], 'invalid argument 1: hex number with leading zero digits'],
    ['eth_getBalance', [DEV[0]!.address, 'latest', 1], 'too many arguments, want at most 2'],
    ['eth_getBlockByNumber', [], 'missing value for required argument 0'],
    ['eth_getBlockByNumber', ['0x1', 'yes'], 'invalid argument 1: json: cannot unmarshal string into Go value of type bool'],
    [
      'eth_call',
      [{ to: DEV[0]!.address, gas: 'lots' }],
      'invalid argument 0: json: cannot unmarshal hex string without 0x prefix into Go struct field TransactionArgs.gas of type hexutil.Uint64',
    ],
    ['eth_getTransactionByHash', ['0xabc'], 'invalid argument 0: hex string has length 3, want 64 for common.Hash'],
    ['eth_sendRawTransaction', ['0xzz'], 'invalid argument 0: json: cannot unmarshal invalid hex string into Go value of type hexutil.Bytes'],
    [
      'eth_getLogs',
      [{ blockHash: `0x${'11'.repeat(32)}`, fromBlock: '0x1' }],
      'invalid argument 0: cannot specify both BlockHash and FromBlock/ToBlock, choose one or the other',
    ],
  ])('%s %j', async (method, params, message) => {
    expect((await rpc(t.url, method, params)).error).toEqual({ code: -32602, message });
  });

  it('unknown filters, blocks and methods', async () => {
    expect((await rpc(t.url, 'eth_getFilterChanges', ['0xdeadbeef'])).error).toEqual({ code: -32000, message: 'filter not found' });
    expect((await rpc(t.url, 'eth_getFilterLogs', ['0xdeadbeef'])).error).toEqual({ code: -32000, message: 'filter not found' });
    expect(await call(t.url, 'eth_uninstallFilter', ['0xdeadbeef'])).toBe(false);
    expect((await rpc(t.url, 'eth_getBalance', [DEV[0]!.address, '0xffffff'])).error).toEqual({ code: -32000, message: 'header not found' });
    expect((await rpc(t.url, 'eth_fillTransaction', [{}])).error).toEqual({ code: -32004, message: 'eth_fillTransaction is not supported' });
    expect((await rpc(t.url, 'debug_getRawBlock', ['0x1'])).error).toEqual({ code: -32004, message: 'debug_getRawBlock is not supported' });
    expect((await rpc(t.url, 'engine_newPayloadV3', [])).error).toEqual({ code: -32004, message: 'engine_newPayloadV3 is not supported' });
    expect((await rpc(t.url, 'trace_block', ['0x1'])).error).toEqual({ code: -32004, message: 'trace_block is not supported' });
    expect((await rpc(t.url, 'eth_getLogs', [{ fromBlock: '0x2', toBlock: '0x1' }])).error).toEqual({ code: -32000, message: 'invalid block range params' });
    expect((await rpc(t.url, 'personal_listAccounts', [])).error?.code).toBe(-32601);
  });

  it('malformed WebSocket frames get errors and the connection stays usable', async () => {
    const ws = new WebSocket(t.wsUrl);
    await new Promise((r) => ws.once('open', r));
    const replies: unknown[] = [];
    ws.on('message', (d) => replies.push(JSON.parse(String(d))));
    ws.send('{oops');
    ws.send(JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'eth_chainId' }));
    for (const end = Date.now() + 10_000; replies.length < 2 && Date.now() < end;) await new Promise((r) => setTimeout(r, 10));
    ws.close();
    expect(replies).toContainEqual({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'parse error' } });
    expect(replies).toContainEqual({ jsonrpc: '2.0', id: 2, result: '0x2328' });
  });
});

describe('reverted calls', () => {
  // Reverts with its calldata: CALLDATACOPY(0, 0, size) REVERT(0, size).
  const X = '0x000000000000000000000000000000000000aa01';
  const echoRevert = { [X]: { code: '0x365f5f37365ffd' } };

  it('eth_call answers code 3 with the revert reason and the exact revert bytes as data', async () => {
    const reason = encodeErrorResult({ abi: [{ type: 'error', name: 'Error', inputs: [{ type: 'string' }] }], errorName: 'Error', args: ['nope'] });
    expect((await rpc(t.url, 'eth_call', [{ to: X, input: reason }, 'latest', echoRevert])).error).toEqual({
      code: 3,
      message: 'execution reverted: nope',
      data: reason,
    });
    expect((await rpc(t.url, 'eth_call', [{ to: X, input: '0xdeadbeef' }, 'latest', echoRevert])).error).toEqual({
      code: 3,
      message: 'execution reverted',
      data: '0xdeadbeef',
    });
  });

  it('eth_estimateGas answers the same way', async () => {
    expect((await rpc(t.url, 'eth_estimateGas', [{ to: X, input: '0xdeadbeef' }, 'latest', echoRevert])).error).toEqual({
      code: 3,
      message: 'execution reverted',
      data: '0xdeadbeef',
    });
  });
});

describe('refused txs surface as viem node errors', () => {
  it('nonce too low, insufficient funds, intrinsic gas too low', async () => {
    const { wallet, public: pub } = httpClients(t.url);
    const acct = privateKeyToAccount(DEV[5]!.privateKey as Hex);
    const hash = await wallet.sendTransaction({ account: acct, to: DEV[9]!.address as Address, value: 1n });
    await pub.waitForTransactionReceipt({ hash });
    const base = { account: acct, to: DEV[9]!.address as Address, value: 1n, maxFeePerGas: parseGwei('20'), maxPriorityFeePerGas: 1n } as const;
    const is = (cls: new (...a: never[]) => Error) => (e: Error & { walk(fn: (x: unknown) => boolean): unknown }) => e.walk((x) => x instanceof cls) !== null;
    await expect(wallet.sendTransaction({ ...base, nonce: 0, gas: 21_000n })).rejects.toSatisfy(is(NonceTooLowError));
    const poor = privateKeyToAccount(`0x${'42'.repeat(32)}`);
    await expect(wallet.sendTransaction({ ...base, account: poor, nonce: 0, gas: 21_000n })).rejects.toSatisfy(is(InsufficientFundsError));
    await expect(wallet.sendTransaction({ ...base, gas: 20_000n })).rejects.toSatisfy(is(IntrinsicGasTooLowError));
  });
});
