/**
 * eth_estimateGas is exact: the tx succeeds at the estimate and fails one gas below, checked
 * through eth_call with an explicit gas limit. Hand-made contracts (placed with state
 * overrides) cover the cases a one-run estimate must get right: the SSTORE 2300 sentry, the
 * 63/64 rule of nested calls, call stipends, contract creation, and a child that burns all its
 * gas (the binary-search fallback), code that reads the gas or (when gas is priced) a balance, and
 * a self-destruct whose cost depends on the balance.
 * A tx whose path cannot depend on its limit takes one EVM execution; others confirm with a second.
 */
import { Address } from '@ethereumjs/util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { erc20DeployData, erc20TransferData } from '../../src/app/fixtures/erc20.js';
import { createEip1193Provider } from '../../src/node/rpc-eth.js';
import type { EthService } from '../../src/rpc/eth/service.js';
import type { Eip1193Provider } from '../../src/rpc/eth/provider.js';
import { asm, deployCode, DEV, hex, startEthTestNode, waitFor, type EthTestNode } from './helpers.js';

const X = '0x000000000000000000000000000000000000aa01';
const Y = '0x000000000000000000000000000000000000aa02';
const EOA = '0x000000000000000000000000000000000000bb01';
const from = DEV[0]!.address.toLowerCase();

/** Revert unless the last CALL succeeded (stack: success flag). */
const REQUIRE_OK = 'ISZERO @fail JUMPI STOP fail: PUSH0 PUSH0 REVERT';
const callAll = (to: string, value = 0) => `PUSH0 PUSH0 PUSH0 PUSH0 PUSH1 ${value} PUSH20 ${to} GAS CALL`;

let t: EthTestNode;
let provider: Eip1193Provider;
let service: EthService;
let token: string;

async function req<T = unknown>(method: string, params: unknown[]): Promise<T> {
  return (await provider.request({ method, params })) as T;
}

type Args = Record<string, unknown>;
type Overrides = Record<string, { code?: string; balance?: string; state?: Record<string, string> }>;

async function estimate(args: Args, overrides?: Overrides): Promise<bigint> {
  return BigInt(await req<string>('eth_estimateGas', overrides ? [args, 'latest', overrides] : [args]));
}

/** EVM executions the estimate took, from the service itself (overrides as code only). */
async function runsOf(args: { to?: string; input?: string }, code: Record<string, string> = {}): Promise<number> {
  const overrides = new Map(Object.entries(code).map(([a, c]) => [a.slice(2), { code: Buffer.from(c.slice(2), 'hex') }]));
  const r = await service.env.calls.estimate(
    { from: addr(from), ...(args.to ? { to: addr(args.to) } : {}), ...(args.input ? { input: Buffer.from(args.input.slice(2), 'hex') } : {}) },
    { height: t.node.internals.app.evm.latestHeight() },
    overrides,
  );
  return r.runs;
}

/** The estimate succeeds as a gas limit, and one less fails. */
async function expectExact(args: Args, overrides?: Overrides): Promise<bigint> {
  const gas = await estimate(args, overrides);
  const at = (g: bigint) => req('eth_call', [{ ...args, gas: `0x${g.toString(16)}` }, 'latest', overrides ?? {}]);
  await expect(at(gas)).resolves.toMatch(/^0x/);
  await expect(at(gas - 1n)).rejects.toMatchObject({ code: expect.any(Number) });
  return gas;
}

beforeAll(async () => {
  t = await startEthTestNode();
  provider = createEip1193Provider(t.node);
  service = t.node.internals.eth;
  const hash = await req<string>('eth_sendTransaction', [{ from, data: hex(erc20DeployData(10n ** 24n)) }]);
  const receipt = await waitFor(() => req<{ contractAddress: string } | null>('eth_getTransactionReceipt', [hash]));
  token = receipt.contractAddress;
});

afterAll(async () => {
  provider?.close();
  await t?.stop();
});

