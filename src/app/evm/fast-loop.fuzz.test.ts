/**
 * Random Prague programs (calls of every kind, CREATE/CREATE2, SELFDESTRUCT, precompiles, logs,
 * storage, transient storage, jumps, reverts, out of gas) run on a call EVM (fast loop, lean
 * frames, fast ops, optionally the gas tracker) and on a plain ethereumjs EVM: the outcomes agree
 * on error, gas, refund, return data, logs, self-destructs, storage, balances and nonces.
 * Deterministic: a fixed seed.
 */
import { createEVM, type EVM } from '@ethereumjs/evm';
import { Account, Address } from '@ethereumjs/util';
import { describe, expect, it } from 'vitest';
import { createChainCommon } from '../chain-common.js';
import { EvmHooks } from './evm-hooks.js';
import { fastLoopStats } from '../interpreter/fast-loop.js';
import { GasTracker } from './gas-tracker.js';

const common = createChainCommon({ chainId: 9000n, hardfork: 'prague' });
const caller = new Address(new Uint8Array(20).fill(0x11));
const A = new Address(new Uint8Array(20).fill(0x22));
const B = new Address(new Uint8Array(20).fill(0x33));
const C = new Address(new Uint8Array(20).fill(0x44));

let seed = 1;
const rnd = (n: number) => {
  seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0;
  return seed % n;
};

// op, arity
const OPS: [number, number][] = [
  [0x01, 2],
  [0x02, 2],
  [0x03, 2],
  [0x04, 2],
  [0x06, 2],
  [0x0a, 2],
  [0x10, 2],
  [0x14, 2],
  [0x15, 1],
  [0x16, 2],
  [0x1b, 2],
  [0x1c, 2],
  [0x20, 2],
  [0x30, 0],
  [0x31, 1],
  [0x32, 0],
  [0x33, 0],
  [0x34, 0],
  [0x35, 1],
  [0x36, 0],
  [0x37, 3],
  [0x38, 0],
  [0x39, 3],
  [0x3a, 0],
  [0x3b, 1],
  [0x3c, 4],
  [0x3d, 0],
  [0x3e, 3],
  [0x3f, 1],
  [0x40, 1],
  [0x41, 0],
  [0x42, 0],
  [0x43, 0],
  [0x45, 0],
  [0x46, 0],
  [0x47, 0],
  [0x48, 0],
  [0x50, 1],
  [0x51, 1],
  [0x52, 2],
  [0x53, 2],
  [0x54, 1],
  [0x55, 2],
  [0x58, 0],
  [0x59, 0],
  [0x5a, 0],
  [0x5c, 1],
  [0x5d, 2],
  [0x5e, 3],
  [0xa0, 2],
  [0xa1, 3],
  [0xa2, 4],
  [0xa3, 5],
  [0xa4, 6],
  [0xf0, 3],
  [0xf1, 7],
  [0xf2, 7],
  [0xf4, 6],
  [0xf5, 4],
  [0xfa, 6],
  [0x0c, 0],
  [0xfe, 0],
];

function pushVal(out: number[]): void {
  const k = rnd(10);
  if (k < 5) out.push(0x60, rnd(256));
  else if (k < 6) out.push(0x5f);
  else if (k < 8) {
    const who = [A, B, C, caller][rnd(4)]!;
    out.push(0x73, ...who.bytes);
  } else if (k < 9)
    out.push(0x60, 1 + rnd(17)); // precompile
  else out.push(0x61, rnd(4), rnd(256));
}

function program(len: number): Uint8Array {
  const out: number[] = [];
  const dests: number[] = [];
  for (let i = 0; i < len; i++) {
    const r = rnd(30);
    if (r === 0) {
      dests.push(out.length);
      out.push(0x5b);
      continue;
    }
    if (r === 1 && dests.length > 0) {
      // conditional backwards jump on a fresh counter-ish value
      out.push(0x60, rnd(2), 0x61, 0, 0); // cond, dest placeholder
      const d = dests[rnd(dests.length)]!;
      out[out.length - 2] = d >> 8;
      out[out.length - 1] = d & 0xff;
      out.push(0x57);
      continue;
    }
    if (r === 2) {
      out.push(0x60, rnd(64), 0x56); // likely invalid jump
      continue;
    }
    if (r === 3) {
      out.push(0x73, ...[A, B, C][rnd(3)]!.bytes, 0xff);
      continue;
    }
    const [op, ar] = OPS[rnd(OPS.length)]!;
    if (op === 0xf1 || op === 0xf2 || op === 0xf4 || op === 0xfa) {
      // outLen, outOff, inLen, inOff, [value], addr, gas
      out.push(0x60, rnd(64), 0x60, rnd(64), 0x60, rnd(64), 0x60, rnd(64));
      if (op === 0xf1 || op === 0xf2) out.push(0x60, rnd(3));
      pushVal(out);
      if (rnd(2) === 0) out.push(0x5a);
      else out.push(0x62, 0, rnd(256), rnd(256));
      out.push(op);
      continue;
    }
    if (op === 0xf0 || op === 0xf5) {
      // store small init code in memory: returns 1 byte code or runs small things
      const init = [0x60, rnd(256), 0x5f, 0x53, 0x60, 1, 0x5f, 0xf3]; // MSTORE8 v at 0, RETURN 1
      for (let j = 0; j < init.length; j++) out.push(0x60, init[j]!, 0x60, 200 + j, 0x53);
      if (op === 0xf5) out.push(0x60, rnd(4));
      out.push(0x60, init.length, 0x60, 200, 0x60, rnd(2), op);
      continue;
    }
    for (let j = 0; j < ar; j++) pushVal(out);
    out.push(op);
  }
  out.push(0x60, 32, 0x5f, rnd(2) === 0 ? 0xf3 : 0xfd);
  return Uint8Array.from(out);
}

