/**
 * geth's default tracer, the struct (opcode) logger: one entry per executed opcode with pc, op,
 * gas before it, its cost, call depth, stack, and on request memory, return data and the storage
 * slots the contract has read or written so far (recorded at SLOAD/SSTORE, as geth does).
 *
 * Options: disableStack, disableStorage, enableMemory, enableReturnData, limit.
 * Two ethereumjs differences are evened out here: a CALL's cost includes the gas it forwards
 * (added when the child frame starts), and a halting opcode carries the error geth logs with it.
 */
import type { Address } from '@ethereumjs/util';
import { bigIntToWord, bytesHex, quantity, wordNoPrefix, wordToBigInt } from './json.js';
import type { EnterEvent, ExitEvent, OpcodeEvent, StructLog, StructLoggerResult, Tracer, TxEndEvent } from './types.js';

export interface StructLoggerConfig {
  disableStack?: boolean;
  disableStorage?: boolean;
  enableMemory?: boolean;
  enableReturnData?: boolean;
  limit?: number;
}

const SLOAD = 0x54;
const SSTORE = 0x55;
const CALL_TYPES = new Set(['CALL', 'CALLCODE', 'DELEGATECALL', 'STATICCALL']);
const CALL_STIPEND = 2300n;

export class StructLogger implements Tracer {
  private readonly logs: StructLog[] = [];
  /** Per contract: slot → value, both as geth's `%x` words. */
  private readonly storage = new Map<string, Map<string, string>>();
  /** Per opcode depth: index of its most recent log. */
  private readonly lastLogAt: (number | undefined)[] = [];
  private gasUsed = 0n;
  private output: Uint8Array = new Uint8Array(0);
  private error: string | undefined;

  constructor(private readonly cfg: StructLoggerConfig = {}) {}

  onOpcode(e: OpcodeEvent): Promise<void> | void {
    const limit = this.cfg.limit ?? 0;
    if (limit > 0 && this.logs.length >= limit) return;
    const log: StructLog = { pc: e.pc, op: e.opName, gas: Number(e.gas), gasCost: Number(e.cost), depth: e.depth };
    if (!this.cfg.disableStack) log.stack = e.stack.map(quantity);
    if (this.cfg.enableReturnData && e.returnData.length > 0) log.returnData = bytesHex(e.returnData);
    if (this.cfg.enableMemory && e.memory.length > 0) log.memory = memoryWords(e.memory);
    if (e.refund > 0n) log.refund = Number(e.refund);
    this.lastLogAt[e.depth] = this.logs.length;
    this.logs.push(log);
    if (this.cfg.disableStorage || (e.op !== SLOAD && e.op !== SSTORE)) return;
    const n = e.stack.length;
    if (e.op === SSTORE && n >= 2) {
      this.record(log, e.address, e.stack[n - 1]!, wordNoPrefix(e.stack[n - 2]!));
    } else if (e.op === SLOAD && n >= 1) {
      const slot = e.stack[n - 1]!;
      return e.state.getStorage(e.address, bigIntToWord(slot)).then((v) => this.record(log, e.address, slot, wordNoPrefix(wordToBigInt(v))));
    }
  }

  onEnter(e: EnterEvent): void {
    // The new frame has logged nothing yet (a sibling's logs at this depth are not its own).
    this.lastLogAt[e.depth + 1] = undefined;
    // geth charges the gas a call forwards (without the stipend) to the CALL opcode itself.
    if (e.depth === 0 || !CALL_TYPES.has(e.type)) return;
    const i = this.lastLogAt[e.depth];
    const log = i === undefined ? undefined : this.logs[i];
    if (log === undefined || i !== this.logs.length - 1) return;
    const stipend = (e.type === 'CALL' || e.type === 'CALLCODE') && (e.value ?? 0n) > 0n ? CALL_STIPEND : 0n;
    log.gasCost += Number(e.gas - stipend);
  }

  onExit(e: ExitEvent): void {
    if (e.error === undefined || e.error === 'execution reverted') return;
    // The halting opcode is the last one logged at the exiting frame's opcode depth.
    const i = this.lastLogAt[e.depth + 1];
    const log = i === undefined ? undefined : this.logs[i];
    if (log !== undefined && log.error === undefined) log.error = e.error;
  }

  onTxEnd(e: TxEndEvent): void {
    this.gasUsed = e.gasUsed;
    this.output = e.output;
    this.error = e.error;
  }

  result(): StructLoggerResult {
    const failed = this.error !== undefined;
    // Return data on success and on revert (the revert reason); nothing for other failures.
    const returnValue = failed && this.error !== 'execution reverted' ? '0x' : bytesHex(this.output);
    return { gas: Number(this.gasUsed), failed, returnValue, structLogs: this.logs };
  }

  private record(log: StructLog, address: Address, slot: bigint, value: string): void {
    const key = address.toString();
    let slots = this.storage.get(key);
    if (slots === undefined) this.storage.set(key, (slots = new Map()));
    slots.set(wordNoPrefix(slot), value);
    log.storage = Object.fromEntries(slots);
  }
}

function memoryWords(memory: Uint8Array): string[] {
  const hex = Buffer.from(memory.buffer, memory.byteOffset, memory.byteLength).toString('hex');
  const words: string[] = [];
  for (let i = 0; i + 64 <= hex.length; i += 64) words.push(hex.slice(i, i + 64));
  return words;
}
