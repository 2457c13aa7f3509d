/**
 * The fast opcode loop and frame start give exactly what ethereumjs's own give: the same pairs of
 * executions, one on an EVM with the call hooks (fast loop, lean frames, jump cache, fast ops) and one plain EVM,
 * agree on error, gas used, refund, return data, logs and the state they leave.
 */
import { createEVM, type EVM } from '@ethereumjs/evm';
import { Account, Address } from '@ethereumjs/util';
import { beforeAll, describe, expect, it } from 'vitest';
import { createChainCommon } from '../chain-common.js';
import { erc20DeployData, erc20TransferData } from '../fixtures/erc20.js';
import { EvmHooks } from './evm-hooks.js';
import { fastLoopStats } from '../interpreter/fast-loop.js';

const common = createChainCommon({ chainId: 9000n, hardfork: 'prague' });
const caller = new Address(new Uint8Array(20).fill(0x11));
const target = new Address(new Uint8Array(20).fill(0x22));

async function freshEvm(hooked: boolean): Promise<EVM> {
  const evm = await createEVM({ common, params: {} });
  if (hooked) new EvmHooks(evm).arm(0);
  await evm.stateManager.putAccount(caller, new Account(0n, 10n ** 24n));
  return evm;
}

/** Runs `code` at `to` (a create of `data` when code and `to` are undefined) and describes the outcome. */
async function outcome(evm: EVM, code: Uint8Array | undefined, data: Uint8Array, gasLimit: bigint, to: Address | undefined = code && target) {
  if (code !== undefined && to !== undefined) await evm.stateManager.putCode(to, code);
  const r = await evm.runCall({ caller, origin: caller, ...(to !== undefined ? { to } : {}), data, gasLimit });
  const e = r.execResult;
  const created = r.createdAddress;
  return {
    error: e.exceptionError?.error,
    gasUsed: e.executionGasUsed,
    refund: e.gasRefund,
    ret: Buffer.from(e.returnValue).toString('hex'),
    logs: (e.logs ?? []).map((l) => l.map((x) => (Array.isArray(x) ? x.map((y) => Buffer.from(y).toString('hex')) : Buffer.from(x).toString('hex')))),
    createdCode: created ? Buffer.from(await evm.stateManager.getCode(created)).toString('hex') : undefined,
    slot0: to ? Buffer.from(await evm.stateManager.getStorage(to, new Uint8Array(32))).toString('hex') : undefined,
  };
}

const hex = (s: string) => Uint8Array.from(Buffer.from(s, 'hex'));

/** name → [runtime code (hex) or undefined for a create, calldata, gas limit] */
const CASES: Record<string, [string | undefined, Uint8Array, bigint]> = {
  // PUSH1 1 PUSH1 2 ADD PUSH0 SSTORE STOP
  'arithmetic and a store': ['6001600201' + '5f55' + '00', new Uint8Array(0), 100_000n],
  // PUSH1 0x2a PUSH0 MSTORE PUSH1 0x20 PUSH0 RETURN
  'memory and return': ['602a5f52' + '60205ff3', new Uint8Array(0), 100_000n],
  // a loop: PUSH1 5 JUMPDEST(2) PUSH1 1 SWAP1 SUB DUP1 PUSH1 2 JUMPI STOP
  'a counted loop': ['6005' + '5b' + '600190' + '03' + '80' + '600257' + '00', new Uint8Array(0), 100_000n],
  // out of gas inside a run of static opcodes
  'out of gas on a static opcode': ['6001'.repeat(40) + '00', new Uint8Array(0), 50n],
  // PUSH1 3 JUMP (not a JUMPDEST)
  'an invalid jump': ['600356' + '00', new Uint8Array(0), 100_000n],
  // ADD on an empty stack
  'stack underflow': ['01', new Uint8Array(0), 100_000n],
  // 0x0c is not an opcode
  'an invalid opcode': ['60010c', new Uint8Array(0), 100_000n],
  // PUSH1 1 PUSH0 MSTORE8 PUSH1 1 PUSH0 REVERT
  'a revert with data': ['60015f53' + '60015ffd', new Uint8Array(0), 100_000n],
  // PUSH2 with its data cut off by the end of the code
  'a truncated push': ['61ff', new Uint8Array(0), 100_000n],
  // PUSH1 7 PUSH1 3 SSTORE PUSH1 3 SLOAD PUSH1 9 SLOAD ADD PUSH0 MSTORE (slot 3 set, slot 9 unset)
  'storage reads of a set and an unset slot': ['6007600355' + '600354' + '600954' + '01' + '5f52' + '60205ff3', new Uint8Array(0), 100_000n],
  // LOG0 with data, LOG2 with two topics (one zero, one with the top bit set), LOG4 without data
  'logs with 0, 2 and 4 topics': [
    '602a5f52' + '60205fa0' + '7f' + '80'.padEnd(64, '1') + '5f' + '60205fa2' + '6001600260036004' + '5f5fa4' + '00',
    new Uint8Array(0),
    100_000n,
  ],
  // Counts itself in slot 0, then calls itself with all its gas: nested frames until the gas runs out
  // (PUSH0 SLOAD PUSH1 1 ADD PUSH0 SSTORE PUSH0×5 ADDRESS GAS CALL STOP)
  'recursive self-calls': ['5f54600101' + '5f55' + '5f5f5f5f5f' + '305af1' + '00', new Uint8Array(0), 300_000n],
  'deploying an ERC20': [undefined, erc20DeployData(10n ** 24n), 3_000_000n],
};

