/**
 * The debug routes through the real eth dispatcher (param decoding, handler, geth errors), in
 * process. The same methods over HTTP are in test/eth-namespaces/debug.test.ts.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { DEV_ADDRESS_0, DEV_ADDRESS_1, ethHash, startTraceChain, type TraceChain } from '../../../../test/helpers/trace-chain.js';
import { erc20BalanceOfData, erc20TransferData } from '../../../app/fixtures/erc20.js';
import { EthDispatcher } from '../dispatcher.js';
import { createEip1193Provider } from '../../../node/rpc-eth.js';
import type { EthEnv } from '../env.js';
import { EthRpcError } from '../errors.js';
import { ETH_ROUTES } from '../routes.js';
import { DEBUG_ROUTES } from './debug.js';
import { PROFILING_DISABLED } from './debug-profiling.js';

let chain: TraceChain;
let env: EthEnv;
let off: EthEnv;
let rpc: EthDispatcher;
let rpcNoProfiling: EthDispatcher;
let tx: Uint8Array;
let height: number;
let dir: string;

const hex = (b: Uint8Array) => `0x${Buffer.from(b).toString('hex')}`;
const call = (method: string, params: unknown[] = [], d = rpc) => d.call(method, params, {});
const failure = async (p: Promise<unknown>) => {
  const e = await p.then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(EthRpcError);
  return (e as EthRpcError).toJsonRpc();
};

beforeAll(async () => {
  chain = await startTraceChain({ config: { jsonRpc: { enableProfiling: true, api: ['eth', 'debug'] } } });
  tx = chain.sign({ to: chain.token, data: erc20TransferData(DEV_ADDRESS_1, 3n) });
  height = await chain.block(tx);
  env = chain.node.internals.eth.env;
  off = { ...env, config: { ...env.config, enableProfiling: false } };
  const ns = new Set(['eth', 'debug']);
  rpc = new EthDispatcher(env, ns, [...ETH_ROUTES, ...DEBUG_ROUTES]);
  rpcNoProfiling = new EthDispatcher(off, ns, [...ETH_ROUTES, ...DEBUG_ROUTES]);
  dir = mkdtempSync(join(tmpdir(), 'chainlet-debug-'));
});
afterAll(async () => {
  await chain?.stop(); // disposes the node's profiler
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('debug tracing routes', () => {
  it('debug_traceTransaction with each tracer', async () => {
    const logs = (await call('debug_traceTransaction', [hex(ethHash(tx))])) as { structLogs: unknown[]; gas: number };
    expect(logs.structLogs.length).toBeGreaterThan(100);
    const frame = (await call('debug_traceTransaction', [hex(ethHash(tx)), { tracer: 'callTracer' }])) as { type: string; to: string };
    expect(frame).toMatchObject({ type: 'CALL', to: chain.token });
    const pre = (await call('debug_traceTransaction', [hex(ethHash(tx)), { tracer: 'prestateTracer' }])) as Record<string, unknown>;
    expect(pre[DEV_ADDRESS_0]).toBeDefined();
  });

  it('debug_traceBlockByNumber / ByHash with tags, numbers and hashes', async () => {
    const byTag = (await call('debug_traceBlockByNumber', ['latest', { tracer: 'callTracer' }])) as { txHash: string }[];
    expect(byTag.map((e) => e.txHash)).toEqual([hex(ethHash(tx))]);
    expect(await call('debug_traceBlockByNumber', [`0x${height.toString(16)}`, { tracer: 'callTracer' }])).toEqual(byTag);
    const block = (await chain.view.getBlock(height))!;
    expect(await call('debug_traceBlockByHash', [hex(block.hash), { tracer: 'callTracer' }])).toEqual(byTag);
  });

  it('debug_traceCall on a block', async () => {
    const r = (await call('debug_traceCall', [
      { from: DEV_ADDRESS_0, to: chain.token, data: hex(erc20BalanceOfData(DEV_ADDRESS_1)) },
      'latest',
      { tracer: 'callTracer' },
    ])) as {
      output: string;
    };
    expect(BigInt(r.output)).toBe(3n);
  });

  it('runs traces on the overlay state of calls: the memoised state after a height is opened once', async () => {
    const parent = `0x${(height - 1).toString(16)}`;
    await call('eth_call', [{ to: chain.token, data: hex(erc20BalanceOfData(DEV_ADDRESS_1)) }, parent]);
    const opened = vi.spyOn(chain.view, 'stateAt');
    try {
      const r = (await call('debug_traceCall', [
        { from: DEV_ADDRESS_0, to: chain.token, data: hex(erc20BalanceOfData(DEV_ADDRESS_1)) },
        parent,
        { tracer: 'callTracer' },
      ])) as { output: string };
      expect(BigInt(r.output)).toBe(0n);
      // The replay of the tx's block starts from the state after its parent: the same memo.
      expect(await call('debug_traceTransaction', [hex(ethHash(tx)), { tracer: 'callTracer' }])).toMatchObject({ type: 'CALL', to: chain.token });
      const block = (await call('debug_traceBlockByNumber', [`0x${height.toString(16)}`, { tracer: 'prestateTracer' }])) as { txHash: string }[];
      expect(block.map((e) => e.txHash)).toEqual([hex(ethHash(tx))]);
      expect(opened).not.toHaveBeenCalled();
    } finally {
      opened.mockRestore();
    }
  });

  it('answers geth errors', async () => {
    expect(await failure(call('debug_traceTransaction', [`0x${'00'.repeat(32)}`]))).toEqual({ code: -32000, message: 'transaction not found' });
    expect(await failure(call('debug_traceBlockByNumber', ['0x3e7']))).toEqual({ code: -32000, message: 'block #999 not found' });
    expect(await failure(call('debug_traceBlockByNumber', ['earliest']))).toEqual({ code: -32000, message: 'genesis is not traceable' });
    expect(await failure(call('debug_traceCall', [{ to: chain.token }, '0x3e7']))).toEqual({ code: -32000, message: 'header not found' });
    expect(await failure(call('debug_traceCall', [{ to: chain.token }]))).toEqual({ code: -32602, message: 'missing value for required argument 1' });
    expect(await failure(call('debug_traceTransaction', [hex(ethHash(tx)), { disableStack: 'yes' }]))).toEqual({
      code: -32602,
      message: 'invalid argument 1: json: cannot unmarshal string into Go struct field tracers.TraceConfig.disableStack of type bool',
    });
    const poor = { from: '0x000000000000000000000000000000000000dead', to: DEV_ADDRESS_1, value: '0x1', gas: '0x5208', gasPrice: '0xe8d4a51000' };
    const e = await failure(call('debug_traceCall', [poor, 'latest']));
    expect(e.code).toBe(-32000);
    expect(e.message).toMatch(/^insufficient funds for gas \* price \+ value: have 0 want \d+$/);
  });
});

describe('debug profiling routes', () => {
  it('are refused unless enable-profiling is set', async () => {
    for (const [method, params] of [
      ['debug_memStats', []],
      ['debug_gcStats', []],
      ['debug_stacks', []],
      ['debug_freeOSMemory', []],
      ['debug_setGCPercent', [50]],
      ['debug_startCPUProfile', [join(dir, 'x.cpuprofile')]],
      ['debug_stopCPUProfile', []],
      ['debug_cpuProfile', [join(dir, 'x.cpuprofile'), 0]],
      ['debug_writeMemProfile', [join(dir, 'x.heapsnapshot')]],
      ['debug_setBlockProfileRate', [1]],
      ['debug_writeBlockProfile', [join(dir, 'x.json')]],
      ['debug_blockProfile', [join(dir, 'x.json'), 0]],
      ['debug_setMutexProfileFraction', [1]],
      ['debug_writeMutexProfile', [join(dir, 'x.json')]],
      ['debug_mutexProfile', [join(dir, 'x.json'), 0]],
    ] as const) {
      expect(await failure(call(method, [...params], rpcNoProfiling))).toEqual({ code: -32000, message: PROFILING_DISABLED });
    }
    expect(existsSync(join(dir, 'x.cpuprofile'))).toBe(false);
  });

  it('CPU profile: start, already running, stop, not running', async () => {
    const file = join(dir, 'cpu.cpuprofile');
    expect(await call('debug_startCPUProfile', [file])).toBeNull();
    expect(await failure(call('debug_startCPUProfile', [file]))).toEqual({ code: -32000, message: 'CPU profiling already in progress' });
    await call('debug_traceTransaction', [hex(ethHash(tx))]); // something to sample
    expect(await call('debug_stopCPUProfile')).toBeNull();
    expect(await failure(call('debug_stopCPUProfile'))).toEqual({ code: -32000, message: 'CPU profiling not in progress' });
    const profile = JSON.parse(readFileSync(file, 'utf8')) as { nodes: unknown[]; startTime: number; endTime: number };
    expect(profile.nodes.length).toBeGreaterThan(0);
    expect(profile.endTime).toBeGreaterThan(profile.startTime);
  });

  it('is one profiler per node, shared with its in-process providers', async () => {
    const provider = createEip1193Provider(chain.node);
    try {
      const file = join(dir, 'shared.cpuprofile');
      expect(await call('debug_startCPUProfile', [file])).toBeNull();
      await expect(provider.request({ method: 'debug_startCPUProfile', params: [file] })).rejects.toMatchObject({
        code: -32000,
        message: 'CPU profiling already in progress',
      });
      expect(await provider.request({ method: 'debug_stopCPUProfile', params: [] })).toBeNull();
      expect(JSON.parse(readFileSync(file, 'utf8')).nodes.length).toBeGreaterThan(0);
    } finally {
      provider.close();
    }
  });

  it('memStats, gcStats, setGCPercent, stacks', async () => {
    const m = (await call('debug_memStats')) as Record<string, unknown>;
    expect(m['HeapAlloc']).toBeGreaterThan(0);
    expect(m['Sys']).toBeGreaterThan(m['HeapAlloc'] as number);
    expect((m['PauseNs'] as number[]).length).toBe(256);
    const g = (await call('debug_gcStats')) as Record<string, unknown>;
    expect(Object.keys(g)).toEqual(['LastGC', 'NumGC', 'PauseTotal', 'Pause', 'PauseEnd', 'PauseQuantiles']);
    expect(await call('debug_setGCPercent', [50])).toBe(100);
    expect(await call('debug_setGCPercent', [100])).toBe(50);
    expect(await failure(call('debug_setGCPercent', ['50']))).toEqual({
      code: -32602,
      message: 'invalid argument 0: json: cannot unmarshal string into Go value of type int',
    });
    const s = (await call('debug_stacks')) as string;
    expect(s).toContain('javascript stack');
  });

  it('writes block and mutex profiles, with geth file errors', async () => {
    expect(await call('debug_setBlockProfileRate', [1])).toBeNull();
    const file = join(dir, 'block.json');
    expect(await call('debug_writeBlockProfile', [file])).toBeNull();
    expect(JSON.parse(readFileSync(file, 'utf8'))).toMatchObject({ profile: 'block', enabled: true, unit: 'ns' });
    expect(await call('debug_setBlockProfileRate', [0])).toBeNull();
    expect(await call('debug_setMutexProfileFraction', [1])).toBeNull();
    expect(await call('debug_writeMutexProfile', [join(dir, 'mutex.json')])).toBeNull();
    expect(JSON.parse(readFileSync(join(dir, 'mutex.json'), 'utf8'))).toMatchObject({ profile: 'mutex', enabled: true });
    const missing = join(dir, 'no', 'such', 'dir', 'x.json');
    expect(await failure(call('debug_writeBlockProfile', [missing]))).toEqual({ code: -32000, message: `open ${missing}: no such file or directory` });
    expect(await failure(call('debug_blockProfile', [file, -1]))).toEqual({
      code: -32602,
      message: 'invalid argument 1: json: cannot unmarshal number -1 into Go value of type uint',
    });
  });
});
