/**
 * ERC20 reads for the balances endpoint: `balanceOf(holder)` and `decimals()` run through the EVM
 * as static calls on an independent copy of the latest state, so nothing reaches the chain.
 */
import type { Common } from '@ethereumjs/common';
import { createEVM } from '@ethereumjs/evm';
import type { MerkleStateManager } from '@ethereumjs/statemanager';
import { Address } from '@ethereumjs/util';
import { concatBytes } from '../../crypto/encoding.js';
import { DenomBalanceError } from './errors.js';

const BALANCE_OF = Uint8Array.from([0x70, 0xa0, 0x82, 0x31]);
const DECIMALS = Uint8Array.from([0x31, 0x3c, 0xe5, 0x67]);
/** Ample for any honest view function; bounds a hostile one. */
const CALL_GAS = 2_000_000n;

export interface Erc20Balance {
  balance: bigint;
  decimals: number;
}

function word(bytes: Uint8Array): bigint {
  let v = 0n;
  for (const b of bytes) v = (v << 8n) | BigInt(b);
  return v;
}

async function staticCall(common: Common, state: MerkleStateManager, to: Address, data: Uint8Array, denom: string, what: string): Promise<bigint> {
  const evm = await createEVM({ common, stateManager: state });
  const res = await evm.runCall({ to, data, gasLimit: CALL_GAS, isStatic: true });
  const err = res.execResult.exceptionError;
  if (err) throw new DenomBalanceError(denom, `${what} failed on ${to.toString()}: ${err.error}`);
  const out = res.execResult.returnValue;
  if (out.length < 32) throw new DenomBalanceError(denom, `${to.toString()} is not an ERC20 contract (${what} returned ${out.length} bytes)`);
  return word(out.subarray(0, 32));
}

/** Reads `holder`'s balance and the token's decimals from `state` (a copy; it is written to). */
export async function readErc20(common: Common, state: MerkleStateManager, contract: Uint8Array, holder: Uint8Array, denom: string): Promise<Erc20Balance> {
  const to = new Address(contract);
  const code = await state.getCode(to);
  if (code.length === 0) throw new DenomBalanceError(denom, `no contract at ${to.toString()}`);
  const holderWord = concatBytes(new Uint8Array(12), holder);
  const balance = await staticCall(common, state, to, concatBytes(BALANCE_OF, holderWord), denom, 'balanceOf');
  const decimals = await staticCall(common, state, to, DECIMALS, denom, 'decimals');
  if (decimals > 255n) throw new DenomBalanceError(denom, `${to.toString()} reports ${decimals} decimals`);
  return { balance, decimals: Number(decimals) };
}
