/**
 * eth_estimateGas: the exact least gas limit at which the tx succeeds, in two EVM executions for
 * ordinary txs (src/app/evm/estimate.ts explains how), on a private overlay of the requested state.
 */
import { PENDING, type BlockRef } from './block-param.js';
import type { EthEnv } from './env.js';
import type { StateOverrides } from '../../app/evm/overrides.js';
import { quantity } from './hex.js';
import { executionPoint } from './resolve.js';
import type { TxArgs } from './tx-args.js';

/** Handler for `eth_estimateGas`. */
export async function estimateGas(env: EthEnv, [args, block, overrides]: [TxArgs, BlockRef | undefined, StateOverrides | undefined]): Promise<string> {
  // Without a block the estimate is for the next block, as Hardhat and Anvil answer.
  const at = await executionPoint(env, block ?? PENDING);
  return quantity((await env.calls.estimate(args, at, overrides)).gas);
}
