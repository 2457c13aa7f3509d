/**
 * Turns one EVM's ethereumjs events into geth's tracing hooks for the duration of one tx:
 *
 *   beforeMessage ─▶ onEnter   (call type, from and to taken from the opcode that made the call)
 *   step          ─▶ onOpcode  (+ onLog for LOG0..LOG4; return data of the frame's last call)
 *   afterMessage  ─▶ onExit    (geth's error text)
 *
 * ethereumjs awaits a listener that takes a second `resolve` argument, so async tracer hooks
 * (storage reads) finish before the opcode runs. A listener that throws synchronously aborts the
 * run; an async failure is kept and thrown at the next event (and by `check()` after the run).
 */
import type { EVM, EVMResult, InterpreterStep, Message } from '@ethereumjs/evm';
import { Address, createContractAddress, createContractAddress2 } from '@ethereumjs/util';
import { TraceTimeoutError } from './errors.js';
import { bigIntToWord } from './json.js';
import type { CallType, Tracer } from './types.js';
import { gethErrorText } from '../evm/vm-errors.js';

const EMPTY = new Uint8Array(0);
const CHECK_CLOCK_EVERY = 256;

const CALL_OPS: Record<number, CallType> = { 0xf1: 'CALL', 0xf2: 'CALLCODE', 0xf4: 'DELEGATECALL', 0xfa: 'STATICCALL' };
const CREATE = 0xf0;
const CREATE2 = 0xf5;
const LOG0 = 0xa0;
const LOG4 = 0xa4;

interface Frame {
  type: CallType;
  returnData: Uint8Array;
  /** A call opcode ran; if no child frame follows, the call failed early and return data is empty. */
  awaitingChild: boolean;
  lastOp: { op: number; name: string } | undefined;
}

interface PendingCall {
  type: CallType;
  from: Address;
  to: Address;
}

export interface AttachOptions {
  /** The address a top-level contract creation deploys to. */
  createdAddress?: Address;
  /** 0: no limit. */
  timeoutMs: number;
}

export class TracerBinding {
  private readonly frames: Frame[] = [];
  private pending: PendingCall | undefined;
  private failure: unknown;
  private steps = 0;
  private readonly deadline: number;
  /** geth's error text of the top call, once it has returned. */
  topError: string | undefined;

  private readonly onStep = (s: InterpreterStep, resolve?: (r?: unknown) => void): void => this.step(s, resolve!);
  private readonly onBefore = (m: Message, resolve?: (r?: unknown) => void): void => {
    this.before(m);
    resolve!();
  };
  private readonly onAfter = (r: EVMResult, resolve?: (r?: unknown) => void): void => {
    this.after(r);
    resolve!();
  };

  constructor(
    private readonly evm: EVM,
    private readonly tracer: Tracer,
    private readonly opts: AttachOptions,
  ) {
    this.deadline = opts.timeoutMs > 0 ? performance.now() + opts.timeoutMs : Infinity;
    evm.events.on('step', this.onStep);
    evm.events.on('beforeMessage', this.onBefore);
    evm.events.on('afterMessage', this.onAfter);
  }

  detach(): void {
    this.evm.events.off('step', this.onStep);
    this.evm.events.off('beforeMessage', this.onBefore);
    this.evm.events.off('afterMessage', this.onAfter);
  }

  /** Throws what an async hook failed with, if anything. */
  check(): void {
    if (this.failure !== undefined) throw this.failure;
  }

  private step(s: InterpreterStep, resolve: (r?: unknown) => void): void {
    this.check();
    if (++this.steps % CHECK_CLOCK_EVERY === 0 && performance.now() > this.deadline) {
      this.failure = new TraceTimeoutError(this.opts.timeoutMs);
      throw this.failure;
    }
    const frame = this.frames[this.frames.length - 1];
    const op = s.opcode.code;
    if (frame !== undefined) {
      if (frame.awaitingChild) {
        frame.returnData = EMPTY;
        frame.awaitingChild = false;
      }
      frame.lastOp = { op, name: s.opcode.name };
    }
    const pending = this.tracer.onOpcode?.({
      pc: s.pc,
      op,
      opName: s.opcode.name,
      gas: s.gasLeft,
      cost: s.opcode.dynamicFee ?? BigInt(s.opcode.fee),
      depth: s.depth + 1,
      stack: s.stack,
      memory: s.memory,
      returnData: frame?.returnData ?? EMPTY,
      refund: s.gasRefund,
      address: s.address,
      contract: s.account,
      state: s.stateManager,
    });
    this.afterOpcode(s, op, frame);
    if (pending instanceof Promise) {
      pending.then(
        () => resolve(),
        (e: unknown) => {
          this.failure = e;
          resolve();
        },
      );
    } else {
      resolve();
    }
  }

