/**
 * A plain value transfer applied straight to the state, with the writes ethereumjs `runTx` makes
 * for it, without its call frame (message, nested journal checkpoints, touched-account cleanup,
 * events). Most of a pooled block and of a sequential ETH-transfer loop is such txs; `runTx` spends
 * ≈ 200 µs on one, this ≈ 20.
 *
 * Only the success case is handled here, and only when nothing but three balances and a nonce can
 * change: no data, no access list, no authorization list; the recipient holds no code (not even a
 * 7702 delegation) and is no precompile; sender, recipient and coinbase are three distinct accounts,
 * none of them left empty (EIP-161 would delete it). Anything else, including every tx that would
 * fail validation, returns undefined and the caller runs `runTx`, which produces the same rejection
 * it always did. `fast-execution.test.ts` checks results and state roots against `runTx`.
 *
 *   sender:    balance −= intrinsic gas × gas price + value, nonce + 1
 *   recipient: balance += value (created when absent)
 *   coinbase:  balance += intrinsic gas × (gas price − base fee)   (the base fee is burnt)
 */
import type { Common } from '@ethereumjs/common';
import type { TypedTransaction } from '@ethereumjs/tx';
import { Account, KECCAK256_NULL, MAX_INTEGER, bytesToUnprefixedHex, type Address } from '@ethereumjs/util';
import type { VM } from '@ethereumjs/vm';
import { bytesEqual } from '../../crypto/encoding.js';
import { effectiveGasPrice, maxFeePerGas } from './fee-market.js';

/** EIPs (all after Osaka) that change what a plain transfer does: gas dimensions, transfer logs, access lists, witnesses. */
const CHANGING_EIPS = [2780, 6800, 7708, 7778, 7864, 7928, 8037] as const;

const txGasOf = new WeakMap<Common, bigint | null>();

/**
 * The gas a plain transfer uses (`txGas`: no data, no access list, a recipient), or null when this
 * chain's rules are not the ones `applyPlainTransfer` implements (London to Osaka).
 */
function plainTransferGas(common: Common): bigint | null {
  let gas = txGasOf.get(common);
  if (gas === undefined) {
    const ok = common.isActivatedEIP(1559) && common.gteHardfork('spuriousDragon') && CHANGING_EIPS.every((eip) => !common.isActivatedEIP(eip));
    gas = ok ? common.param('txGas') : null;
    txGasOf.set(common, gas);
  }
  return gas;
}

/**
 * Applies `tx` from `sender` as a plain transfer and returns the gas it used, or undefined (nothing
 * written) when the tx is not a plain, valid transfer: the caller then runs it through `runTx`.
 */
export async function applyPlainTransfer(vm: VM, tx: TypedTransaction, sender: Address, coinbase: Address, baseFee: bigint): Promise<bigint | undefined> {
  const to = tx.to;
  if (to === undefined || tx.data.length !== 0 || tx.type > 2) return undefined;
  if ('accessList' in tx && (tx as { accessList: unknown[] }).accessList.length !== 0) return undefined;
  const gas = plainTransferGas(vm.common); // = tx.getIntrinsicGas() for such a tx, which costs ≈ 40 µs
  if (gas === null) return undefined;
  const maxFee = maxFeePerGas(tx);
  if (tx.gasLimit < gas || maxFee < baseFee) return undefined;
  if (bytesEqual(to.bytes, sender.bytes) || bytesEqual(to.bytes, coinbase.bytes) || bytesEqual(sender.bytes, coinbase.bytes)) return undefined;
  if (vm.evm.precompiles.has(bytesToUnprefixedHex(to.bytes))) return undefined;

  const state = vm.stateManager;
  const from = await state.getAccount(sender);
  // runTx's checks, here as conditions for the fast path: EOA sender (EIP-3607), nonce, max cost.
  if (from === undefined || !bytesEqual(from.codeHash, KECCAK256_NULL) || from.nonce !== tx.nonce) return undefined;
  if (from.balance < tx.value + tx.gasLimit * maxFee) return undefined;
  let recipient = await state.getAccount(to);
  if (recipient !== undefined && !bytesEqual(recipient.codeHash, KECCAK256_NULL)) return undefined;
  if (tx.value === 0n && (recipient === undefined || recipient.isEmpty())) return undefined;
  const gasPrice = effectiveGasPrice(tx, baseFee);
  const reward = gas * (gasPrice - baseFee);
  let miner = await state.getAccount(coinbase);
  if (reward === 0n && miner !== undefined && miner.isEmpty()) return undefined;
  if ((recipient?.balance ?? 0n) + tx.value > MAX_INTEGER) return undefined;

  from.balance -= gas * gasPrice + tx.value;
  from.nonce += 1n;
  await state.putAccount(sender, from);
  recipient ??= new Account();
  recipient.balance += tx.value;
  await state.putAccount(to, recipient);
  if (reward !== 0n) {
    miner ??= new Account();
    miner.balance += reward;
    await state.putAccount(coinbase, miner);
  }
  return gas;
}
