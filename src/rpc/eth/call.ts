/**
 * eth_call and eth_createAccessList: one execution (or geth's access-list loop) on a private
 * overlay of the state at the requested block, with optional state overrides. A revert answers
 * code 3 with the revert bytes as `data`; a halt answers -32000 with geth's vm error text.
 */
import type { StateOverrides } from '../../app/evm/overrides.js';
import type { MessageResult } from '../../app/evm/run-message.js';
import { LATEST, type BlockRef } from './block-param.js';
import type { EthEnv } from './env.js';
import { ExecutionRevertedError, ServerError } from './errors.js';
import { data, quantity } from './hex.js';
import { executionPoint } from './resolve.js';
import { decodeRevertReason } from './revert-reason.js';
import type { TxArgs } from './tx-args.js';

/** Handler for `eth_call`. */
export async function call(env: EthEnv, [args, block, overrides]: [TxArgs, BlockRef | undefined, StateOverrides | undefined]): Promise<string> {
  const at = await executionPoint(env, block ?? LATEST);
  return returnDataOrThrow(await env.calls.call(args, at, overrides));
}

/** eth_call's answer: the return data, or geth's error for a revert or a halt. */
function returnDataOrThrow(r: MessageResult): string {
  if (r.status === 'success') return data(r.returnValue);
  if (r.status === 'revert') throw new ExecutionRevertedError(data(r.returnValue), decodeRevertReason(r.returnValue));
  throw new ServerError(r.error ?? 'execution failed');
}

/** Handler for `eth_createAccessList`. */
export async function createAccessList(env: EthEnv, [args, block]: [TxArgs, BlockRef | undefined]): Promise<Record<string, unknown>> {
  const at = await executionPoint(env, block ?? LATEST);
  const r = await env.calls.createAccessList(args, at);
  return {
    accessList: r.accessList.map((e) => ({ address: data(e.address), storageKeys: e.storageKeys.map(data) })),
    gasUsed: quantity(r.gasUsed),
    ...(r.error ? { error: r.error } : {}),
  };
}
