/**
 * debug_traceTransaction and debug_traceBlockBy*: replay a block on its parent state.
 *
 *   stateAt(height - 1) ─ VM of its own ─ block env of `height`
 *     └ txs before the target: runTx untraced ─ target: runTx with the tracer ─ tracer.result()
 *
 * Only the block's executed txs are replayed: a tx refused at validation changed nothing.
 */
import type { TypedTransaction } from '@ethereumjs/tx';
import type { Address } from '@ethereumjs/util';
import type { VM } from '@ethereumjs/vm';
import type { Block } from '@ethereumjs/block';
import type { EvmBlock, EvmView } from '../evm-view.js';
import { createTracer, traceTimeoutMs } from './create-tracer.js';
import { BlockNotFoundError, GenesisNotTraceableError, TxNotFoundError } from './errors.js';
import { bytesHex } from './json.js';
import { blockOf, createTraceVm, envOfBlock, replayTx, runTraced } from './trace-vm.js';
import type { BlockTraceEntry, TraceConfig } from './types.js';

interface BlockTx {
  tx: TypedTransaction;
  sender: Address;
}

/** A VM on the parent state of `block`, with its txs before `upTo` already applied. */
async function replayed(view: EvmView, block: EvmBlock, txs: readonly BlockTx[], upTo: number): Promise<{ vm: VM; env: Block; gasUsed: bigint }> {
  const vm = await createTraceVm(view, await view.stateAt(block.number - 1));
  const env = blockOf(vm, envOfBlock(block));
  let gasUsed = 0n;
  for (let i = 0; i < upTo; i++) gasUsed += (await replayTx(vm, txs[i]!.tx, env, gasUsed)).totalGasSpent;
  return { vm, env, gasUsed };
}

export async function traceTransaction(view: EvmView, ethHash: Uint8Array, config: TraceConfig = {}): Promise<unknown> {
  const tracer = createTracer(config);
  const timeoutMs = traceTimeoutMs(config);
  const loc = await view.getTransaction(ethHash);
  if (loc === undefined) throw new TxNotFoundError(bytesHex(ethHash));
  const block = await view.getBlock(loc.height);
  if (block === undefined) throw new BlockNotFoundError(loc.height);
  const txs = await view.getTransactionsOfBlock(loc.height);
  const { vm, env, gasUsed } = await replayed(view, block, txs, loc.index);
  await runTraced(vm, loc.tx, loc.sender, env, tracer, { blockGasUsed: gasUsed, timeoutMs });
  return tracer.result();
}

/** Traces every tx of a block (by height or CometBFT hash); a tx that fails to trace gets `error`. */
export async function traceBlock(view: EvmView, ref: number | Uint8Array, config: TraceConfig = {}): Promise<BlockTraceEntry[]> {
  createTracer(config); // refuse a bad config before any work
  const timeoutMs = traceTimeoutMs(config);
  const block = typeof ref === 'number' ? await blockByNumber(view, ref) : await view.getBlockByHash(ref);
  if (block === undefined) throw new BlockNotFoundError(typeof ref === 'number' ? ref : bytesHex(ref));
  const txs = await view.getTransactionsOfBlock(block.number);
  const out: BlockTraceEntry[] = [];
  let { vm, env, gasUsed } = await replayed(view, block, txs, 0);
  for (let i = 0; i < txs.length; i++) {
    const { tx, sender } = txs[i]!;
    const txHash = bytesHex(block.txHashes[i]!);
    const tracer = createTracer(config);
    try {
      const run = await runTraced(vm, tx, sender, env, tracer, { blockGasUsed: gasUsed, timeoutMs });
      gasUsed += run.totalGasSpent;
      out.push({ txHash, result: tracer.result() });
    } catch (e) {
      out.push({ txHash, error: e instanceof Error ? e.message : String(e) });
      // An aborted run leaves the VM mid-tx: start again from the parent state, this tx applied.
      ({ vm, env, gasUsed } = await replayed(view, block, txs, i + 1));
    }
  }
  return out;
}

async function blockByNumber(view: EvmView, height: number): Promise<EvmBlock | undefined> {
  if (height === 0) throw new GenesisNotTraceableError();
  return view.getBlock(height);
}
