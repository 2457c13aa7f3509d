/**
 * The debug namespace over HTTP with viem: tracing, the profiling hooks, and the refusals (the
 * namespace off: -32601; profiling off: Cosmos EVM's error).
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BaseError, createPublicClient, http, type Hex } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { erc20BalanceOfData, erc20TransferData } from '../../src/app/fixtures/erc20.js';
import { disposeDebug } from '../../src/rpc/eth/namespaces/debug-profiling.js';
import { DEBUG_ROUTES } from '../../src/rpc/eth/namespaces/debug.js';
import { startTestNode } from '../helpers/node.js';
import { DEV_ADDRESS_0, DEV_ADDRESS_1, ethHash, startTraceChain, type TraceChain } from '../helpers/trace-chain.js';

const hex = (b: Uint8Array): Hex => `0x${Buffer.from(b).toString('hex')}`;

type Client = ReturnType<typeof createPublicClient>;
const request = (c: Client, method: string, params: unknown[] = []) => c.request({ method: method as never, params: params as never });

/** The JSON-RPC error viem received. */
async function rpcError(p: Promise<unknown>): Promise<{ code: number; message: string }> {
  const e = await p.then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(BaseError);
  const inner = (e as BaseError).walk((x) => typeof (x as { code?: unknown }).code === 'number') as unknown as { code: number; details?: string; shortMessage: string };
  return { code: inner.code, message: inner.details ?? inner.shortMessage };
}

describe('debug namespace when not enabled', () => {
  let chain: TraceChain;
  let client: Client;
  beforeAll(async () => {
    // The default `api` (eth, web3, net, txpool), with enable-profiling on: still refused.
    chain = await startTraceChain({ servers: true, config: { jsonRpc: { enableProfiling: true } } });
    client = createPublicClient({ transport: http(chain.rpcUrl!) });
  });
  afterAll(() => chain?.stop());

  it('answers every debug method as an unknown method', async () => {
    const names = DEBUG_ROUTES.flatMap((r) => [r.method, ...r.aliases]);
    expect(names).toHaveLength(19);
    for (const method of names) {
      expect(await rpcError(request(client, method, []))).toEqual({ code: -32601, message: `the method ${method} does not exist/is not available` });
    }
  });
});