describe('eth_estimateGas exactness', () => {
  it('a plain transfer costs 21000', async () => {
    expect(await estimate({ from, to: EOA, value: '0x1' })).toBe(21_000n);
  });

  it('an ERC20 transfer: exact, in one execution', async () => {
    const args = { from, to: token, input: hex(erc20TransferData(DEV[1]!.address, 1000n)) };
    const gas = await expectExact(args);
    expect(gas).toBeGreaterThan(30_000n);
    const r = await service.env.calls.estimate(
      { from: addr(from), to: addr(token), input: erc20TransferData(DEV[1]!.address, 1000n) },
      { height: t.node.internals.app.evm.latestHeight() },
    );
    expect(r).toEqual({ gas, runs: 1 });
  });

  it('the SSTORE sentry (gas left must exceed 2300) decides the limit', async () => {
    // The second SSTORE costs 100 gas but needs more than 2300 left.
    const code = asm('PUSH1 1 PUSH0 SSTORE PUSH1 2 PUSH0 SSTORE STOP');
    const gas = await expectExact({ from, to: X }, { [X]: { code } });
    // 21000 + 2×PUSH (5) + cold SSTORE 22100 + sentry 2301 (the final 100 fits in it).
    expect(gas).toBe(21_000n + 3n + 2n + 22_100n + 3n + 2n + 2_301n);
    expect(await runsOf({ to: X }, { [X]: code })).toBe(1);
  });

  it('the 63/64 rule of a nested call', async () => {
    const child = asm('PUSH1 1 PUSH0 SSTORE PUSH1 1 PUSH1 1 SSTORE PUSH1 1 PUSH1 2 SSTORE STOP');
    const parent = asm(`${callAll(Y)} ${REQUIRE_OK}`);
    await expectExact({ from, to: X }, { [X]: { code: parent }, [Y]: { code: child } });
    expect(await runsOf({ to: X }, { [X]: parent, [Y]: child })).toBe(2);
  });

  it('two levels of nesting with an SSTORE after the inner call', async () => {
    const z = '0x000000000000000000000000000000000000aa03';
    const inner = asm('PUSH1 7 PUSH0 SSTORE STOP');
    const middle = asm(`${callAll(z)} ISZERO @fail JUMPI PUSH1 1 PUSH1 9 SSTORE STOP fail: PUSH0 PUSH0 REVERT`);
    const outer = asm(`${callAll(Y)} ${REQUIRE_OK}`);
    await expectExact({ from, to: X }, { [X]: { code: outer }, [Y]: { code: middle }, [z]: { code: inner } });
    expect(await runsOf({ to: X }, { [X]: outer, [Y]: middle, [z]: inner })).toBe(2);
  });

  it('a value-bearing call to a new account (9000 + 25000, 2300 stipend)', async () => {
    const parent = asm(`${callAll(EOA, 1)} ${REQUIRE_OK}`);
    await expectExact({ from, to: X }, { [X]: { code: parent, balance: '0x10' } });
    const runs = await service.env.calls.estimate(
      { from: addr(from), to: addr(X) },
      { height: t.node.internals.app.evm.latestHeight() },
      new Map([[X.slice(2), { code: Buffer.from(parent.slice(2), 'hex'), balance: 16n }]]),
    );
    expect(runs.runs).toBe(2);
  });

  it('a refund (a slot cleared) does not lower the limit the tx needs', async () => {
    // Slot 0 holds 1 (override); clearing it earns a 4800 refund, but the limit must cover the gas spent before it.
    const code = asm('PUSH0 PUSH0 SSTORE STOP');
    const overrides = { [X]: { code, state: { [`0x${'00'.repeat(32)}`]: `0x${'00'.repeat(31)}01` } } };
    const gas = await expectExact({ from, to: X }, overrides);
    // 21000 + PUSH0 ×2 + SSTORE 1→0 on a cold slot (2100 + 2900); gas used is 4800 lower after the refund.
    expect(gas).toBe(21_000n + 2n + 2n + 2_100n + 2_900n);
    const state = new Map([['00'.repeat(32), Uint8Array.of(1)]]);
    const r = await service.env.calls.estimate(
      { from: addr(from), to: addr(X) },
      { height: t.node.internals.app.evm.latestHeight() },
      new Map([[X.slice(2), { code: Buffer.from(code.slice(2), 'hex'), state }]]),
    );
    expect(r).toEqual({ gas, runs: 1 });
  });

  it('contract creation, code deposit included', async () => {
    const runtime = asm(`${'PUSH1 1 POP '.repeat(40)} STOP`);
    const gas = await expectExact({ from, input: deployCode(runtime) });
    expect(gas).toBeGreaterThan(53_000n);
    expect(await runsOf({ input: deployCode(runtime) })).toBe(1);
  });

  it('code that reads GAS is confirmed by a second run and searched when its path moves', async () => {
    // Succeeds only with 50 000 gas left: at the cap it uses a few gas; the one-run answer would fail.
    const code = asm('GAS PUSH3 50000 GT @fail JUMPI STOP fail: PUSH0 PUSH0 REVERT');
    const gas = await expectExact({ from, to: X }, { [X]: { code } });
    expect(gas).toBeGreaterThan(21_000n + 50_000n);
    expect(await runsOf({ to: X }, { [X]: code })).toBeGreaterThan(2);
  });

  it('with a gas price, a balance the code reads moves with the limit: confirmed and searched', async () => {
    // Succeeds only while the caller's balance, after paying limit × price, is below T: the
    // least limit is 500 001 at 10 gwei from a 1000-ether balance.
    const balance = 10n ** 21n;
    const price = 10n ** 10n;
    const t = balance - 500_000n * price;
    const code = asm(`PUSH32 ${t} CALLER BALANCE LT @ok JUMPI PUSH0 PUSH0 REVERT ok: STOP`);
    const overrides = { [X]: { code }, [from]: { balance: `0x${balance.toString(16)}` } };
    const priced = { from, to: X, gasPrice: `0x${price.toString(16)}` };
    expect(await expectExact(priced, overrides)).toBe(500_001n);
    // Without a price no balance depends on the limit: reading one still takes one run.
    const reader = asm('CALLER BALANCE POP STOP');
    await expectExact({ from, to: X }, { [X]: { code: reader } });
    expect(await runsOf({ to: X }, { [X]: reader })).toBe(1);
  });

  it('with a gas price, SELFDESTRUCT of the sender costs 25 000 more once it has a balance to send', async () => {
    // The sender's own code (a delegated wallet) self-destructs to a fresh account. At the cap the
    // balance left after buying gas is 0 (no new-account charge); at a lower limit it is not.
    const S = '0x000000000000000000000000000000000000cc01';
    const fresh = '0x000000000000000000000000000000000000dd01';
    const price = 10n ** 10n;
    const overrides = { [S]: { code: `0x73${fresh.slice(2)}ff`, balance: `0x${(100_000n * price).toString(16)}` } };
    const gas = await expectExact({ from: S, to: S, gasPrice: `0x${price.toString(16)}` }, overrides);
    expect(gas).toBeGreaterThan(21_000n + 25_000n);
  });

  it('a child that burns all its gas: the fallback search still finds the minimum', async () => {
    const parent = asm(`${callAll(Y)} POP PUSH1 1 PUSH0 SSTORE STOP`);
    const args = { from, to: X };
    const overrides = { [X]: { code: parent }, [Y]: { code: asm('INVALID') } };
    await expectExact(args, overrides);
    expect(await runsOf({ to: X }, { [X]: parent, [Y]: asm('INVALID') })).toBeGreaterThan(2);
  });
});

