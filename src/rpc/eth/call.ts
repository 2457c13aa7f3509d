/**
 * eth_call and eth_createAccessList: one execution (or geth's access-list loop) on a private
 * overlay of the state at the requested block, with optional state overrides. A revert answers
 * code 3 with the revert bytes as `data`; a halt answers -32000 with geth's vm error text.
 */
import { LATEST, type BlockRef } from './block-param.js';
import { CallService } from './call-service.js';
import type { EthEnv } from './env.js';
import type { StateOverrides } from './exec/overrides.js';
import { data, quantity } from './hex.js';
import { executionPoint } from './resolve.js';
import type { TxArgs } from './tx-args.js';

/** Handler for `eth_call`. */
export async function call(env: EthEnv, [args, block, overrides]: [TxArgs, BlockRef | undefined, StateOverrides | undefined]): Promise<string> {
  const at = await executionPoint(env, block ?? LATEST);
  return CallService.returnDataOrThrow(await env.calls.call(args, at, overrides));
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
