/**
 * debug_traceTransaction and debug_traceBlockBy*: a committed block run again on its parent state
 * through the block's own execution (execute-block.ts: Cosmos txs through runCosmosTx, EVM txs as
 * FinalizeBlock ran them, the ICS-20 precompile with its IBC context), a tracer on the traced EVM
 * txs only. The parent state is an overlay over the memoised reader calls use (src/app/evm).
 *
 *   OverlayState(readerAt(height - 1)) ─ trace VM (the block VM's precompiles)
 *     ─ executeBlock(every tx of the block) ─ traced EVM tx: runTraced(tracer)
 *
 * A tracer that fails inside a tx (a timeout) gives that tx `error`; the replay then starts again
 * with that tx run untraced, so the txs after it are traced on the state the block had.
 */
import type { TypedTransaction } from '@ethereumjs/tx';
import type { RunTxResult } from '@ethereumjs/vm';
import { sharedTxCommon } from '../chain-common.js';
import { TxRejectedError } from '../errors.js';
import type { ExecutionSource } from '../evm/offchain.js';
import type { EvmBlock, EvmView } from '../views/evm-view.js';
import { executeBlock, type BlockReplayHooks, type BlockTx } from '../execution/execute-block.js';
import { impersonatedSender } from '../execution/impersonation.js';
import { decodeAppTx } from '../execution/tx-decode.js';
import { createTracer, traceTimeoutMs } from './create-tracer.js';
import { BlockNotFoundError, GenesisNotTraceableError, TraceError, TxNotFoundError } from './errors.js';
import { bytesHex } from './json.js';
import { createTraceVm, runTraced } from './trace-vm.js';
import type { BlockTraceEntry, TraceConfig, Tracer } from './types.js';

/** One EVM tx to trace, by its Ethereum hash (0x hex), and what its trace gave. */
interface TracedTx {
  tracer: Tracer;
  done: boolean;
  result?: unknown;
  error?: string;
  /** What `error` was thrown as. */
  failure?: unknown;
}

export async function traceTransaction(src: ExecutionSource, ethHash: Uint8Array, config: TraceConfig = {}): Promise<unknown> {
  const view = src.view;
  const tracer = createTracer(config);
  const loc = await view.getTransaction(ethHash);
  if (loc === undefined) throw new TxNotFoundError(bytesHex(ethHash));
  const block = await view.getBlock(loc.height);
  if (block === undefined) throw new BlockNotFoundError(loc.height);
  const hash = bytesHex(ethHash);
  const traced = new Map([[hash, { tracer, done: false } as TracedTx]]);
  await replayBlock(src, block, traced, traceTimeoutMs(config), hash);
  const t = traced.get(hash)!;
  if (t.error !== undefined) throw t.failure instanceof TraceError ? t.failure : new TraceError(t.error);
  if (!t.done) throw new TraceError(`transaction ${hash} did not run in the replay of block ${block.number}`);
  return t.result;
}

/** Traces every EVM tx of a block (by height or CometBFT hash); a tx that fails to trace gets `error`. */
export async function traceBlock(src: ExecutionSource, ref: number | Uint8Array, config: TraceConfig = {}): Promise<BlockTraceEntry[]> {
  const view = src.view;
  createTracer(config); // refuse a bad config before any work
  const block = typeof ref === 'number' ? await blockByNumber(view, ref) : await view.getBlockByHash(ref);
  if (block === undefined) throw new BlockNotFoundError(typeof ref === 'number' ? ref : bytesHex(ref));
  const hashes = block.txHashes.map(bytesHex);
  if (hashes.length === 0) return [];
  const traced = new Map(hashes.map((h) => [h, { tracer: createTracer(config), done: false } as TracedTx]));
  await replayBlock(src, block, traced, traceTimeoutMs(config));
  return hashes.map((txHash) => {
    const t = traced.get(txHash)!;
    if (t.error !== undefined) return { txHash, error: t.error };
    if (!t.done) return { txHash, error: 'the transaction did not run in the replay of its block' };
    return { txHash, result: t.result };
  });
}

