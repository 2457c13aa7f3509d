/**
 * Runs one CallMessage as a transaction on an OverlayState, with geth's eth_call semantics:
 * no signature and no nonce check, but everything else a tx pays for and warms.
 *
 *   VALIDATION   intrinsic gas and floor ≤ gas limit; balance ≥ gas × fee cap + value
 *   SETUP        EIP-2929 warm set: sender, recipient, precompiles, coinbase (EIP-3651), access list
 *   BUY GAS      gas × price taken from the sender (nothing for a free call), nonce bumped,
 *                EIP-7702 authorizations applied
 *   EXECUTION    evm.runCall with gas − intrinsic
 *   RESULTS      refund (≤ 1/5 of gas used), EIP-7623 floor; with `settle`: leftover gas back to
 *                the sender, tip to the coinbase, self-destructs and empty touched accounts removed
 *
 * Validation failures throw CallValidationError (what was refused, with the numbers; the RPC words
 * it as geth does); EVM failures are results.
 */
import { isIcs20Precompile, type Ics20Context } from '../../ibc/ics20-precompile.js';
import type { IbcCallContext } from '../views/evm-view.js';
import type { Block } from '@ethereumjs/block';
import type { EVM, Log } from '@ethereumjs/evm';
import { Account, Address, bytesToUnprefixedHex, hexToBytes } from '@ethereumjs/util';
import type { EvmHooks } from './evm-hooks.js';
import { applyAuthorizations } from './authorizations.js';
import type { GasTracker } from './gas-tracker.js';
import { gasParams, txGasBase, type CallMessage } from './message.js';
import type { OverlayState } from './overlay-state.js';
import { gethErrorText } from './vm-errors.js';

/** Why a message was refused before execution, as geth's state transition refuses one. */
export type CallRefusal = 'intrinsic-gas' | 'floor-data-gas' | 'insufficient-funds';

const REFUSAL_TEXT: Record<CallRefusal, string> = {
  'intrinsic-gas': 'intrinsic gas too low',
  'floor-data-gas': 'insufficient gas for floor data gas cost',
  'insufficient-funds': 'insufficient funds for gas * price + value',
};

/** A call refused before execution: `have` is what the message brings, `want` what it needs. */
export class CallValidationError extends Error {
  override name = 'CallValidationError';
  constructor(
    readonly refusal: CallRefusal,
    readonly have: bigint,
    readonly want: bigint,
  ) {
    super(`${REFUSAL_TEXT[refusal]}: have ${have}, want ${want}`);
  }
}

export interface MessageResult {
  status: 'success' | 'revert' | 'halt';
  /** Gas the tx is charged: after refunds, at least the floor. */
  gasUsed: bigint;
  /** Gas spent before refunds (intrinsic + execution). */
  gasSpent: bigint;
  intrinsic: bigint;
  floor: bigint;
  returnValue: Uint8Array;
  logs: Log[];
  createdAddress: Address | undefined;
  /** geth's text for a halt ("out of gas", "invalid opcode"…); undefined otherwise. */
  error: string | undefined;
  /** Gas left in the top frame when execution ended. */
  gasLeft: bigint;
  /** With `reportAccessList`: every address and slot the execution touched (unprefixed hex). */
  accessList?: Map<string, Set<string>>;
}

export interface RunOptions {
  tracker?: GasTracker;
  timeoutMs: number;
  /** Apply the fee refund, coinbase tip and account cleanup (multi-tx simulations). */
  settle?: boolean;
  /** Record touched addresses and slots (eth_createAccessList). */
  reportAccessList?: boolean;
}

export interface PooledEvm {
  evm: EVM;
  hooks: EvmHooks;
  /**
   * The ICS-20 precompile's context while this EVM runs a message: made on the precompile's first
   * call in that message (the store copy it needs is not paid by calls that never reach it).
   */
  ics20?: { active: boolean; caller: Uint8Array | undefined; value: bigint; ctx: Ics20Context | undefined; world: () => IbcCallContext | undefined };
}

