/**
 * The execution side of tracing: a VM of its own (built as the block VM is, with the chain's
 * precompiles) over an overlay of the state, the same OverlayState over the same memoised reader
 * eth_call runs on (src/app/evm), the block environment a tx ran in (the same header fields
 * `execute-block.ts` gives `runTx`), and one traced `runTx`.
 *
 * Each trace VM is built on a copy of the chain's Common: an EVM subscribes to its Common's
 * events, and a copy keeps those listeners off the shared one (they go away with the VM).
 */
import { createBlock, type Block } from '@ethereumjs/block';
import type { EVM } from '@ethereumjs/evm';
import type { TypedTransaction } from '@ethereumjs/tx';
import { Address, createContractAddress } from '@ethereumjs/util';
import { runTx, type RunTxResult, type VM } from '@ethereumjs/vm';
import type { Ics20Context } from '../../ibc/ics20-precompile.js';
import { ViewBlockHashes } from '../evm/block-hashes.js';
import { createChainVm } from '../evm/factory.js';
import type { ExecutionSource } from '../evm/offchain.js';
import { OverlayState } from '../evm/overlay-state.js';
import type { EvmBlock, EvmView } from '../views/evm-view.js';
import { UNLIMITED_BLOCK_GAS } from '../execution/fee-market.js';
import { TracerBinding } from './attach-tracer.js';
import type { Tracer } from './types.js';
import { gethErrorText } from '../evm/vm-errors.js';

const ZERO32 = new Uint8Array(32);

export interface TraceVm {
  vm: VM;
  /** The ICS-20 precompile's world for the tx that runs (set per tx, as in the block VM). */
  ics20: { ctx: Ics20Context | undefined };
}

/**
 * A VM as the block VM is built (app/evm/factory.ts `createChainVm`: the chain's precompiles) on a
 * fresh overlay of the state after block `height`: writes stay in the overlay, reads go through the
 * source's memoised reader of that height, which calls share.
 */
export async function createTraceVm(src: ExecutionSource, height: number): Promise<TraceVm> {
  const state = new OverlayState(await src.readerAt(height));
  const ics20: TraceVm['ics20'] = { ctx: undefined };
  // ethereumjs's own interpreter loop (no speedUpEvm): the tracers listen to its step events.
  const vm = await createChainVm(src.view.common.copy(), state, new ViewBlockHashes(src.view), ics20);
  return { vm, ics20 };
}

export interface BlockEnvFields {
  number: bigint;
  timestamp: bigint;
  coinbase: Address;
  gasLimit: bigint;
  baseFeePerGas: bigint;
}

/** The header fields of a stored block, as its txs saw them. */
export function envOfBlock(b: EvmBlock): BlockEnvFields {
  return { number: BigInt(b.number), timestamp: b.timestamp, coinbase: b.coinbase, gasLimit: b.gasLimit, baseFeePerGas: b.baseFeePerGas };
}

/** Before the first block: an environment like the next block's. */
export function envBeforeFirstBlock(view: EvmView): BlockEnvFields {
  return {
    number: 0n,
    timestamp: BigInt(Math.floor(Date.now() / 1000)),
    coinbase: new Address(new Uint8Array(20)),
    gasLimit: UNLIMITED_BLOCK_GAS,
    baseFeePerGas: view.nextBaseFee(),
  };
}

export function blockOf(vm: VM, env: BlockEnvFields): Block {
  return createBlock({ header: { ...env, mixHash: ZERO32 } }, { common: vm.common, skipConsensusFormatValidation: true });
}

export interface RunOpts {
  blockGasUsed: bigint;
  timeoutMs: number;
  /** traceCall: no nonce check, no block gas limit check (geth's message semantics). */
  asCall?: boolean;
  /** Told the tx's result once runTx has applied it, before the tracer's last hooks (which may still fail). */
  applied?(run: RunTxResult): void;
}

/** Runs one tx with `tracer` attached; the tracer sees the state before and after it. */
export async function runTraced(vm: VM, tx: TypedTransaction, from: Address, block: Block, tracer: Tracer, opts: RunOpts): Promise<RunTxResult> {
  const evm = vm.evm as EVM;
  const isCreate = tx.to === undefined;
  const to = tx.to ?? createContractAddress(from, tx.nonce);
  await tracer.onTxStart?.({
    from,
    to,
    isCreate,
    coinbase: block.header.coinbase,
    gasLimit: tx.gasLimit,
    value: tx.value,
    input: tx.data,
    state: vm.stateManager,
  });
  const binding = new TracerBinding(evm, tracer, { createdAddress: isCreate ? to : undefined, timeoutMs: opts.timeoutMs });
  let run: RunTxResult;
  try {
    run = await runTx(vm, {
      tx,
      block,
      blockGasUsed: opts.blockGasUsed,
      skipHardForkValidation: true,
      skipNonce: opts.asCall === true,
      skipBlockGasLimitValidation: opts.asCall === true,
    });
    opts.applied?.(run);
    binding.check();
  } finally {
    binding.detach();
  }
  const err = run.execResult.exceptionError;
  await tracer.onTxEnd?.({
    gasUsed: run.totalGasSpent,
    output: run.execResult.returnValue,
    error: err === undefined ? undefined : (binding.topError ?? gethErrorText(err)),
    state: vm.stateManager,
  });
  return run;
}
