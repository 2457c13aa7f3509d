/**
 * A cheaper opcode loop for the call EVMs and the block executor's EVM. ethereumjs's interpreter awaits a promise for every
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
 *
 * The same registered EVMs also start each call frame more cheaply (`EVM.runInterpreter`): the
 * original returns, besides the results, a merged copy of the frame's run state and environment
 * (~50 properties, a tenth of an ERC20 eth_call) that neither ethereumjs nor Chainlet reads; here
 * the frame's own run state object is passed on instead.
 */
import type { Common } from '@ethereumjs/common';
import { EVM, EVMError } from '@ethereumjs/evm';
import { Account, createZeroAddress, type Address } from '@ethereumjs/util';

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

/** Installs the loop on the Interpreter prototype and the frame start on EVM's, once per process. */
export function installFastLoop(interpreter: object): void {
  if (installed) return;
  installed = true;
  const proto = Object.getPrototypeOf(interpreter) as { run: RunFn; constructor: InterpreterCtor };
  const original = proto.run;
  if (typeof original !== 'function') return;
  proto.run = function (code, opts) {
    if (!eligible(this, code, opts)) return original.call(this, code, opts);
    return fastRun(this, code);
  };
  installLeanFrames(proto.constructor);
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

// ── frame start ───────────────────────────────────────────────────────────────────────────────

/** The message fields runInterpreter reads (ethereumjs's Message). */
interface FrameMessage {
  to?: Address;
  caller?: Address;
  data?: Uint8Array;
  value?: bigint;
  code?: Uint8Array;
  isStatic?: boolean;
  isCreate?: boolean;
  depth?: number;
  codeAddress?: Address;
  gasRefund?: bigint;
  chargeCodeAccesses?: boolean;
  blobVersionedHashes?: Uint8Array[];
  accessWitness?: { commit(): void };
  createdAddresses?: Set<string>;
  selfdestruct?: Map<string, Uint8Array>;
  gasLimit: bigint;
}

interface FrameResult {
  logs: unknown[];
  returnValue?: Uint8Array;
  selfdestruct: Map<string, Uint8Array>;
  createdAddresses?: Set<string>;
}

interface FrameRunState extends RunState {
  gasRefund: bigint;
  stateGasSpilled?: bigint;
}

interface FrameInterpreter {
  _result: FrameResult;
  run(code: Uint8Array | undefined, opts: object): Promise<{ runState: FrameRunState; exceptionError: EVMError | undefined }>;
}

type InterpreterCtor = new (...args: unknown[]) => FrameInterpreter;

interface EvmInternals {
  stateManager: { getAccount(a: Address): Promise<Account | undefined> };
  blockchain: unknown;
  journal: unknown;
  performanceLogger: unknown;
  _optsCached: { profiler?: unknown };
  _tx?: { gasPrice: bigint; origin?: Address };
  _block?: unknown;
}

type RunInterpreterFn = (this: EvmInternals, message: FrameMessage, opts?: { initialLogs?: unknown[] }) => Promise<unknown>;

const REVERT = EVMError.errorMessages.REVERT;
const INVALID_EOF = EVMError.errorMessages.INVALID_EOF_FORMAT;

function installLeanFrames(Interpreter: InterpreterCtor): void {
  const proto = EVM.prototype as unknown as { runInterpreter: RunInterpreterFn };
  const original = proto.runInterpreter;
  if (typeof original !== 'function' || typeof Interpreter !== 'function') return;
  proto.runInterpreter = function (message, opts = {}) {
    if (!enabled.has(this) || this._tx === undefined || this._block === undefined) return original.call(this, message, opts);
    return leanFrame(this, Interpreter, message, opts);
  };
}

/** What EVM.runInterpreter does, without the merged run-state copy in its result. */
async function leanFrame(evm: EvmInternals, Interpreter: InterpreterCtor, message: FrameMessage, opts: { initialLogs?: unknown[] }) {
  const to = message.to ?? createZeroAddress();
  const contract = (await evm.stateManager.getAccount(to)) ?? new Account();
  const tx = evm._tx!;
  const env = {
    address: to,
    caller: message.caller ?? createZeroAddress(),
    callData: message.data ?? Uint8Array.from([0]),
    callValue: message.value ?? 0n,
    code: message.code,
    isStatic: message.isStatic ?? false,
    isCreate: message.isCreate ?? false,
    depth: message.depth ?? 0,
    gasPrice: tx.gasPrice,
    origin: tx.origin ?? message.caller ?? createZeroAddress(),
    block: evm._block,
    contract,
    codeAddress: message.codeAddress,
    gasRefund: message.gasRefund,
    chargeCodeAccesses: message.chargeCodeAccesses,
    blobVersionedHashes: message.blobVersionedHashes ?? [],
    accessWitness: message.accessWitness,
    createdAddresses: message.createdAddresses,
    initialLogs: opts.initialLogs,
  };
  const interpreter = new Interpreter(
    evm,
    evm.stateManager,
    evm.blockchain,
    env,
    message.gasLimit,
    evm.journal,
    evm.performanceLogger,
    evm._optsCached.profiler,
  );
  if (message.selfdestruct) interpreter._result.selfdestruct = message.selfdestruct;
  if (message.createdAddresses) interpreter._result.createdAddresses = message.createdAddresses;
  const { runState, exceptionError } = await interpreter.run(message.code, opts);
  let result = interpreter._result;
  let gasUsed = message.gasLimit - runState.gasLeft;
  if (exceptionError) {
    if (exceptionError.error !== REVERT && exceptionError.error !== INVALID_EOF) gasUsed = message.gasLimit;
    result = { ...result, logs: [], selfdestruct: new Map(), createdAddresses: new Set() };
  }
  message.accessWitness?.commit();
  return {
    ...result,
    runState,
    exceptionError,
    gas: runState.gasLeft,
    executionGasUsed: gasUsed,
    gasRefund: runState.gasRefund,
    stateGasSpilled: runState.stateGasSpilled,
    returnValue: result.returnValue ?? new Uint8Array(0),
  };
}