describe('debug namespace over HTTP', () => {
  let chain: TraceChain;
  let client: Client;
  let noProfiling: TraceChain;
  let clientNoProfiling: Client;
  let tx: Uint8Array;
  let dir: string;

  beforeAll(async () => {
    const api = ['eth', 'web3', 'net', 'txpool', 'debug'];
    chain = await startTraceChain({ servers: true, config: { jsonRpc: { api, enableProfiling: true } } });
    noProfiling = await startTraceChain({ servers: true, config: { jsonRpc: { api, enableProfiling: false } } });
    client = createPublicClient({ transport: http(chain.rpcUrl!) });
    clientNoProfiling = createPublicClient({ transport: http(noProfiling.rpcUrl!) });
    tx = chain.sign({ to: chain.token, data: erc20TransferData(DEV_ADDRESS_1, 4n) });
    await chain.block(tx);
    dir = mkdtempSync(join(tmpdir(), 'chainlet-debug-http-'));
  });
  afterAll(async () => {
    if (chain) await disposeDebug(chain.node);
    await chain?.stop();
    await noProfiling?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('debug_traceTransaction: struct logs, callTracer, prestateTracer', async () => {
    const logs = (await request(client, 'debug_traceTransaction', [hex(ethHash(tx))])) as { failed: boolean; structLogs: { op: string; depth: number }[] };
    expect(logs.failed).toBe(false);
    expect(logs.structLogs[0]).toMatchObject({ pc: 0, op: 'PUSH1', depth: 1 });
    const frame = (await request(client, 'debug_traceTransaction', [hex(ethHash(tx)), { tracer: 'callTracer', tracerConfig: { withLog: true } }])) as {
      from: string;
      to: string;
      logs: unknown[];
    };
    expect(frame).toMatchObject({ from: DEV_ADDRESS_0, to: chain.token, type: 'CALL' });
    expect(frame.logs).toHaveLength(1);
    const diff = (await request(client, 'debug_traceTransaction', [hex(ethHash(tx)), { tracer: 'prestateTracer', tracerConfig: { diffMode: true } }])) as {
      pre: Record<string, unknown>;
      post: Record<string, unknown>;
    };
    expect(Object.keys(diff.post)).toContain(chain.token);
  });

  it('debug_traceBlockByNumber, debug_traceBlockByHash, debug_traceCall', async () => {
    const byNumber = (await request(client, 'debug_traceBlockByNumber', ['latest', { tracer: 'callTracer' }])) as { txHash: string }[];
    expect(byNumber.map((e) => e.txHash)).toEqual([hex(ethHash(tx))]);
    const block = await client.getBlock({ blockTag: 'latest' });
    expect(await request(client, 'debug_traceBlockByHash', [block.hash, { tracer: 'callTracer' }])).toEqual(byNumber);
    const call = (await request(client, 'debug_traceCall', [{ to: chain.token, data: hex(erc20BalanceOfData(DEV_ADDRESS_1)) }, 'latest', { tracer: 'callTracer' }])) as {
      output: string;
    };
    expect(BigInt(call.output)).toBe(4n);
  });

  it('tracing errors in geth words', async () => {
    expect(await rpcError(request(client, 'debug_traceTransaction', [`0x${'00'.repeat(32)}`]))).toEqual({ code: -32000, message: 'transaction not found' });
    expect(await rpcError(request(client, 'debug_traceBlockByNumber', ['0x3e7']))).toEqual({ code: -32000, message: 'block #999 not found' });
  });

  it('profiling hooks write their files on the node host', async () => {
    const cpu = join(dir, 'node.cpuprofile');
    expect(await request(client, 'debug_startCPUProfile', [cpu])).toBeNull();
    expect(await rpcError(request(client, 'debug_startCPUProfile', [cpu]))).toEqual({ code: -32000, message: 'CPU profiling already in progress' });
    expect(await request(client, 'debug_stopCPUProfile')).toBeNull();
    expect(JSON.parse(readFileSync(cpu, 'utf8')).nodes.length).toBeGreaterThan(0);
    expect(await request(client, 'debug_cpuProfile', [join(dir, 'timed.cpuprofile'), 0])).toBeNull();
    expect(existsSync(join(dir, 'timed.cpuprofile'))).toBe(true);

    const heap = join(dir, 'node.heapsnapshot');
    expect(await request(client, 'debug_writeMemProfile', [heap])).toBeNull();
    expect(readFileSync(heap, 'utf8').slice(0, 100)).toContain('snapshot');

    expect(await request(client, 'debug_setBlockProfileRate', [1])).toBeNull();
    expect(await request(client, 'debug_writeBlockProfile', [join(dir, 'block.json')])).toBeNull();
    expect(await request(client, 'debug_blockProfile', [join(dir, 'block2.json'), 0])).toBeNull();
    expect(await request(client, 'debug_setMutexProfileFraction', [1])).toBeNull();
    expect(await request(client, 'debug_writeMutexProfile', [join(dir, 'mutex.json')])).toBeNull();
    expect(await request(client, 'debug_mutexProfile', [join(dir, 'mutex2.json'), 0])).toBeNull();
    for (const f of ['block.json', 'block2.json', 'mutex.json', 'mutex2.json']) expect(JSON.parse(readFileSync(join(dir, f), 'utf8')).source).toBe('perf_hooks.monitorEventLoopDelay');

    const mem = (await request(client, 'debug_memStats')) as Record<string, number>;
    expect(mem['HeapAlloc']).toBeGreaterThan(0);
    expect(((await request(client, 'debug_gcStats')) as { NumGC: number }).NumGC).toBeGreaterThanOrEqual(0);
    expect(await request(client, 'debug_setGCPercent', [80])).toBe(100);
    expect(await request(client, 'debug_stacks')).toContain('libuv handles');
    const free = await request(client, 'debug_freeOSMemory').then(
      (r) => ({ ok: r }),
      async (e: unknown) => ({ error: await rpcError(Promise.reject(e)) }),
    );
    if ('error' in free) expect(free.error.message).toContain('--expose-gc');
    else expect(free.ok).toBeNull();
  });

  it('profiling hooks are refused without enable-profiling', async () => {
    for (const [method, params] of [
      ['debug_memStats', []],
      ['debug_startCPUProfile', [join(dir, 'refused.cpuprofile')]],
      ['debug_writeMemProfile', [join(dir, 'refused.heapsnapshot')]],
      ['debug_freeOSMemory', []],
    ] as const) {
      expect(await rpcError(request(clientNoProfiling, method, [...params]))).toEqual({ code: -32000, message: 'profiling disabled in the debug namespace' });
    }
    expect(existsSync(join(dir, 'refused.cpuprofile'))).toBe(false);
    // Tracing is not gated by enable-profiling (latest: the block that deployed the fixtures).
    expect(await request(clientNoProfiling, 'debug_traceBlockByNumber', ['latest', { tracer: 'callTracer' }])).toHaveLength(2);
  });
});

describe('debug profiling when the node stops', () => {
  it('writes a running CPU profile and ends a pending timed profile at once', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'chainlet-debug-stop-'));
    const node = await startTestNode({ config: { jsonRpc: { api: ['eth', 'debug'], enableProfiling: true } } });
    try {
      const client = createPublicClient({ transport: http(node.urls.jsonRpc!, { timeout: 60_000 }) });
      const cpu = join(dir, 'running.cpuprofile');
      const block = join(dir, 'pending.json');
      expect(await request(client, 'debug_startCPUProfile', [cpu])).toBeNull();
      // Ten minutes of sampling, unless the node stops first.
      const pending = request(client, 'debug_blockProfile', [block, 600]);
      // Wait until it runs: its sampling shows as enabled in the block profile.
      const probe = join(dir, 'probe.json');
      for (;;) {
        await request(client, 'debug_writeBlockProfile', [probe]);
        if (JSON.parse(readFileSync(probe, 'utf8')).enabled === true) break;
        await new Promise((r) => setTimeout(r, 10));
      }
      await node.stop();
      expect(await pending).toBeNull();
      expect(JSON.parse(readFileSync(block, 'utf8')).profile).toBe('block');
      expect(JSON.parse(readFileSync(cpu, 'utf8')).nodes.length).toBeGreaterThan(0);
    } finally {
      await node.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
