import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEV_ADDRESS_1, ethHash, startTraceChain, type TraceChain } from '../../../test/helpers/trace-chain.js';
import { erc20TransferData } from '../fixtures/erc20.js';
import { bytesHex } from './json.js';
import { traceBlock, traceTransaction } from './trace-tx.js';
import type { CallFrame, StructLoggerResult } from './types.js';

let chain: TraceChain;
let txs: Uint8Array[];
let height: number;

beforeAll(async () => {
  chain = await startTraceChain();
  txs = [
    chain.sign({ to: chain.token, data: erc20TransferData(DEV_ADDRESS_1, 1n) }),
    chain.sign({ to: DEV_ADDRESS_1, value: 1n }, { gasLimit: 21_000n }),
    chain.sign({ to: chain.token, data: erc20TransferData(DEV_ADDRESS_1, 2n) }),
  ];
  height = await chain.block(...txs);
});
afterAll(() => chain?.stop());

describe('traceBlock', () => {
  it('traces every tx of a block, in order, as traceTransaction does', async () => {
    const entries = await traceBlock(chain.source, height, { tracer: 'callTracer' });
    expect(entries.map((e) => e.txHash)).toEqual(txs.map((t) => bytesHex(ethHash(t))));
    for (let i = 0; i < txs.length; i++) {
      expect(entries[i]!.error).toBeUndefined();
      expect(entries[i]!.result).toEqual(await traceTransaction(chain.source, ethHash(txs[i]!), { tracer: 'callTracer' }));
    }
    const receipts = await chain.view.getReceipts(height);
    expect(entries.map((e) => BigInt((e.result as CallFrame).gasUsed))).toEqual(receipts.map((r) => r.gasUsed));
  });

  it('finds a block by its hash', async () => {
    const block = (await chain.view.getBlock(height))!;
    const byHash = await traceBlock(chain.source, block.hash, {});
    expect(byHash).toHaveLength(3);
    expect((byHash[1]!.result as StructLoggerResult).gas).toBe(21_000);
  });

  it('reports a tx that runs past the timeout and still traces the ones after it', async () => {
    const entries = await traceBlock(chain.source, height, { timeout: '1ns' });
    expect(entries[0]).toEqual({ txHash: bytesHex(ethHash(txs[0]!)), error: 'execution timeout' });
    // The plain transfer (nonce after the first tx's) only runs if the first tx was applied.
    expect((entries[1]!.result as StructLoggerResult).gas).toBe(21_000);
    expect(entries[2]!.error).toBe('execution timeout');
  });

  it('answers with geth errors for blocks it cannot trace', async () => {
    await expect(traceBlock(chain.source, 0)).rejects.toThrow('genesis is not traceable');
    await expect(traceBlock(chain.source, 999)).rejects.toThrow('block #999 not found');
    const missing = new Uint8Array(32).fill(0xab);
    await expect(traceBlock(chain.source, missing)).rejects.toThrow(`block ${bytesHex(missing)} not found`);
  });
});

describe('traceTransaction', () => {
  it('answers with geth errors', async () => {
    await expect(traceTransaction(chain.source, new Uint8Array(32))).rejects.toThrow('transaction not found');
    await expect(traceTransaction(chain.source, ethHash(txs[0]!), { tracer: 'fourByteTracer' })).rejects.toThrow('tracer not found: fourByteTracer');
    await expect(traceTransaction(chain.source, ethHash(txs[0]!), { timeout: '5 seconds' })).rejects.toThrow('time: invalid duration "5 seconds"');
    await expect(traceTransaction(chain.source, ethHash(txs[0]!), { timeout: '1ns' })).rejects.toThrow('execution timeout');
  });

  it('gives the same trace however often it is asked (replays never touch the chain)', async () => {
    const root = (await chain.view.getBlock(height))!.stateRoot;
    const a = await traceTransaction(chain.source, ethHash(txs[2]!), {});
    const b = await traceTransaction(chain.source, ethHash(txs[2]!), {});
    expect(b).toEqual(a);
    expect((await chain.view.getBlock(height))!.stateRoot).toEqual(root);
    expect(chain.view.latestHeight()).toBe(height);
  });
});
