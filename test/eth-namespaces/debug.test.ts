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
import { DEBUG_ROUTES } from '../../src/rpc/eth/namespaces/debug.js';
import { DirectEthSecp256k1HdWallet } from '@cosmjs/proto-signing';
import { SigningStargateClient } from '@cosmjs/stargate';
import { TxRaw } from 'cosmjs-types/cosmos/tx/v1beta1/tx';
import { ICS20_PRECOMPILE_ADDRESS } from '../../src/ibc/ics20-precompile.js';
import { toBech32 } from '../../src/crypto/bech32.js';
import { DEV_MNEMONIC } from '../../src/genesis/dev-accounts.js';
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
  const inner = (e as BaseError).walk((x) => typeof (x as { code?: unknown }).code === 'number') as unknown as {
    code: number;
    details?: string;
    shortMessage: string;
  };
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
      expect(await rpcError(request(client, method, []))).toEqual({
        code: -32601,
        message: expect.stringMatching(
          new RegExp(`^the method ${method} does not exist/is not available \\(the debug namespace is off: start with --json-rpc\\.api \\S*,debug, `),
        ),
      });
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
    const call = (await request(client, 'debug_traceCall', [
      { to: chain.token, data: hex(erc20BalanceOfData(DEV_ADDRESS_1)) },
      'latest',
      { tracer: 'callTracer' },
    ])) as {
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
    for (const f of ['block.json', 'block2.json', 'mutex.json', 'mutex2.json'])
      expect(JSON.parse(readFileSync(join(dir, f), 'utf8')).source).toBe('perf_hooks.monitorEventLoopDelay');

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

describe('debug tracing replays the whole block: Cosmos txs and the ICS-20 precompile', () => {
  let chain: TraceChain;
  let client: Client;
  const OTHER = '0x' + '43'.repeat(20);
  beforeAll(async () => {
    chain = await startTraceChain({ servers: true, config: { jsonRpc: { api: ['eth', 'web3', 'net', 'debug'] } } });
    client = createPublicClient({ transport: http(chain.rpcUrl!) });
  });
  afterAll(() => chain?.stop());

  /** A bank MsgSend from dev account 0 (the EVM chain's Cosmos face), with the sequence the chain has now. */
  async function cosmosSend(): Promise<Uint8Array> {
    const wallet = await DirectEthSecp256k1HdWallet.fromMnemonic(DEV_MNEMONIC, { prefix: 'chainlet' });
    const [from] = await wallet.getAccounts();
    const stargate = await SigningStargateClient.connectWithSigner(chain.node.urls.rpc!, wallet);
    const fee = { amount: [{ denom: 'achainlet', amount: String(2_000_000_000n * 200_000n) }], gas: '200000' };
    const msg = {
      typeUrl: '/cosmos.bank.v1beta1.MsgSend',
      value: { fromAddress: from!.address, toAddress: toBech32('chainlet', new Uint8Array(20).fill(0x42)), amount: [{ denom: 'achainlet', amount: '777' }] },
    };
    const signed = await stargate.sign(from!.address, [msg], fee, '');
    stargate.disconnect();
    return TxRaw.encode(signed).finish();
  }

  it('a Cosmos MsgSend then an EVM transfer from the same account, in one block: each tracer sees the state after the MsgSend', async () => {
    const cosmosTx = await cosmosSend(); // sequence = the committed nonce N
    chain.sign({ to: OTHER }); // the EVM nonce N is the Cosmos tx's: skip it
    const nonceAfterCosmos = chain.nonce();
    const evmTx = chain.sign({ to: OTHER, value: 5n });
    const height = await chain.block(cosmosTx, evmTx);
    const receipt = await client.getTransactionReceipt({ hash: hex(ethHash(evmTx)) });
    expect([receipt.status, Number(receipt.blockNumber)]).toEqual(['success', height]);

    const frame = (await request(client, 'debug_traceTransaction', [hex(ethHash(evmTx)), { tracer: 'callTracer' }])) as Record<string, unknown>;
    expect(frame).toMatchObject({ type: 'CALL', from: DEV_ADDRESS_0, to: OTHER, value: '0x5', gasUsed: '0x5208' });
    expect(frame.error).toBeUndefined();
    const pre = (await request(client, 'debug_traceTransaction', [hex(ethHash(evmTx)), { tracer: 'prestateTracer' }])) as Record<string, { nonce?: number }>;
    expect(pre[DEV_ADDRESS_0]?.nonce).toBe(Number(nonceAfterCosmos));
    const logs = (await request(client, 'debug_traceTransaction', [hex(ethHash(evmTx))])) as { failed: boolean; gas: number };
    expect(logs).toMatchObject({ failed: false, gas: 21_000 });

    const block = (await request(client, 'debug_traceBlockByNumber', [`0x${height.toString(16)}`, { tracer: 'callTracer' }])) as {
      txHash: string;
      result?: unknown;
      error?: string;
    }[];
    expect(block).toEqual([{ txHash: hex(ethHash(evmTx)), result: frame }]);
  });

  it('a call to the ICS-20 precompile traces as the block ran it (the trace VM has the chain precompiles), and so does the tx after it', async () => {
    const toPrecompile = chain.sign({ to: ICS20_PRECOMPILE_ADDRESS, data: Uint8Array.of(0xde, 0xad, 0xbe, 0xef) });
    const after = chain.sign({ to: OTHER, value: 1n });
    const height = await chain.block(toPrecompile, after);
    const receipt = await client.getTransactionReceipt({ hash: hex(ethHash(toPrecompile)) });
    expect(receipt.status).toBe('reverted');

    const frame = (await request(client, 'debug_traceTransaction', [hex(ethHash(toPrecompile)), { tracer: 'callTracer' }])) as {
      error?: string;
      output?: string;
      gasUsed: string;
    };
    expect(frame.error).toBe('execution reverted');
    expect(Buffer.from(frame.output!.slice(2), 'hex').toString('latin1')).toContain('ICS20: unknown method 0xdeadbeef');
    expect(BigInt(frame.gasUsed)).toBe(receipt.gasUsed);
    const next = (await request(client, 'debug_traceTransaction', [hex(ethHash(after)), { tracer: 'callTracer' }])) as Record<string, unknown>;
    expect(next).toMatchObject({ from: DEV_ADDRESS_0, to: OTHER, value: '0x1' });
    expect(next.error).toBeUndefined();

    const block = (await request(client, 'debug_traceBlockByNumber', [`0x${height.toString(16)}`, { tracer: 'callTracer' }])) as {
      txHash: string;
      result?: unknown;
      error?: string;
    }[];
    expect(block).toEqual([
      { txHash: hex(ethHash(toPrecompile)), result: frame },
      { txHash: hex(ethHash(after)), result: next },
    ]);
  });
});
