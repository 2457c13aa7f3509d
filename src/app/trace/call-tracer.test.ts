import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEV_ADDRESS_0, DEV_ADDRESS_1, addr, ethHash, startTraceChain, type TraceChain } from '../../../test/helpers/trace-chain.js';
import { ERC20_BYTECODE, TRANSFER_TOPIC, erc20BalanceOfData, erc20TransferData } from '../fixtures/erc20.js';
import { bytesHex } from './json.js';
import { traceTransaction } from './trace-tx.js';
import type { CallFrame } from './types.js';

let chain: TraceChain;
let direct: Uint8Array;
let nestedOk: Uint8Array;
let nestedFail: Uint8Array;
let reverting: Uint8Array;
let plain: Uint8Array;

/** The keys geth's callTracer may write, in its order. */
const GETH_KEYS = ['from', 'gas', 'gasUsed', 'to', 'input', 'output', 'error', 'revertReason', 'calls', 'logs', 'value', 'type'];
const HEX_QTY = /^0x(0|[1-9a-f][0-9a-f]*)$/;

function checkShape(f: CallFrame): void {
  const keys = Object.keys(f);
  expect(keys.every((k) => GETH_KEYS.includes(k))).toBe(true);
  expect(keys).toEqual(GETH_KEYS.filter((k) => keys.includes(k))); // geth's order
  expect(f.from).toMatch(/^0x[0-9a-f]{40}$/);
  expect(f.gas).toMatch(HEX_QTY);
  expect(f.gasUsed).toMatch(HEX_QTY);
  expect(f.input).toMatch(/^0x([0-9a-f]{2})*$/);
  for (const c of f.calls ?? []) checkShape(c);
}

beforeAll(async () => {
  chain = await startTraceChain();
  direct = chain.sign({ to: chain.token, data: erc20TransferData(DEV_ADDRESS_1, 10n) });
  nestedOk = chain.sign({ to: chain.forwarder, data: erc20BalanceOfData(DEV_ADDRESS_0) });
  nestedFail = chain.sign({ to: chain.forwarder, data: erc20TransferData(DEV_ADDRESS_1, 1n) });
  reverting = chain.sign({ to: chain.token, data: erc20TransferData(DEV_ADDRESS_1, 10_000n) });
  plain = chain.sign({ to: DEV_ADDRESS_1, value: 7n }, { gasLimit: 21_000n });
  await chain.block(direct, nestedOk, nestedFail, reverting, plain);
});
afterAll(() => chain?.stop());

const trace = async (tx: Uint8Array, tracerConfig: Record<string, unknown> = {}) =>
  (await traceTransaction(chain.source, ethHash(tx), { tracer: 'callTracer', tracerConfig })) as CallFrame;

describe('callTracer', () => {
  it('gives the top call of a plain transfer', async () => {
    expect(await trace(plain)).toEqual({
      from: DEV_ADDRESS_0,
      gas: '0x5208',
      gasUsed: '0x5208',
      to: DEV_ADDRESS_1,
      input: '0x',
      value: '0x7',
      type: 'CALL',
    });
  });

  it('reports gas limit, receipt gas, output and logs of a token transfer', async () => {
    const f = await trace(direct, { withLog: true });
    checkShape(f);
    const loc = (await chain.view.getTransaction(ethHash(direct)))!;
    const receipt = (await chain.view.getReceipts(loc.height))[loc.index]!;
    expect(f.gas).toBe('0x30d40'); // 200 000, the tx's gas limit
    expect(BigInt(f.gasUsed)).toBe(receipt.gasUsed);
    expect(f.to).toBe(chain.token);
    expect(f.input).toBe(bytesHex(erc20TransferData(DEV_ADDRESS_1, 10n)));
    expect(f.output).toBe(`0x${'0'.repeat(63)}1`);
    expect(f.value).toBe('0x0');
    expect(f.logs).toEqual([
      {
        address: chain.token,
        topics: [bytesHex(TRANSFER_TOPIC), `0x${'0'.repeat(24)}${DEV_ADDRESS_0.slice(2)}`, `0x${'0'.repeat(24)}${DEV_ADDRESS_1.slice(2)}`],
        data: `0x${(10).toString(16).padStart(64, '0')}`,
        position: '0x0',
      },
    ]);
    expect((await trace(direct)).logs).toBeUndefined(); // withLog off
  });

  it('nests sub-calls with their own gas, input and output', async () => {
    const f = await trace(nestedOk);
    checkShape(f);
    expect(f.calls).toHaveLength(1);
    const c = f.calls![0]!;
    expect(c.type).toBe('CALL');
    expect(c.from).toBe(chain.forwarder);
    expect(c.to).toBe(chain.token);
    expect(c.input).toBe(bytesHex(erc20BalanceOfData(DEV_ADDRESS_0)));
    expect(c.value).toBe('0x0');
    expect(BigInt(c.output!)).toBe(990n);
    expect(BigInt(c.gas)).toBeLessThan(BigInt(f.gas));
    expect(BigInt(c.gasUsed)).toBeGreaterThan(2100n); // at least the cold SLOAD
    expect(f.output).toBe(c.output); // the forwarder returns what it got
    expect((await trace(nestedOk, { onlyTopCall: true })).calls).toBeUndefined();
  });

  it('shows a reverted sub-call with its reason while the tx succeeds, and drops its logs', async () => {
    const f = await trace(nestedFail, { withLog: true });
    checkShape(f);
    expect(f.error).toBeUndefined();
    const c = f.calls![0]!;
    expect(c.error).toBe('execution reverted');
    expect(c.revertReason).toBe('insufficient balance');
    expect(c.output!.slice(0, 10)).toBe('0x08c379a0');
    expect(c.logs).toBeUndefined();
  });

  it('shows a reverted tx with its reason', async () => {
    const f = await trace(reverting);
    expect(f.error).toBe('execution reverted');
    expect(f.revertReason).toBe('insufficient balance');
    expect(f.to).toBe(chain.token);
  });

  it('shows a contract creation as CREATE to the new address with the runtime code as output', async () => {
    const deploy = (await chain.view.getTransactionsOfBlock(chain.deployHeight))[0]!;
    const f = (await traceTransaction(chain.source, deploy.tx.hash(), { tracer: 'callTracer' })) as CallFrame;
    expect(f.type).toBe('CREATE');
    expect(f.to).toBe(chain.token);
    expect(f.input.startsWith(`0x${ERC20_BYTECODE.slice(0, 40)}`)).toBe(true);
    const code = await (await chain.view.stateAt(chain.deployHeight)).getCode(addr(chain.token));
    expect(code.length).toBeGreaterThan(0);
    expect(f.output).toBe(bytesHex(code));
  });
});
