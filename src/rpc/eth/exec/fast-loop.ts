/**
 * A cheaper opcode loop for the call EVMs. ethereumjs's interpreter awaits a promise for every
 * opcode (`await this.runStep()`), which for the ~80% of opcodes with a fixed gas cost and a
 * synchronous handler (PUSH, DUP, SWAP, arithmetic, JUMP…) is most of their cost and garbage. This
 * loop runs those inline: charge the fixed gas, advance the program counter, call the handler;
 * every other opcode (dynamic gas, async handler, invalid) still goes through the interpreter's
 * own `runStep`, so gas rules, state access and errors stay ethereumjs's.
 *
 * It takes over only where it is equivalent to the original loop: a registered EVM, legacy (non
 * EOF) code from pc 0, no step listeners (tracers), no debug or profiler, no stateless (verkle /
 * binary tree) code-chunk charging. Anything else runs the original `run`. The jump analysis is
 * done up front (the original does it at the first JUMP/JUMPI): it is a pure function of the code,
 * and through jump-cache.ts it is computed once per code object.
 *
 * Like jump-cache.ts, it is installed on ethereumjs's internal Interpreter prototype from the first
 * interpreter an opcode handler sees; `RunState` below is the part of its shape this relies on.
 */
import type { EVM } from '@ethereumjs/evm';
import type { Common } from '@ethereumjs/common';
import { EVMError } from '@ethereumjs/evm';

interface OpInfo {
  readonly code: number;
  readonly isAsync: boolean;
  readonly dynamicGas: boolean;
  readonly isInvalid: boolean;
  readonly feeBigInt: bigint;
}

interface OpEntry {
  opcodeInfo: OpInfo;
  opHandler: (rs: RunState, common: Common) => unknown;
}

interface RunState {
  programCounter: number;
  opCode: number;
  code: Uint8Array;
  gasLeft: bigint;
  validJumps: Uint8Array;
  cachedPushes: Record<number, bigint>;
  shouldDoJumpAnalysis: boolean;
  env: { accessWitness?: { commit(): void; revert(): void } };
  eip7928PostTargetCallOog?: unknown;
  eip8037BurnLeftoverAfterCreateHaltOntoAlive?: boolean;
}

interface RunResult {
  runState: RunState;
  exceptionError: EVMError | undefined;
}

interface InterpreterLike {
  _evm: { events: { listenerCount(name: string): number }; DEBUG: boolean };
  _runState: RunState;
  common: Common;
  profilerOpts?: { enabled?: boolean };
  runStep(entry?: OpEntry): Promise<void>;
  _getValidJumpDestinations(code: Uint8Array): { jumps: Uint8Array; pushes: Record<number, bigint>; opcodesCached: (OpEntry | undefined)[] };
}

type RunFn = (this: InterpreterLike, code: Uint8Array, opts?: { pc?: number }) => Promise<RunResult>;

const EOF_FORMAT = 0xef;
const OUT_OF_GAS = EVMError.errorMessages.OUT_OF_GAS;
const STOP = EVMError.errorMessages.STOP;

const enabled = new WeakSet<object>();
/** Frames the fast loop ran (tests check that it is really in use). */
export const fastLoopStats = { frames: 0 };
let installed = false;

/** Lets `evm` use the fast loop (effective once `installFastLoop` has run). */
export function enableFastLoop(evm: EVM): void {
  enabled.add(evm);
}

/** Installs the loop on the Interpreter prototype, once per process. */
export function installFastLoop(interpreter: object): void {
  if (installed) return;
  installed = true;
  const proto = Object.getPrototypeOf(interpreter) as { run: RunFn };
  const original = proto.run;
  if (typeof original !== 'function') return;
  proto.run = function (code, opts) {
    if (!eligible(this, code, opts)) return original.call(this, code, opts);
    return fastRun(this, code);
  };
}

function eligible(it: InterpreterLike, code: Uint8Array, opts: { pc?: number } | undefined): boolean {
  if (!enabled.has(it._evm)) return false;
  if (opts?.pc !== undefined && opts.pc !== 0) return false;
  if (code[0] === EOF_FORMAT || code.length === 0) return false;
  if (it._evm.DEBUG || it.profilerOpts?.enabled === true || it._evm.events.listenerCount('step') > 0) return false;
  const c = it.common;
  return !c.isActivatedEIP(6800) && !c.isActivatedEIP(7864);
}

async function fastRun(it: InterpreterLike, code: Uint8Array): Promise<RunResult> {
  const rs = it._runState;
  const common = it.common;
  fastLoopStats.frames++;
  rs.code = code;
  const { jumps, pushes, opcodesCached } = it._getValidJumpDestinations(code);
  rs.validJumps = jumps;
  rs.cachedPushes = pushes;
  rs.shouldDoJumpAnalysis = false;
  let err: EVMError | undefined;
  const end = code.length;
  while (rs.programCounter < end) {
    const entry = opcodesCached[rs.programCounter];
    try {
      const info = entry?.opcodeInfo;
      if (info === undefined || info.dynamicGas || info.isAsync || info.isInvalid || rs.eip7928PostTargetCallOog !== undefined) {
        rs.opCode = info?.code ?? code[rs.programCounter]!;
        await it.runStep(entry);
      } else {
        rs.opCode = info.code;
        rs.gasLeft -= info.feeBigInt;
        if (rs.gasLeft < 0n) {
          rs.gasLeft = 0n;
          throw new EVMError(OUT_OF_GAS);
        }
        rs.programCounter++;
        entry!.opHandler(rs, common);
        rs.env.accessWitness?.commit();
      }
    } catch (e) {
      rs.env.accessWitness?.revert();
      if (!isEvmError(e)) throw e;
      if (e.error !== STOP) err = e;
      break;
    }
  }
  if (err === undefined && rs.eip8037BurnLeftoverAfterCreateHaltOntoAlive === true && rs.gasLeft > 0n) {
    rs.gasLeft = 0n;
    err = new EVMError(OUT_OF_GAS);
  }
  return { runState: rs, exceptionError: err };
}

function isEvmError(e: unknown): e is EVMError {
  return typeof e === 'object' && e !== null && (e as { errorType?: unknown }).errorType === 'EVMError';
}