/** Runs `block` again, tracing the txs of `traced`; stops after the tx `stopAfter` (0x eth hash). */
async function replayBlock(src: ExecutionSource, block: EvmBlock, traced: Map<string, TracedTx>, timeoutMs: number, stopAfter?: string): Promise<void> {
  const view = src.view;
  if (view.blockReplay === undefined) throw new TraceError('this node cannot replay blocks');
  const recorded = await view.getTransactionsOfBlock(block.number);
  const env = {
    height: block.number,
    hash: block.hash,
    timestamp: block.timestamp,
    coinbase: block.coinbase,
    gasLimit: block.gasLimit,
    baseFee: block.baseFeePerGas,
  };
  for (;;) {
    // Each pass on fresh copies: an overlay of the parent state, the auth registry and the IBC store.
    const replay = await view.blockReplay(block.number);
    const txs = blockTxs(view, replay.txs, recorded);
    const stop = stopAfter === undefined ? -1 : txs.findIndex((t) => 'kind' in t && t.kind === 'eth' && bytesHex(t.ethHash) === stopAfter);
    const { vm, ics20 } = await createTraceVm(src, block.number - 1);
    let aborted = false;
    const hooks: BlockReplayHooks = {
      lastIndex: stop < 0 ? undefined : stop,
      runEvmTx: (index, item, tx, sender, header, blockGasUsed) => {
        const t = traced.get(bytesHex(item.ethHash));
        if (t === undefined || t.done) return undefined;
        return (async (): Promise<RunTxResult> => {
          let applied: RunTxResult | undefined;
          try {
            await runTraced(vm, tx, sender, header, t.tracer, { blockGasUsed, timeoutMs, applied: (r) => (applied = r) });
            t.result = t.tracer.result();
            return applied!;
          } catch (e) {
            t.error = e instanceof Error ? e.message : String(e);
            t.failure = e;
            if (applied !== undefined) return applied; // the tx ran; only the tracer's last hooks failed
            // Stopped inside the tx: the VM may be left mid-tx. End this pass; the next runs it untraced.
            aborted = true;
            hooks.lastIndex = index;
            throw e;
          } finally {
            t.done = true;
          }
        })();
      },
    };
    await executeBlock(vm, vm.common, env, txs, replay.cosmos, ics20, true, hooks);
    if (!aborted) return;
  }
}

/**
 * The block's txs as FinalizeBlock decoded them: every committed tx when the view has the block
 * (Cosmos txs too), else the EVM txs of the record. EVM txs take the sender the block recorded
 * (an impersonated tx has no signature to recover it from).
 */
function blockTxs(view: EvmView, raw: readonly Uint8Array[] | undefined, recorded: Awaited<ReturnType<EvmView['getTransactionsOfBlock']>>): BlockTx[] {
  const senders = new Map(recorded.map((r) => [bytesHex(r.tx.hash()), r.sender]));
  const common = sharedTxCommon(view.common);
  const cosmosPrefix = raw === undefined ? undefined : view.bech32Prefix;
  return (raw ?? recorded.map((r) => r.tx.serialize())).map((bytes): BlockTx => {
    try {
      const d = decodeAppTx(bytes, common, undefined, undefined, cosmosPrefix);
      if (d.kind !== 'eth') return d;
      const sender = senders.get(bytesHex(d.ethHash));
      if (sender === undefined) return d;
      const tx: TypedTransaction = impersonatedSender(d.tx)?.equals(sender)
        ? Object.create(d.tx, { getSenderAddress: { value: () => sender }, isSigned: { value: () => true }, verifySignature: { value: () => true } })
        : d.tx;
      return { ...d, tx, sender, senderHex: sender.toString() };
    } catch (e) {
      if (e instanceof TxRejectedError) return e;
      throw e;
    }
  });
}

async function blockByNumber(view: EvmView, height: number): Promise<EvmBlock | undefined> {
  if (height === 0) throw new GenesisNotTraceableError();
  return view.getBlock(height);
}
