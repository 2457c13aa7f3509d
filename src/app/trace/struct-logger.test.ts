import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEV_ADDRESS_1, ethHash, startTraceChain, type TraceChain } from '../../../test/helpers/trace-chain.js';
import { erc20BalanceOfData, erc20TransferData } from '../fixtures/erc20.js';
import { traceTransaction } from './trace-tx.js';
import type { StructLoggerResult } from './types.js';

let chain: TraceChain;
let transfer: Uint8Array;
let reverting: Uint8Array;
let plain: Uint8Array;
let forwarded: Uint8Array;
let forwardedView: Uint8Array;

beforeAll(async () => {
  chain = await startTraceChain();
  transfer = chain.sign({ to: chain.token, data: erc20TransferData(DEV_ADDRESS_1, 10n) });
  reverting = chain.sign({ to: chain.token, data: erc20TransferData(DEV_ADDRESS_1, 10_000n) });
  plain = chain.sign({ to: DEV_ADDRESS_1, value: 5n }, { gasLimit: 21_000n });
  forwarded = chain.sign({ to: chain.forwarder, data: erc20TransferData(DEV_ADDRESS_1, 1n) }); // the forwarder has no tokens
  forwardedView = chain.sign({ to: chain.forwarder, data: erc20BalanceOfData(DEV_ADDRESS_1) });
  await chain.block(transfer, reverting, plain, forwarded, forwardedView);
});
afterAll(() => chain?.stop());

const trace = async (tx: Uint8Array, config = {}) => (await traceTransaction(chain.source, ethHash(tx), config)) as StructLoggerResult;

