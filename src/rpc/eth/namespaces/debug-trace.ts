/**
 * Handlers of geth's tracing API (debug_traceTransaction, debug_traceCall,
 * debug_traceBlockByNumber, debug_traceBlockByHash) over src/app/trace, on the state eth_call
 * reads (the calls' off-chain executor: its memoised readers under an overlay). Not gated by
 * `enable-profiling` (as in Cosmos EVM), only by the `debug` namespace being enabled.
 * Tracing errors answer -32000 with geth's text.
 */
import { HeightNotAvailableError } from '../../../sdk/errors.js';
import {
  TraceCallRejectedError,
  TraceError,
  traceBlock,
  traceCall,
  traceTransaction,
  type BlockTraceEntry,
  type TraceConfig,
} from '../../../app/trace/index.js';
import { LATEST, type BlockRef } from '../block-param.js';
import type { EthEnv } from '../env.js';
import { GethText, ServerError, gethTextForCheckTxLog } from '../errors.js';
import { stateHeight } from '../resolve.js';
import type { TxArgs } from '../tx-args.js';

/** Tracing failures → geth's -32000 errors; anything else is left to the dispatcher. */
async function traced<T>(run: () => Promise<T>, sender?: string): Promise<T> {
  try {
    return await run();
  } catch (e) {
    if (e instanceof TraceCallRejectedError) throw new ServerError(gethTextForCheckTxLog(e.rejection.log, { sender }));
    if (e instanceof TraceError) throw new ServerError(e.message);
    if (e instanceof HeightNotAvailableError) throw new ServerError(GethText.headerNotFound);
    throw e;
  }
}

/** Handler for `debug_traceTransaction`. */
export function traceTransactionHandler(env: EthEnv, [hash, config]: [Uint8Array, TraceConfig | undefined]): Promise<unknown> {
  return traced(() => traceTransaction(env.calls.executor, hash, config));
}

/** Handler for `debug_traceCall`: the call on the state after the named block, in that block's env. */
export async function traceCallHandler(env: EthEnv, [args, block, config]: [TxArgs, BlockRef, TraceConfig | undefined]): Promise<unknown> {
  const height = await stateHeight(env, block ?? LATEST);
  const callArgs = {
    from: args.from,
    to: args.to,
    gas: args.gas,
    gasPrice: args.gasPrice,
    maxFeePerGas: args.maxFeePerGas,
    maxPriorityFeePerGas: args.maxPriorityFeePerGas,
    value: args.value,
    data: args.input,
    accessList: args.accessList,
    nonce: args.nonce,
  };
  return traced(() => traceCall(env.calls.executor, callArgs, height, { ...config, gasCap: env.config.gasCap }), args.from?.toString());
}

/** Handler for `debug_traceBlockByNumber`: tags resolve as eth_getBlockByNumber does. */
export function traceBlockByNumberHandler(env: EthEnv, [block, config]: [BlockRef, TraceConfig | undefined]): Promise<BlockTraceEntry[]> {
  let height: number;
  if (block.kind === 'tag') height = block.tag === 'earliest' ? 0 : env.view.latestHeight();
  else if (block.kind === 'number') height = block.number;
  else return traced(() => traceBlock(env.calls.executor, block.hash, config));
  return traced(() => traceBlock(env.calls.executor, height, config));
}

/** Handler for `debug_traceBlockByHash`. */
export function traceBlockByHashHandler(env: EthEnv, [hash, config]: [Uint8Array, TraceConfig | undefined]): Promise<BlockTraceEntry[]> {
  return traced(() => traceBlock(env.calls.executor, hash, config));
}
