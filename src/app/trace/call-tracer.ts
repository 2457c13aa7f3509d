/**
 * geth's `callTracer`: the tree of call frames of a tx (type, from, to, value, gas, gasUsed,
 * input, output, error, revertReason, calls), and with `withLog` the logs each frame emitted
 * with their position among its sub-calls. `onlyTopCall` keeps only the top frame.
 *
 * The top frame's gas is the tx's gas limit and its gasUsed the receipt's; a failed frame keeps
 * no logs (nor do its children), and a failed creation has no `to`, as in geth.
 */
import type { Address } from '@ethereumjs/util';
import { addressHex, bytesHex, quantity } from './json.js';
import type { CallFrame, CallLog, CallType, EnterEvent, ExitEvent, LogEvent, Tracer, TxEndEvent, TxStartEvent } from './types.js';
import { revertReason } from '../evm/vm-errors.js';

export interface CallTracerConfig {
  onlyTopCall?: boolean;
  withLog?: boolean;
}

interface Frame {
  type: CallType;
  from: Address;
  to: Address | undefined;
  input: Uint8Array;
  gas: bigint;
  gasUsed: bigint;
  value: bigint | undefined;
  output: Uint8Array | undefined;
  error: string | undefined;
  revertReason: string | undefined;
  calls: Frame[];
  logs: CallLog[];
}

export class CallTracer implements Tracer {
  private readonly stack: Frame[] = [];
  private top: Frame | undefined;
  private gasLimit = 0n;

  constructor(private readonly cfg: CallTracerConfig = {}) {}

  onTxStart(e: TxStartEvent): void {
    this.gasLimit = e.gasLimit;
  }

  onEnter(e: EnterEvent): void {
    if (e.depth > 0 && this.cfg.onlyTopCall) return;
    const frame: Frame = {
      type: e.type,
      from: e.from,
      to: e.to,
      input: e.input,
      gas: e.depth === 0 ? this.gasLimit : e.gas,
      gasUsed: 0n,
      value: e.value,
      output: undefined,
      error: undefined,
      revertReason: undefined,
      calls: [],
      logs: [],
    };
    if (e.depth === 0) this.top = frame;
    this.stack.push(frame);
  }

  onExit(e: ExitEvent): void {
    if (e.depth > 0 && this.cfg.onlyTopCall) return;
    const frame = this.stack.pop();
    if (frame === undefined) return;
    frame.gasUsed = e.gasUsed;
    setOutput(frame, e);
    const parent = this.stack[this.stack.length - 1];
    if (parent !== undefined) parent.calls.push(frame);
  }

  onLog(e: LogEvent): void {
    if (!this.cfg.withLog || (e.depth > 0 && this.cfg.onlyTopCall)) return;
    const frame = this.stack[this.stack.length - 1];
    if (frame === undefined) return;
    frame.logs.push({
      address: addressHex(e.address),
      topics: e.topics.map(bytesHex),
      data: bytesHex(e.data),
      position: quantity(frame.calls.length),
    });
  }

  onTxEnd(e: TxEndEvent): void {
    if (this.top !== undefined) this.top.gasUsed = e.gasUsed;
  }

  result(): CallFrame | null {
    if (this.top === undefined) return null;
    return encode(this.top, this.cfg.withLog === true, false);
  }
}

function setOutput(f: Frame, e: ExitEvent): void {
  if (e.error === undefined) {
    f.output = e.output;
    return;
  }
  f.error = e.error;
  if (f.type === 'CREATE' || f.type === 'CREATE2') f.to = undefined;
  if (e.error !== 'execution reverted' || e.output.length === 0) return;
  f.output = e.output;
  f.revertReason = revertReason(e.output);
}

/** geth's JSON of a frame (its key order); logs of a failed frame, and of all under it, are dropped. */
function encode(f: Frame, withLog: boolean, parentFailed: boolean): CallFrame {
  const failed = parentFailed || f.error !== undefined;
  const out = { from: addressHex(f.from), gas: quantity(f.gas), gasUsed: quantity(f.gasUsed) } as Omit<CallFrame, 'type'>;
  if (f.to !== undefined) out.to = addressHex(f.to);
  out.input = bytesHex(f.input);
  if (f.output !== undefined && f.output.length > 0) out.output = bytesHex(f.output);
  if (f.error !== undefined) out.error = f.error;
  if (f.revertReason !== undefined) out.revertReason = f.revertReason;
  if (f.calls.length > 0) out.calls = f.calls.map((c) => encode(c, withLog, failed));
  if (withLog && !failed && f.logs.length > 0) out.logs = f.logs;
  if (f.value !== undefined) out.value = quantity(f.value);
  return { ...out, type: f.type };
}