/** What some cases must produce, so that agreement is not agreement on a failure. */
const EXPECT: Record<string, (o: Awaited<ReturnType<typeof outcome>>) => void> = {
  'storage reads of a set and an unset slot': (o) => {
    expect(o.error).toBeUndefined();
    expect(BigInt(`0x${o.ret}`)).toBe(7n);
  },
  'logs with 0, 2 and 4 topics': (o) => {
    expect(o.error).toBeUndefined();
    expect(o.logs.map((l) => (l[1] as string[]).length)).toEqual([0, 2, 4]);
  },
  'an invalid jump': (o) => expect(o.error).toMatch(/^invalid JUMP/),
  'recursive self-calls': (o) => {
    expect(o.error).toBeUndefined();
    expect(BigInt(`0x${o.slot0 || '0'}`)).toBeGreaterThan(3n);
  },
  'out of gas on a static opcode': (o) => expect(o.error).toBe('out of gas'),
};

describe('fast opcode loop', () => {
  let fast: EVM;
  let plain: EVM;
  beforeAll(async () => {
    fast = await freshEvm(true);
    plain = await freshEvm(false);
    // The loop is installed from the first JUMPDEST a hooked EVM runs.
    await outcome(fast, hex('5b00'), new Uint8Array(0), 100_000n);
    await outcome(plain, hex('5b00'), new Uint8Array(0), 100_000n);
  });

  for (const [name, [code, data, gas]] of Object.entries(CASES)) {
    it(`agrees with ethereumjs's loop: ${name}`, async () => {
      const c = code === undefined ? undefined : hex(code);
      const frames = fastLoopStats.frames;
      const a = await outcome(fast, c, data, gas);
      expect(fastLoopStats.frames).toBeGreaterThan(frames);
      const b = await outcome(plain, c, data, gas);
      expect(a).toEqual(b);
      EXPECT[name]?.(a);
    });
  }

  it('agrees on an ERC20 transfer (SHA3, SLOAD/SSTORE, LOG3, many jumps) and its out-of-gas edge', async () => {
    const deployA = await fast.runCall({ caller, origin: caller, data: erc20DeployData(10n ** 24n), gasLimit: 3_000_000n });
    const deployB = await plain.runCall({ caller, origin: caller, data: erc20DeployData(10n ** 24n), gasLimit: 3_000_000n });
    const token = deployA.createdAddress!;
    expect(token.equals(deployB.createdAddress!)).toBe(true);
    const data = erc20TransferData(`0x${'33'.repeat(20)}`, 5n);
    const ok = await outcome(fast, undefined, data, 200_000n, token);
    expect(ok).toEqual(await outcome(plain, undefined, data, 200_000n, token));
    expect(ok.error).toBeUndefined();
    expect(ok.logs).toHaveLength(1);
    const tight = 2_000n; // below even a warm transfer
    const short = await outcome(fast, undefined, data, tight, token);
    expect(short).toEqual(await outcome(plain, undefined, data, tight, token));
    expect(short.error).toBe('out of gas');
  });
});
