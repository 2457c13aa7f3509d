/**
 * The `[json-rpc]` keys are enforced: evm-timeout (an endless loop ends with geth's error while
 * the node keeps answering), rpc-gas-cap, api namespaces, batch limits, logs-cap,
 * block-range-cap, filter-timeout, feehistory-cap, allow-unprotected-txs, the body limit,
 * http-timeout and max-open-connections. (ws-origins: viem-ws.test.ts; enable-profiling:
 * test/eth-namespaces/debug.test.ts.)
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect } from 'node:net';
import WebSocket from 'ws';
import { Common, Hardfork, Mainnet } from '@ethereumjs/common';
import { createLegacyTx } from '@ethereumjs/tx';
import { erc20DeployData, erc20TransferData } from '../../src/app/fixtures/erc20.js';
import { defaultConfig, mergeConfig } from '../../src/config/defaults.js';
import { overridesFromFlags, overridesFromToml } from '../../src/config/files.js';
import { asm, call, DEV, hex, post, rpc, startEthTestNode, waitFor, type EthTestNode } from './helpers.js';

const X = '0x000000000000000000000000000000000000aa01';
const from = DEV[0]!.address.toLowerCase();
let t: EthTestNode;
let token: string;

beforeAll(async () => {
  t = await startEthTestNode({
    config: {
      jsonRpc: {
        api: ['eth', 'net'],
        evmTimeoutMs: 2000,
        batchRequestLimit: 3,
        batchResponseMaxSize: 400,
        logsCap: 1,
        blockRangeCap: 2,
        filterTimeoutMs: 1000,
        feeHistoryCap: 2,
        maxBodyBytes: 10_000,
      },
    },
  });
  const hash = await call<string>(t.url, 'eth_sendTransaction', [{ from, gas: '0x100000', data: hex(erc20DeployData(10n ** 24n)) }]);
  token = (await waitFor(() => call<{ contractAddress: string } | null>(t.url, 'eth_getTransactionReceipt', [hash]))).contractAddress;
});

afterAll(async () => {
  await t?.stop();
});

describe('[json-rpc] keys: the seed’s and Cosmos EVM’s, in app.toml and as --json-rpc.* flags', () => {
  it('defaults', () => {
    expect(defaultConfig().jsonRpc).toMatchObject({
      enable: true,
      address: '127.0.0.1:8545',
      wsAddress: '127.0.0.1:8546',
      api: ['eth', 'web3', 'net', 'txpool'],
      maxOpenConnections: 0,
      gasCap: 0n,
      evmTimeoutMs: 10_000,
      filterTimeoutMs: 300_000,
      feeHistoryCap: 100,
      logsCap: 10_000,
      blockRangeCap: 10_000,
      httpTimeoutMs: 30_000,
      httpIdleTimeoutMs: 120_000,
      allowUnprotectedTxs: false,
      batchRequestLimit: 1000,
      batchResponseMaxSize: 25_000_000,
      enableProfiling: false,
      wsOrigins: ['127.0.0.1', 'localhost'],
    });
  });

  const values = {
    enable: false,
    address: '0.0.0.0:18545',
    'ws-address': '0.0.0.0:18546',
    api: 'eth,net',
    'max-open-connections': 7,
    'rpc-gas-cap': 50_000,
    'evm-timeout': '3s',
    'filter-timeout': '1m',
    'feehistory-cap': 5,
    'logs-cap': 6,
    'block-range-cap': 7,
    'http-timeout': '4s',
    'http-idle-timeout': '5s',
    'allow-unprotected-txs': true,
    'batch-request-limit': 8,
    'batch-response-max-size': 9,
    'enable-profiling': true,
    'ws-origins': 'example.org',
  } as const;
  const expected = {
    enable: false,
    address: '0.0.0.0:18545',
    wsAddress: '0.0.0.0:18546',
    api: ['eth', 'net'],
    maxOpenConnections: 7,
    gasCap: 50_000n,
    evmTimeoutMs: 3000,
    filterTimeoutMs: 60_000,
    feeHistoryCap: 5,
    logsCap: 6,
    blockRangeCap: 7,
    httpTimeoutMs: 4000,
    httpIdleTimeoutMs: 5000,
    allowUnprotectedTxs: true,
    batchRequestLimit: 8,
    batchResponseMaxSize: 9,
    enableProfiling: true,
    wsOrigins: ['example.org'],
  };

  it('app.toml [json-rpc] (rpc-gas-cap as the seed names it)', () => {
    const doc = { 'json-rpc': { ...values, api: ['eth', 'net'], 'ws-origins': ['example.org'] } };
    expect(mergeConfig(defaultConfig(), overridesFromToml('app', doc)).jsonRpc).toMatchObject(expected);
  });

  it('--json-rpc.* flags', () => {
    const flags = Object.fromEntries(Object.entries(values).map(([k, v]) => [`json-rpc.${k}`, String(v)]));
    expect(mergeConfig(defaultConfig(), overridesFromFlags(flags)).jsonRpc).toMatchObject(expected);
  });
});

describe('[json-rpc] enforcement', () => {
  it('evm-timeout: an endless loop errors after the timeout and the node keeps serving', async () => {
    const loop = asm('start: @start JUMP');
    let done = false;
    const started = Date.now();
    const looping = rpc(t.url, 'eth_call', [{ to: X, gas: '0x3b9aca00' }, 'latest', { [X]: { code: loop } }]).finally(() => {
      done = true;
    });
    await new Promise((r) => setTimeout(r, 100));
    expect(await call(t.url, 'eth_blockNumber')).toMatch(/^0x/);
    // Other calls run meanwhile (more than the EVM pool holds: some wait for a free EVM).
    const ret42 = asm('PUSH1 42 PUSH0 MSTORE PUSH1 32 PUSH0 RETURN');
    const others = await Promise.all(Array.from({ length: 20 }, () => call<string>(t.url, 'eth_call', [{ to: X }, 'latest', { [X]: { code: ret42 } }])));
    expect(others.every((r) => BigInt(r) === 42n)).toBe(true);
    expect(done).toBe(false);
    const r = await looping;
    expect(r.error).toEqual({ code: -32000, message: 'execution aborted (timeout = 2s)' });
    expect(Date.now() - started).toBeGreaterThanOrEqual(2000);
    expect(await call(t.url, 'eth_chainId')).toBe('0x2328');
  });

  it('a namespace not in `api` answers like an unknown method', async () => {
    expect((await rpc(t.url, 'web3_clientVersion')).error).toEqual({
      code: -32601,
      // geth's words first, then how to turn the namespace on.
      message: expect.stringMatching(
        /^the method web3_clientVersion does not exist\/is not available \(the web3 namespace is off: start with --json-rpc\.api \S*,web3, /,
      ),
    });
    expect(await call(t.url, 'net_version')).toBe('9000');
  });

  it('batch-request-limit: one error under the first id', async () => {
    const batch = [1, 2, 3, 4].map((id) => ({ jsonrpc: '2.0', id, method: 'eth_chainId' }));
    expect(JSON.parse((await post(t.url, batch)).text)).toEqual([{ jsonrpc: '2.0', id: 1, error: { code: -32600, message: 'batch too large' } }]);
  });

  it('batch-response-max-size: responses past the limit are "response too large"', async () => {
    const batch = [1, 2, 3].map((id) => ({ jsonrpc: '2.0', id, method: 'eth_getBlockByNumber', params: ['latest', false] }));
    const out = JSON.parse((await post(t.url, batch)).text) as { id: number; error?: { code: number; message: string } }[];
    expect(out.map((r) => r.id)).toEqual([1, 2, 3]);
    expect(out.at(-1)!.error).toEqual({ code: -32003, message: 'response too large' });
  });

  it('logs-cap and block-range-cap', async () => {
    for (let i = 0; i < 2; i++) {
      const h = await call<string>(t.url, 'eth_sendTransaction', [{ from, to: token, gas: '0x10000', data: hex(erc20TransferData(DEV[2]!.address, 1n)) }]);
      await waitFor(() => call(t.url, 'eth_getTransactionReceipt', [h]));
    }
    const head = Number(await call<string>(t.url, 'eth_blockNumber'));
    const from0 = `0x${Math.max(1, head - 2).toString(16)}`;
    expect((await rpc(t.url, 'eth_getLogs', [{ fromBlock: from0, toBlock: 'latest', address: token }])).error).toEqual({
      code: -32000,
      message: 'query returned more than 1 results',
    });
    expect((await rpc(t.url, 'eth_getLogs', [{ fromBlock: '0x1', toBlock: '0x9' }])).error).toEqual({
      code: -32000,
      message: 'maximum [from, to] blocks distance: 2',
    });
  });

  it('filter-timeout: an idle filter expires', async () => {
    const id = await call<string>(t.url, 'eth_newBlockFilter');
    expect(await call(t.url, 'eth_getFilterChanges', [id])).toEqual([]);
    await new Promise((r) => setTimeout(r, 1200));
    expect((await rpc(t.url, 'eth_getFilterChanges', [id])).error).toEqual({ code: -32000, message: 'filter not found' });
  });

  it('feehistory-cap bounds eth_feeHistory', async () => {
    expect((await rpc(t.url, 'eth_feeHistory', ['0x3', 'latest', []])).error).toEqual({
      code: -32602,
      message: 'invalid argument 0: block count 3 exceeds fee history cap 2',
    });
    expect((await call<{ gasUsedRatio: number[] }>(t.url, 'eth_feeHistory', ['0x2', 'latest', []])).gasUsedRatio).toHaveLength(2);
  });

  it('allow-unprotected-txs = false refuses a pre-EIP-155 tx', async () => {
    const tx = createLegacyTx(
      { nonce: 0, gasPrice: 10n ** 10n, gasLimit: 21_000n, to: X, value: 1n },
      { common: new Common({ chain: Mainnet, hardfork: Hardfork.TangerineWhistle }) },
    ).sign(Buffer.from(DEV[7]!.privateKey.slice(2), 'hex'));
    expect((await rpc(t.url, 'eth_sendRawTransaction', [hex(tx.serialize())])).error).toEqual({
      code: -32000,
      message: 'only replay-protected (EIP-155) transactions allowed over RPC',
    });
  });

  it('http-body-limit answers 413 and the server stays up', async () => {
    const big = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'web3_sha3', params: [`0x${'00'.repeat(20_000)}`] });
    expect((await post(t.url, big)).status).toBe(413);
    expect(await call(t.url, 'eth_chainId')).toBe('0x2328');
  });
});

describe('rpc-gas-cap', () => {
  let capped: EthTestNode;
  beforeAll(async () => {
    capped = await startEthTestNode({ config: { jsonRpc: { gasCap: 50_000n } } });
  });
  afterAll(async () => {
    await capped?.stop();
  });

  it('bounds estimation and calls', async () => {
    // 30 cold SLOADs need more than 50000 gas.
    const code = asm(`${Array.from({ length: 30 }, (_, i) => `PUSH1 ${i + 2} SLOAD POP`).join(' ')} STOP`);
    const overrides = { [X]: { code } };
    expect((await rpc(capped.url, 'eth_estimateGas', [{ from, to: X }, 'latest', overrides])).error).toEqual({
      code: -32000,
      message: 'gas required exceeds allowance (50000)',
    });
    expect((await rpc(capped.url, 'eth_call', [{ from, to: X, gas: '0xfffff' }, 'latest', overrides])).error).toEqual({
      code: -32000,
      message: 'out of gas',
    });
    expect(await call(capped.url, 'eth_estimateGas', [{ from, to: X }, 'latest', { [X]: { code: asm('STOP') } }])).toBe('0x5208');
  });
});

describe('http-timeout and max-open-connections reach the listeners', () => {
  let n: EthTestNode;
  beforeAll(async () => {
    n = await startEthTestNode({ config: { jsonRpc: { httpTimeoutMs: 300, maxOpenConnections: 1 } } });
  });
  afterAll(async () => {
    await n?.stop();
  });

  it('http-timeout: a body that never arrives is answered 408', async () => {
    const { port } = new URL(n.url);
    const started = Date.now();
    // Promises 100 bytes, sends 2, then goes quiet.
    const head = await rawExchange(Number(port), 'POST / HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{}');
    expect(head).toMatch(/^HTTP\/1\.1 408/);
    expect(Date.now() - started).toBeLessThan(9000);
    expect(await call(n.url, 'eth_chainId')).toBe('0x2328');
  });

  it('max-open-connections: a second WebSocket is refused while one is open, accepted once it closes', async () => {
    const first = await openWs(n.wsUrl);
    await expect(openWs(n.wsUrl)).rejects.toThrow();
    const closed = new Promise((r) => first.once('close', r));
    first.close();
    await closed;
    // The server sees the close a moment later: retry until it accepts.
    const again = await waitFor(() => openWs(n.wsUrl).catch(() => undefined));
    expect(again.readyState).toBe(WebSocket.OPEN);
    again.close();
  });
});

/** Writes `request` on a fresh TCP connection and resolves with what came back once the server answers or closes. */
function rawExchange(port: number, request: string): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(request));
    let text = '';
    const timer = setTimeout(() => socket.destroy(), 10_000);
    socket.on('data', (d: Buffer) => {
      text += d.toString('latin1');
      if (text.includes('\r\n\r\n')) socket.destroy();
    });
    socket.on('error', () => socket.destroy());
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(text);
    });
  });
}

function openWs(url: string): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url);
    ws.once('open', () => resolve(ws));
    ws.once('error', reject);
    ws.once('unexpected-response', () => reject(new Error('refused')));
    ws.once('close', () => reject(new Error('closed')));
  });
}
