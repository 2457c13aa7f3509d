import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEV_ADDRESS_0, DEV_ADDRESS_1, addr, startTraceChain, type TraceChain } from '../../../test/helpers/trace-chain.js';
import { erc20BalanceOfData, erc20TransferData } from '../fixtures/erc20.js';
import { TraceCallRejectedError } from './errors.js';
import { traceCall } from './trace-call.js';
import type { CallFrame, PrestateAccount, StructLoggerResult } from './types.js';

let chain: TraceChain;
let before: number;
let after: number;

beforeAll(async () => {
  chain = await startTraceChain();
  before = chain.view.latestHeight();
  after = await chain.block(chain.sign({ to: chain.token, data: erc20TransferData(DEV_ADDRESS_1, 25n) }));
});
afterAll(() => chain?.stop());

const balanceOf = (owner: string) => ({ from: addr(DEV_ADDRESS_0), to: addr(chain.token), data: erc20BalanceOfData(owner) });

describe('traceCall', () => {
  it('traces a call on the state after the block it names', async () => {
    const now = (await traceCall(chain.source, balanceOf(DEV_ADDRESS_1), after)) as StructLoggerResult;
    expect(now.failed).toBe(false);
    expect(BigInt(now.returnValue)).toBe(25n);
    expect(now.structLogs.at(-1)!.op).toBe('RETURN');
    const then = (await traceCall(chain.source, balanceOf(DEV_ADDRESS_1), before)) as StructLoggerResult;
    expect(BigInt(then.returnValue)).toBe(0n);
  });

  it('gives the call frame of a state-changing call without changing the chain', async () => {
    const f = (await traceCall(chain.source, { ...balanceOf(DEV_ADDRESS_1), data: erc20TransferData(DEV_ADDRESS_1, 5n), gas: 90_000n }, after, {
      tracer: 'callTracer',
      tracerConfig: { withLog: true },
    })) as CallFrame;
    expect(f.type).toBe('CALL');
    expect(f.gas).toBe('0x15f90');
    expect(f.logs).toHaveLength(1);
    expect(BigInt(f.output!)).toBe(1n);
    const again = (await traceCall(chain.source, balanceOf(DEV_ADDRESS_1), after)) as StructLoggerResult;
    expect(BigInt(again.returnValue)).toBe(25n);
  });

  it('charges nothing when no fee is given, and the fee when one is', async () => {
    const free = (await traceCall(chain.source, { from: addr(DEV_ADDRESS_0), to: addr(DEV_ADDRESS_1), value: 1n }, after, {
      tracer: 'prestateTracer',
      tracerConfig: { diffMode: true },
    })) as { pre: Record<string, PrestateAccount>; post: Record<string, PrestateAccount> };
    const pre = BigInt(free.pre[DEV_ADDRESS_0]!.balance!);
    expect(BigInt(free.post[DEV_ADDRESS_0]!.balance!)).toBe(pre - 1n);
    const block = (await chain.view.getBlock(after))!;
    const paid = (await traceCall(chain.source, { from: addr(DEV_ADDRESS_0), to: addr(DEV_ADDRESS_1), value: 1n, gasPrice: block.baseFeePerGas + 1n }, after, {
      tracer: 'prestateTracer',
      tracerConfig: { diffMode: true },
    })) as { pre: Record<string, PrestateAccount>; post: Record<string, PrestateAccount> };
    expect(BigInt(paid.post[DEV_ADDRESS_0]!.balance!)).toBe(pre - 1n - 21_000n * (block.baseFeePerGas + 1n));
  });

  it('uses the gas cap for a call that names no gas', async () => {
    const f = (await traceCall(chain.source, balanceOf(DEV_ADDRESS_0), after, { tracer: 'callTracer', gasCap: 1_000_000n })) as CallFrame;
    expect(f.gas).toBe('0xf4240');
  });

  it('refuses a call its sender cannot pay for, with geth words', async () => {
    const poor = addr('0x000000000000000000000000000000000000dEaD'.toLowerCase());
    const err = await traceCall(chain.source, { from: poor, to: addr(DEV_ADDRESS_1), value: 1n, gasPrice: 10n ** 12n, gas: 21_000n }, after).catch(
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(TraceCallRejectedError);
    expect((err as Error).message).toMatch(/^insufficient funds for gas \* price \+ value: have 0 want \d+$/);
  });
});
