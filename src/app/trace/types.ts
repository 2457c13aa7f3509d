/**
 * Shapes shared by the tracers: geth's TraceConfig, the tracing hooks a tracer implements (the
 * geth `core/tracing.Hooks` subset the built-in tracers use), and the JSON results they return.
 *
 * Depths follow geth: `onEnter`/`onExit` see 0 for the tx's top call, `onOpcode` sees 1 for the
 * opcodes of that call (the EVM's depth after entering it).
 */
import type { StateManagerInterface } from '@ethereumjs/common';
import type { Account, Address } from '@ethereumjs/util';

/** geth's TraceConfig (eth/tracers/api.go) with the struct-logger options flattened in. */
export interface TraceConfig {
  /** undefined: the struct logger; else `callTracer` or `prestateTracer`. */
  tracer?: string;
  /** Options of the named tracer (geth passes them as raw JSON). */
  tracerConfig?: Record<string, unknown>;
  /** Go duration ("5s", "300ms"); geth's default is 5s. */
  timeout?: string;
  disableStack?: boolean;
  disableStorage?: boolean;
  enableMemory?: boolean;
  enableReturnData?: boolean;
  /** Maximum number of struct logs (0: no limit). */
  limit?: number;
}

export type CallType = 'CALL' | 'CALLCODE' | 'DELEGATECALL' | 'STATICCALL' | 'CREATE' | 'CREATE2';

export interface TxStartEvent {
  from: Address;
  /** The callee, or the address a contract creation deploys to. */
  to: Address;
  isCreate: boolean;
  coinbase: Address;
  gasLimit: bigint;
  value: bigint;
  input: Uint8Array;
  /** The state before the tx (nothing of it paid or bumped yet). */
  state: StateManagerInterface;
}

export interface EnterEvent {
  depth: number;
  type: CallType;
  from: Address;
  to: Address;
  input: Uint8Array;
  gas: bigint;
  /** undefined for STATICCALL (geth passes nil). */
  value: bigint | undefined;
}

export interface ExitEvent {
  depth: number;
  output: Uint8Array;
  gasUsed: bigint;
  /** geth's error text; undefined on success. */
  error: string | undefined;
  reverted: boolean;
}

export interface OpcodeEvent {
  pc: number;
  op: number;
  opName: string;
  /** Gas left before the opcode. */
  gas: bigint;
  /** What the opcode costs (static + dynamic). */
  cost: bigint;
  depth: number;
  /** Bottom first, as geth's StackData. */
  stack: readonly bigint[];
  memory: Uint8Array;
  /** Return data of the last call this frame made. */
  returnData: Uint8Array;
  refund: bigint;
  /** The address whose storage the frame runs on. */
  address: Address;
  /** The executing account (its nonce is the next CREATE nonce). */
  contract: Account;
  state: StateManagerInterface;
}

export interface LogEvent {
  /** The depth of the frame that emitted it (geth's OnEnter convention). */
  depth: number;
  address: Address;
  topics: Uint8Array[];
  data: Uint8Array;
}

export interface TxEndEvent {
  /** Gas the tx was charged (the receipt's gasUsed). */
  gasUsed: bigint;
  output: Uint8Array;
  /** geth's error text of the top call; undefined on success. */
  error: string | undefined;
  /** The state after the tx. */
  state: StateManagerInterface;
}

/** A tracer: geth-style hooks, then one JSON result. Async hooks are awaited by the EVM. */
export interface Tracer {
  onTxStart?(e: TxStartEvent): Promise<void> | void;
  onEnter?(e: EnterEvent): void;
  onExit?(e: ExitEvent): void;
  onOpcode?(e: OpcodeEvent): Promise<void> | void;
  onLog?(e: LogEvent): void;
  onTxEnd?(e: TxEndEvent): Promise<void> | void;
  /** The JSON value the RPC returns. */
  result(): unknown;
}

// ── results (JSON, as geth encodes them) ────────────────────────────────────────────────────

export interface StructLog {
  pc: number;
  op: string;
  gas: number;
  gasCost: number;
  depth: number;
  error?: string;
  stack?: string[];
  returnData?: string;
  /** 32-byte words, hex without 0x. */
  memory?: string[];
  /** Slot → value, 64 hex digits without 0x. */
  storage?: Record<string, string>;
  refund?: number;
}

export interface StructLoggerResult {
  gas: number;
  failed: boolean;
  returnValue: string;
  structLogs: StructLog[];
}

export interface CallLog {
  address: string;
  topics: string[];
  data: string;
  position: string;
}

export interface CallFrame {
  from: string;
  gas: string;
  gasUsed: string;
  to?: string;
  input: string;
  output?: string;
  error?: string;
  revertReason?: string;
  calls?: CallFrame[];
  logs?: CallLog[];
  value?: string;
  type: CallType;
}

export interface PrestateAccount {
  balance?: string;
  code?: string;
  codeHash?: string;
  nonce?: number;
  storage?: Record<string, string>;
}

export type PrestateResult = Record<string, PrestateAccount> | { post: Record<string, PrestateAccount>; pre: Record<string, PrestateAccount> };

/** One entry of debug_traceBlockBy*: the tx's trace, or why it could not be traced. */
export interface BlockTraceEntry {
  txHash: string;
  result?: unknown;
  error?: string;
}
