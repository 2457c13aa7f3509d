/**
 * debug_traceCall: a call traced as if it were a tx of the block it names, on the state after
 * that block (an overlay over eth_call's memoised reader of it), with geth's message semantics: no signature, no nonce check, gas price 0 when no
 * fee field is given (then the block's base fee is not charged either: geth's NoBaseFee).
 *
 * The call runs through `runTx` as an unsigned tx whose sender is `from`, so it pays, warms and
 * refunds exactly as a tx of that block would, and the tracers see the same events.
 */
import { createAccessList2930Tx, createFeeMarket1559Tx, createLegacyTx, type TypedTransaction } from '@ethereumjs/tx';
import { Address } from '@ethereumjs/util';
import { isIcs20Precompile } from '../../ibc/ics20-precompile.js';
import { TxRejectedError } from '../errors.js';
import type { ExecutionSource } from '../evm/offchain.js';
import type { EvmView } from '../views/evm-view.js';
import { rejectionFromRunTxError } from '../execution/tx-rejections.js';
import { createTracer, traceTimeoutMs } from './create-tracer.js';
import { TraceCallRejectedError } from './errors.js';
import { blockOf, createTraceVm, envBeforeFirstBlock, envOfBlock, runTraced, type BlockEnvFields } from './trace-vm.js';
import type { TraceConfig } from './types.js';

export interface TraceCallArgs {
  from?: Address;
  /** undefined: contract creation. */
  to?: Address;
  gas?: bigint;
  gasPrice?: bigint;
  maxFeePerGas?: bigint;
  maxPriorityFeePerGas?: bigint;
  value?: bigint;
  data?: Uint8Array;
  accessList?: { address: Uint8Array; storageKeys: Uint8Array[] }[];
  nonce?: bigint;
}

export interface TraceCallOptions extends TraceConfig {
  /** `gas-cap` of [json-rpc] (0: no cap); also the gas of a call that names none. */
  gasCap?: bigint;
}

const ZERO_ADDRESS = new Address(new Uint8Array(20));

/** Traces `args` on the state after block `height` (0: genesis state), read as eth_call reads it (`src`). */
export async function traceCall(src: ExecutionSource, args: TraceCallArgs, height: number, config: TraceCallOptions = {}): Promise<unknown> {
  const view = src.view;
  const tracer = createTracer(config);
  const timeoutMs = traceTimeoutMs(config);
  const stored = height > 0 ? await view.getBlock(height) : undefined;
  const env: BlockEnvFields = stored !== undefined ? envOfBlock(stored) : envBeforeFirstBlock(view);
  const { vm, ics20 } = await createTraceVm(src, height);

  const from = args.from ?? ZERO_ADDRESS;
  const nonce = args.nonce ?? (await vm.stateManager.getAccount(from))?.nonce ?? 0n;
  const cap = config.gasCap ?? 0n;
  let gas = args.gas ?? (cap > 0n ? cap : env.gasLimit);
  if (cap > 0n && gas > cap) gas = cap;
  const free = (args.gasPrice ?? 0n) === 0n && (args.maxFeePerGas ?? 0n) === 0n && (args.maxPriorityFeePerGas ?? 0n) === 0n;
  if (free) env.baseFeePerGas = 0n;
  const tx = unsignedTx(view, args, from, nonce, gas);
  const block = blockOf(vm, env);
  // The ICS-20 precompile's world as eth_call gives it: a copy of the committed IBC store.
  const world = view.ibcCallContext?.();
  ics20.ctx = world && { ...world, caller: isIcs20Precompile(args.to?.bytes) ? from.bytes : undefined, value: args.value ?? 0n, events: [] };
  try {
    await runTraced(vm, tx, from, block, tracer, { blockGasUsed: 0n, timeoutMs, asCall: true });
  } catch (e) {
    if (isRunTxValidationError(e)) throw new TraceCallRejectedError(rejectionFromRunTxError(e));
    throw e;
  }
  return tracer.result();
}

/** The call as an ethereumjs tx that reports `from` as its sender without a signature. */
function unsignedTx(view: EvmView, a: TraceCallArgs, from: Address, nonce: bigint, gasLimit: bigint): TypedTransaction {
  const opts = { common: view.common, freeze: false };
  const base = { nonce, gasLimit, to: a.to, value: a.value ?? 0n, data: a.data ?? new Uint8Array(0) };
  const accessList = a.accessList?.map((e): [Uint8Array, Uint8Array[]] => [e.address, e.storageKeys]);
  let tx: TypedTransaction;
  if (a.maxFeePerGas !== undefined || a.maxPriorityFeePerGas !== undefined) {
    const tip = a.maxPriorityFeePerGas ?? 0n;
    tx = createFeeMarket1559Tx({ ...base, maxFeePerGas: a.maxFeePerGas ?? tip, maxPriorityFeePerGas: tip, accessList, chainId: view.chainId }, opts);
  } else if (accessList !== undefined) {
    tx = createAccessList2930Tx({ ...base, gasPrice: a.gasPrice ?? 0n, accessList, chainId: view.chainId }, opts);
  } else {
    tx = createLegacyTx({ ...base, gasPrice: a.gasPrice ?? 0n }, opts);
  }
  tx.getSenderAddress = () => from;
  return tx;
}

/** runTx refused the message before running it (nonce, funds, gas, fee), rather than failing inside. */
function isRunTxValidationError(e: unknown): boolean {
  if (e instanceof TxRejectedError) return true;
  if (!(e instanceof Error)) return false;
  return /upfront cost|max cost|lower than the minimum gas limit|baseFeePerGas|not EOA|nonce/.test(e.message);
}