async function freshEvm(hooked: boolean, codes: Uint8Array[]): Promise<{ evm: EVM; hooks?: EvmHooks }> {
  const evm = await createEVM({ common, params: {} });
  let hooks: EvmHooks | undefined;
  if (hooked) {
    hooks = new EvmHooks(evm);
    hooks.arm(0);
  }
  await evm.stateManager.putAccount(caller, new Account(0n, 10n ** 24n));
  const addrs = [A, B, C];
  for (let i = 0; i < 3; i++) {
    await evm.stateManager.putAccount(addrs[i]!, new Account(1n, BigInt(i)));
    await evm.stateManager.putCode(addrs[i]!, codes[i]!);
  }
  return { evm, hooks };
}

async function outcome(evm: EVM, gasLimit: bigint) {
  const r = await evm.runCall({ caller, origin: caller, to: A, data: Uint8Array.of(1, 2, 3), gasLimit, value: 1n, block: undefined });
  const e = r.execResult;
  const sm = evm.stateManager;
  const slots: string[] = [];
  for (const a of [A, B, C]) for (let k = 0; k < 4; k++) slots.push(Buffer.from(await sm.getStorage(a, new Uint8Array(32).fill(k, 31))).toString('hex'));
  const accts: string[] = [];
  for (const a of [A, B, C, caller]) {
    const acc = await sm.getAccount(a);
    accts.push(acc ? `${acc.nonce}/${acc.balance}` : 'none');
  }
  return {
    error: e.exceptionError?.error,
    gasUsed: e.executionGasUsed,
    refund: e.gasRefund,
    ret: Buffer.from(e.returnValue).toString('hex'),
    logs: JSON.stringify(
      (e.logs ?? []).map((l) => l.map((x) => (Array.isArray(x) ? x.map((y) => Buffer.from(y).toString('hex')) : Buffer.from(x).toString('hex')))),
    ),
    sd: JSON.stringify([...(e.selfdestruct?.keys() ?? [])]),
    slots: slots.join(','),
    accts: accts.join(','),
  };
}

const N = 150;
const asJson = (o: unknown) => JSON.stringify(o, (_, v) => (typeof v === 'bigint' ? v.toString() : v));
const dummy = new Address(new Uint8Array(20).fill(0x98));

describe('fast loop, fuzzed', () => {
  it(`agrees with ethereumjs on ${N} random programs`, async () => {
    const diffs: string[] = [];
    let fastFrames = 0;
    for (let n = 0; n < N; n++) {
      const codes = [program(20 + rnd(40)), program(10 + rnd(20)), program(5 + rnd(10))];
      const gas = [30_000n, 100_000n, 1_000_000n][rnd(3)]!;
      const f = await freshEvm(true, codes);
      const p = await freshEvm(false, codes);
      // The loop is installed from the first JUMPDEST a hooked EVM runs.
      for (const e of [f.evm, p.evm]) {
        await e.stateManager.putCode(dummy, Uint8Array.of(0x5b, 0));
        await e.runCall({ caller, origin: caller, to: dummy, gasLimit: 100n });
      }
      const track = rnd(2) === 0;
      if (track) f.hooks!.track(new GasTracker());
      const before = fastLoopStats.frames;
      let a: unknown;
      let b: unknown;
      try {
        a = await outcome(f.evm, gas);
      } catch (e) {
        a = { threw: String(e) };
      }
      if (track) f.hooks!.track(undefined);
      fastFrames += fastLoopStats.frames - before;
      try {
        b = await outcome(p.evm, gas);
      } catch (e) {
        b = { threw: String(e) };
      }
      if (asJson(a) !== asJson(b)) diffs.push(`program ${n} ${Buffer.from(codes[0]!).toString('hex')}: ${asJson(a)} vs ${asJson(b)}`);
    }
    expect(diffs).toEqual([]);
    expect(fastFrames).toBeGreaterThan(N);
  }, 60_000);
});