export async function runMessage(p: PooledEvm, state: OverlayState, block: Block, msg: CallMessage, opts: RunOptions): Promise<MessageResult> {
  const { evm, hooks } = p;
  const common = evm.common;
  // ── VALIDATION ──
  const { intrinsic, floor } = txGasBase(common, msg);
  if (msg.gasLimit < intrinsic) throw new CallValidationError('intrinsic-gas', msg.gasLimit, intrinsic);
  if (msg.gasLimit < floor) throw new CallValidationError('floor-data-gas', msg.gasLimit, floor);
  const sender = (await state.getAccount(msg.from)) ?? new Account();
  const want = msg.gasLimit * msg.feeCap + msg.value;
  if (sender.balance < want) throw new CallValidationError('insufficient-funds', sender.balance, want);

  // ── SETUP ──
  evm.stateManager = state;
  (evm.journal as unknown as { stateManager: OverlayState }).stateManager = state;
  evm.journal.cleanJournal();
  delete (evm.journal as { accessList?: unknown }).accessList;
  evm.transientStorage.clear();
  (evm.transientStorage as unknown as { _indices: number[] })._indices = [0];
  state.beginTx();
  const journal = evm.journal;
  if (common.isActivatedEIP(2929)) {
    for (const addr of evm.precompiles.keys()) journal.addAlwaysWarmAddress(addr);
    journal.addAlwaysWarmAddress(bytesToUnprefixedHex(msg.from.bytes));
    if (msg.to !== undefined) journal.addAlwaysWarmAddress(bytesToUnprefixedHex(msg.to.bytes));
    if (common.isActivatedEIP(3651)) journal.addAlwaysWarmAddress(bytesToUnprefixedHex(block.header.coinbase.bytes));
    if (opts.reportAccessList) journal.startReportingAccessList();
    for (const e of msg.accessList) {
      const a = bytesToUnprefixedHex(e.address);
      journal.addAlwaysWarmAddress(a, true);
      for (const k of e.storageKeys) journal.addAlwaysWarmSlot(a, bytesToUnprefixedHex(k), true);
    }
  }

  // ── BUY GAS, bump the nonce (before authorizations, as runTx: a self-signed one sees it) ──
  sender.balance -= msg.gasLimit * msg.gasPrice;
  sender.nonce++;
  await journal.putAccount(msg.from, sender);
  const authRefund = await applyAuthorizations(evm, state, msg.authorizations);

  // ── EXECUTION ──
  hooks.arm(opts.timeoutMs);
  hooks.track(opts.tracker);
  const execLimit = msg.gasLimit - intrinsic;
  let res;
  if (p.ics20) {
    p.ics20.active = true;
    p.ics20.caller = msg.to && isIcs20Precompile(msg.to.bytes) ? msg.from.bytes : undefined;
    p.ics20.value = msg.value;
    p.ics20.ctx = undefined;
  }
  try {
    res = await evm.runCall({
      block,
      gasPrice: msg.gasPrice,
      caller: msg.from,
      origin: msg.from,
      to: msg.to,
      value: msg.value,
      data: msg.data,
      gasLimit: execLimit,
      skipNonceIncrement: true,
    });
  } finally {
    hooks.track(undefined);
    if (p.ics20) {
      p.ics20.active = false;
      p.ics20.ctx = undefined;
    }
  }

  // ── RESULTS ──
  const exec = res.execResult;
  const err = exec.exceptionError;
  const gasSpent = intrinsic + exec.executionGasUsed;
  let gasUsed = gasSpent;
  const refund = authRefund + (err === undefined ? (exec.gasRefund ?? 0n) : 0n);
  if (refund > 0n) {
    const max = gasSpent / gasParams(common).maxRefundQuotient;
    gasUsed -= refund < max ? refund : max;
  }
  if (gasUsed < floor) gasUsed = floor;

  if (opts.settle) await settle(evm, state, block, msg, gasUsed, exec);

  const reverted = err !== undefined && err.error === 'revert';
  return {
    status: err === undefined ? 'success' : reverted ? 'revert' : 'halt',
    gasUsed,
    gasSpent,
    intrinsic,
    floor,
    returnValue: exec.returnValue,
    logs: exec.logs ?? [],
    createdAddress: res.createdAddress,
    error: err === undefined || reverted ? undefined : gethErrorText(err),
    gasLeft: execLimit - exec.executionGasUsed,
    ...(opts.reportAccessList ? { accessList: journal.accessList ?? new Map() } : {}),
  };
}

/** Fee refund and coinbase tip, then the end-of-tx cleanup a block would do. */
async function settle(
  evm: EVM,
  state: OverlayState,
  block: Block,
  msg: CallMessage,
  gasUsed: bigint,
  exec: { selfdestruct?: Map<string, string>; createdAddresses?: Set<string> },
): Promise<void> {
  const back = (msg.gasLimit - gasUsed) * msg.gasPrice;
  if (back > 0n) {
    const a = (await state.getAccount(msg.from)) ?? new Account();
    a.balance += back;
    await evm.journal.putAccount(msg.from, a);
  }
  const tip = gasUsed * msg.tip;
  if (tip > 0n) {
    const coinbase = block.header.coinbase;
    const c = (await state.getAccount(coinbase)) ?? new Account();
    c.balance += tip;
    await evm.journal.putAccount(coinbase, c);
  }
  // EIP-6780: only contracts created in this same tx are removed.
  for (const addrHex of exec.selfdestruct?.keys() ?? []) {
    if (exec.createdAddresses?.has(addrHex) === false) continue;
    await state.deleteAccount(new Address(hexToBytes(addrHex as `0x${string}`)));
  }
  await evm.journal.cleanup();
}