  /** Remembers the call an opcode is about to make, and reports LOGs. */
  private afterOpcode(s: InterpreterStep, op: number, frame: Frame | undefined): void {
    const st = s.stack;
    const n = st.length;
    const callType = CALL_OPS[op];
    if (callType !== undefined && n >= 2) {
      this.pending = { type: callType, from: s.address, to: addressFromWord(st[n - 2]!) };
    } else if (op === CREATE) {
      this.pending = { type: 'CREATE', from: s.address, to: createContractAddress(s.address, s.account.nonce) };
    } else if (op === CREATE2 && n >= 4) {
      const init = readMemory(s.memory, st[n - 2]!, st[n - 3]!);
      this.pending = { type: 'CREATE2', from: s.address, to: createContractAddress2(s.address, bigIntToWord(st[n - 4]!), init) };
    } else if (op >= LOG0 && op <= LOG4 && n >= 2 + (op - LOG0)) {
      const topics: Uint8Array[] = [];
      for (let i = 0; i < op - LOG0; i++) topics.push(bigIntToWord(st[n - 3 - i]!));
      this.tracer.onLog?.({ depth: s.depth, address: s.address, topics, data: readMemory(s.memory, st[n - 1]!, st[n - 2]!) });
      return;
    } else {
      return;
    }
    if (frame !== undefined) frame.awaitingChild = true;
  }

  private before(m: Message): void {
    this.check();
    const parent = this.frames[this.frames.length - 1];
    let type: CallType;
    let from: Address;
    let to: Address;
    if (parent === undefined) {
      type = m.to === undefined ? 'CREATE' : 'CALL';
      from = m.caller;
      to = m.to ?? this.opts.createdAddress ?? new Address(new Uint8Array(20));
    } else {
      parent.awaitingChild = false;
      const p = this.pending;
      type = p?.type ?? (m.to === undefined ? 'CREATE' : 'CALL');
      from = p?.from ?? m.caller;
      to = p?.to ?? m.to ?? new Address(new Uint8Array(20));
    }
    this.pending = undefined;
    this.frames.push({ type, returnData: EMPTY, awaitingChild: false, lastOp: undefined });
    this.tracer.onEnter?.({
      depth: this.frames.length - 1,
      type,
      from,
      to,
      input: m.data.slice(), // a view into the caller's memory, which later opcodes overwrite
      gas: m.gasLimit,
      value: type === 'STATICCALL' ? undefined : m.value,
    });
  }

  private after(r: EVMResult): void {
    this.check();
    const frame = this.frames.pop();
    if (frame === undefined) return;
    const err = r.execResult.exceptionError;
    const output = r.execResult.returnValue.slice();
    const error = err === undefined ? undefined : gethErrorText(err, frame.lastOp);
    if (this.frames.length === 0) this.topError = error;
    this.tracer.onExit?.({ depth: this.frames.length, output, gasUsed: r.execResult.executionGasUsed, error, reverted: err !== undefined });
    const parent = this.frames[this.frames.length - 1];
    if (parent !== undefined) {
      const created = frame.type === 'CREATE' || frame.type === 'CREATE2';
      parent.returnData = created && err === undefined ? EMPTY : output;
    }
  }
}

function addressFromWord(v: bigint): Address {
  return new Address(bigIntToWord(v).subarray(12));
}

/** Past this, an opcode's memory expansion runs out of gas before any data exists. */
const MAX_READ = 1n << 25n;

/** `size` bytes of memory at `offset`, zero past the end (as memory expansion would give). */
export function readMemory(memory: Uint8Array, offset: bigint, size: bigint): Uint8Array {
  if (size === 0n || size > MAX_READ || offset > MAX_READ) return EMPTY;
  const n = Number(size);
  const out = new Uint8Array(n);
  const start = Number(offset);
  if (start < memory.length) out.set(memory.subarray(start, Math.min(memory.length, start + n)));
  return out;
}