describe('calls run on a copy of the state', () => {
  it('eth_call and eth_estimateGas (with overrides) leave the live state as it was', async () => {
    const view = t.node.internals.app.evm;
    const height = view.latestHeight();
    const snapshot = async () => {
      const sm = await view.stateAt(height);
      return { root: hex(await sm.getStateRoot()), sender: (await sm.getAccount(addr(from)))!.balance, x: await sm.getAccount(addr(X)) };
    };
    const before = await snapshot();
    const transfer = { from, to: token, input: hex(erc20TransferData(EOA, 1000n)) };
    const writer = { [X]: { code: asm('PUSH1 1 PUSH0 SSTORE STOP') }, [from]: { balance: '0x56bc75e2d63100000' } };
    await estimate(transfer);
    await req('eth_call', [transfer, 'latest']);
    await req('eth_call', [{ from, to: X, value: '0x1' }, 'latest', writer]);
    await estimate({ from, to: X }, writer);
    expect(view.latestHeight()).toBe(height);
    expect(await snapshot()).toEqual(before);
    expect(before.x).toBeUndefined();
    expect(await req('eth_getCode', [X, 'latest'])).toBe('0x');
    const balanceOfEoa = `0x70a08231${EOA.slice(2).padStart(64, '0')}`;
    expect(BigInt(await req<string>('eth_call', [{ to: token, input: balanceOfEoa }, 'latest']))).toBe(0n);
  });
});

describe('eth_estimateGas failures', () => {
  it('a revert answers code 3 with the reason and the revert data', async () => {
    const args = { from: DEV[5]!.address, to: token, input: hex(erc20TransferData(from, 1n)) };
    const err = await req('eth_estimateGas', [args]).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 3, message: 'execution reverted: insufficient balance' });
    expect((err as { data: string }).data).toMatch(/^0x08c379a0/);
  });

  it('a tx that needs more than the given gas: "gas required exceeds allowance"', async () => {
    const err = await req('eth_estimateGas', [{ from, to: token, gas: '0x6000', input: hex(erc20TransferData(EOA, 1n)) }]).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: -32000, message: 'gas required exceeds allowance (24576)' });
  });

  it('a halting tx at the cap answers the vm error', async () => {
    const err = await req('eth_estimateGas', [{ from, to: X }, 'latest', { [X]: { code: asm('INVALID') } }]).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: -32000 });
  });
});

describe('calls refused before execution, in geth words', () => {
  it('intrinsic gas too low; insufficient funds for gas * price + value', async () => {
    const low = await req('eth_call', [{ from, to: EOA, gas: '0x5000' }, 'latest']).catch((e: unknown) => e);
    expect(low).toMatchObject({ code: -32000, message: 'intrinsic gas too low: have 20480, want 21000' });
    const poor = await req('eth_estimateGas', [{ from: EOA, to: X, value: '0x1' }]).catch((e: unknown) => e);
    expect(poor).toMatchObject({ code: -32000, message: 'insufficient funds for gas * price + value: have 0 want 1' });
    const priced = await req('eth_call', [{ from: EOA, to: X, gas: '0x5208', gasPrice: '0x2' }, 'latest']).catch((e: unknown) => e);
    expect(priced).toMatchObject({ code: -32000, message: 'insufficient funds for gas * price + value: have 0 want 42000' });
  });
});

function addr(h: string): Address {
  return new Address(new Uint8Array(Buffer.from(h.slice(2), 'hex')));
}