describe('struct logger', () => {
  it('logs nothing for a plain transfer and reports its gas', async () => {
    const r = await trace(plain);
    expect(r).toEqual({ gas: 21_000, failed: false, returnValue: '0x', structLogs: [] });
  });

  it('records pc, op, gas, cost, depth and stack for each opcode, in geth format', async () => {
    const r = await trace(transfer);
    const receipt = (await chain.view.getReceipts((await chain.view.getTransaction(ethHash(transfer)))!.height))[0]!;
    expect(r.gas).toBe(Number(receipt.gasUsed));
    expect(r.failed).toBe(false);
    expect(r.returnValue).toBe(`0x${'0'.repeat(63)}1`);
    // The solc prologue: PUSH1 0x80, PUSH1 0x40, MSTORE.
    expect(r.structLogs.slice(0, 3)).toEqual([
      { pc: 0, op: 'PUSH1', gas: r.structLogs[0]!.gas, gasCost: 3, depth: 1, stack: [] },
      { pc: 2, op: 'PUSH1', gas: r.structLogs[0]!.gas - 3, gasCost: 3, depth: 1, stack: ['0x80'] },
      { pc: 4, op: 'MSTORE', gas: r.structLogs[0]!.gas - 6, gasCost: 12, depth: 1, stack: ['0x80', '0x40'] },
    ]);
    // Execution gas: the tx's gas limit less the intrinsic 21000 + calldata.
    const calldata = erc20TransferData(DEV_ADDRESS_1, 10n);
    const intrinsic = 21_000 + calldata.reduce((s, b) => s + (b === 0 ? 4 : 16), 0);
    expect(r.structLogs[0]!.gas).toBe(200_000 - intrinsic);
    // Within one frame, gas falls by exactly the previous opcode's cost.
    for (let i = 1; i < r.structLogs.length; i++) {
      const prev = r.structLogs[i - 1]!;
      expect(r.structLogs[i]!.gas).toBe(prev.gas - prev.gasCost);
      expect(r.structLogs[i]!.depth).toBe(1);
      expect(r.structLogs[i]!.stack!.every((v) => /^0x(0|[1-9a-f][0-9a-f]*)$/.test(v))).toBe(true);
    }
    expect(r.structLogs.at(-1)!.op).toBe('RETURN');
  });

  it('shows the slots read and written so far at SLOAD and SSTORE', async () => {
    const r = await trace(transfer);
    const sload = r.structLogs.find((l) => l.op === 'SLOAD')!;
    const [slot, before] = Object.entries(sload.storage!)[0]!;
    expect(slot).toMatch(/^[0-9a-f]{64}$/);
    expect(BigInt(`0x${before}`)).toBe(1000n); // the deployer's whole supply, before this tx
    const stores = r.structLogs.filter((l) => l.op === 'SSTORE');
    expect(stores).toHaveLength(2);
    expect(BigInt(`0x${stores[0]!.storage![slot]!}`)).toBe(990n);
    expect(Object.keys(stores[1]!.storage!)).toHaveLength(2); // sender's and recipient's slots
    expect(r.structLogs.filter((l) => l.storage === undefined && (l.op === 'SLOAD' || l.op === 'SSTORE'))).toEqual([]);
  });

  it('honours disableStack, disableStorage, enableMemory, enableReturnData and limit', async () => {
    const r = await trace(transfer, { disableStack: true, disableStorage: true, enableMemory: true, limit: 50 });
    expect(r.structLogs).toHaveLength(50);
    expect(r.structLogs.some((l) => l.stack !== undefined || l.storage !== undefined)).toBe(false);
    const withMemory = r.structLogs.filter((l) => l.memory !== undefined);
    expect(withMemory.length).toBeGreaterThan(0);
    expect(r.structLogs[0]!.memory).toBeUndefined(); // empty memory before the first MSTORE
    expect(withMemory[0]!.memory![2]).toBe('0'.repeat(62) + '80'); // the free memory pointer at 0x40
    for (const l of withMemory) expect(l.memory!.every((w) => /^[0-9a-f]{64}$/.test(w))).toBe(true);

    const f = await trace(forwardedView, { enableReturnData: true });
    const afterCall = f.structLogs.filter((l) => l.depth === 1 && l.returnData !== undefined);
    expect(afterCall.length).toBeGreaterThan(0);
    expect(afterCall[0]!.op).toBe('POP'); // the first opcode after the CALL returned
    expect(BigInt(afterCall[0]!.returnData!)).toBe(10n); // balanceOf(recipient) after the earlier transfer
    expect(f.structLogs.filter((l) => l.depth === 2 && l.returnData !== undefined)).toEqual([]);
  });

  it('marks a reverted tx failed and returns the revert data', async () => {
    const r = await trace(reverting);
    expect(r.failed).toBe(true);
    expect(r.structLogs.at(-1)!.op).toBe('REVERT');
    expect(r.structLogs.at(-1)!.error).toBeUndefined();
    expect(r.returnValue.slice(0, 10)).toBe('0x08c379a0'); // Error(string)
    expect(Buffer.from(r.returnValue.slice(2), 'hex').toString()).toContain('insufficient balance');
  });

  it('logs nested frames at depth 2 and charges the forwarded gas to the CALL', async () => {
    const r = await trace(forwardedView);
    const call = r.structLogs.findIndex((l) => l.op === 'CALL');
    const inner = r.structLogs[call + 1]!;
    expect(r.structLogs[call]!.depth).toBe(1);
    expect(inner.depth).toBe(2);
    expect(inner.pc).toBe(0);
    // geth: the CALL's cost includes the gas given to the callee (all but 1/64 of what is left).
    const callLog = r.structLogs[call]!;
    expect(callLog.gasCost - inner.gas).toBe(2600); // + the cold-account access (EIP-2929); memory is already there
    expect(inner.gas).toBe(callLog.gas - 2600 - Math.floor((callLog.gas - 2600) / 64)); // all but 1/64 (EIP-150)
    const back = r.structLogs.slice(call + 1).find((l) => l.depth === 1)!;
    expect(back.op).toBe('POP');
    expect(back.stack!.at(-1)).toBe('0x1'); // the call succeeded
    expect(r.failed).toBe(false);
    expect(BigInt(r.returnValue)).toBe(10n);
  });

  it('keeps a tx successful when a nested call reverts', async () => {
    const r = await trace(forwarded, { enableReturnData: true });
    expect(r.failed).toBe(false);
    const reverts = r.structLogs.filter((l) => l.op === 'REVERT');
    expect(reverts.map((l) => l.depth)).toEqual([2]);
    const back = r.structLogs.slice(r.structLogs.indexOf(reverts[0]!) + 1)[0]!;
    expect(back.depth).toBe(1);
    expect(back.stack!.at(-1)).toBe('0x0'); // the call failed
    expect(back.returnData!.slice(0, 10)).toBe('0x08c379a0');
  });
});
