/**
 * The one place that builds a VM or an EVM of the chain (`test/core/layers.test.ts` checks it): each
 * gets the chain's Common and precompiles, ICS-20 at 0x…0802 included, and a BLOCKHASH source
 * (block-hashes.ts). The block VM (execution/evm-runtime.ts) and the trace VMs (src/app/trace) are
 * `createChainVm`; the pooled call EVMs (call-executor.ts: eth_call, estimation, eth_simulateV1,
 * the routing API's ERC-20 reads) are `createChainEvm`, with their hooks (evm-hooks.ts) installed
 * by the executor.
 */
import type { Common, StateManagerInterface } from '@ethereumjs/common';
import { createEVM, type EVM, type EVMMockBlockchainInterface, type EVMOpts } from '@ethereumjs/evm';
import { createVM, type VM } from '@ethereumjs/vm';
import { ICS20_PRECOMPILE_ADDRESS, ics20Precompile, type Ics20Context } from '../../ibc/ics20-precompile.js';
import { POINT_EVALUATION_ADDRESS, pointEvaluationWithoutKzg } from './point-evaluation.js';

/**
 * A VM that runs this chain's txs: its Common and the chain's precompiles (ICS-20, whose world is
 * `ics20.ctx`, set per tx by the block executor). The block VM and the trace VMs are built here, so
 * a replayed tx meets the same precompiles as the block did.
 */
export function createChainVm(
  common: Common,
  state: StateManagerInterface,
  blockchain: EVMMockBlockchainInterface,
  ics20: { ctx: Ics20Context | undefined },
): Promise<VM> {
  // params: {}: the chain Common already holds every package's parameters (chain-common.ts).
  return createVM({
    common,
    stateManager: state,
    blockchain,
    params: {},
    evmOpts: { params: {}, customPrecompiles: chainPrecompiles(common, () => ics20.ctx) },
  });
}

/**
 * A bare EVM with the chain's precompiles, for runs that set their state per execution (the call
 * EVMs, which install their own hooks): `ics20` gives the ICS-20 precompile's world for the
 * execution under way (undefined: the precompile fails).
 */
export function createChainEvm(common: Common, blockchain: EVMMockBlockchainInterface, ics20: () => Ics20Context | undefined): Promise<EVM> {
  return createEVM({ common, blockchain, params: {}, customPrecompiles: chainPrecompiles(common, ics20) });
}

function chainPrecompiles(common: Common, ics20: () => Ics20Context | undefined): NonNullable<EVMOpts['customPrecompiles']> {
  const list: NonNullable<EVMOpts['customPrecompiles']> = [{ address: ICS20_PRECOMPILE_ADDRESS, function: ics20Precompile(ics20) }];
  // Without a KZG library (none is configured) upstream's 0x…0a throws instead of failing the call.
  if (common.customCrypto.kzg === undefined) list.push({ address: POINT_EVALUATION_ADDRESS, function: pointEvaluationWithoutKzg });
  return list;
}
