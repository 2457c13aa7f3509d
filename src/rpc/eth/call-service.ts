/**
 * From RPC arguments to executions of the EVM module (src/app/evm): geth's defaults for a call
 * object (sender zero, gas from the cap or the block, fees → effective price), the `rpc-gas-cap`
 * and `evm-timeout` of `[json-rpc]`, and the geth errors of eth_call, eth_estimateGas and
 * eth_createAccessList. Every execution runs on a fresh overlay of the state at the requested
 * height. Handlers see it as `EthCalls` (env.ts); only the composition root builds it.
 */
import type { Block } from '@ethereumjs/block';
import { Address } from '@ethereumjs/util';
import { estimateGas } from '../../app/evm/estimate.js';
import { EvmTimeoutError } from '../../app/evm/evm-hooks.js';
import type { GasTracker } from '../../app/evm/gas-tracker.js';
import { txGasBase, type AccessListEntry, type CallMessage } from '../../app/evm/message.js';
import type { ExecutionPoint, OffchainExecutor } from '../../app/evm/offchain.js';
import type { OverlayState } from '../../app/evm/overlay-state.js';
import { applyOverrides, type StateOverrides } from '../../app/evm/overrides.js';
import { CallValidationError, runMessage, type MessageResult, type PooledEvm, type RunOptions } from '../../app/evm/run-message.js';
import { toHex } from '../../crypto/encoding.js';
import type { ContractRead, EthCalls } from './env.js';
import { ExecutionRevertedError, GethText, ServerError } from './errors.js';
import { data as hexData } from './hex.js';
import { decodeRevertReason } from './revert-reason.js';
import type { TxArgs } from './tx-args.js';

export interface CallLimits {
  /** `rpc-gas-cap` (0 = none). */
  gasCap: bigint;
  /** `evm-timeout` in ms (0 = none). */
  timeoutMs: number;
}

const ZERO_ADDRESS = new Address(new Uint8Array(20));

/** Fee fields → what the message is charged (geth's TransactionArgs.ToMessage). */
export function feesOf(args: TxArgs, baseFee: bigint): { gasPrice: bigint; feeCap: bigint; tip: bigint } {
  if (args.gasPrice !== undefined && (args.maxFeePerGas !== undefined || args.maxPriorityFeePerGas !== undefined)) {
    throw new ServerError(GethText.bothGasPrices);
  }
  if (args.gasPrice !== undefined) {
    const p = args.gasPrice;
    return { gasPrice: p, feeCap: p, tip: p > baseFee ? p - baseFee : 0n };
  }
  const feeCap = args.maxFeePerGas ?? 0n;
  const prio = args.maxPriorityFeePerGas ?? 0n;
  if (feeCap === 0n && prio === 0n) return { gasPrice: 0n, feeCap: 0n, tip: 0n };
  const from = (args.from ?? ZERO_ADDRESS).toString();
  if (prio > feeCap) throw new ServerError(GethText.tipAboveFeeCap(from, prio, feeCap));
  if (feeCap < baseFee) throw new ServerError(GethText.feeCapTooLow(from, feeCap, baseFee));
  const price = prio + baseFee < feeCap ? prio + baseFee : feeCap;
  return { gasPrice: price, feeCap, tip: price - baseFee };
}

export class CallService implements EthCalls {
  constructor(
    readonly executor: OffchainExecutor,
    private readonly limits: CallLimits,
  ) {}

  /** eth_call: the result of one execution (reverts and halts are results, not throws). */
  async call(args: TxArgs, at: ExecutionPoint, overrides?: StateOverrides): Promise<MessageResult> {
    return this.executor.run(at, async (state, block, evm) => {
      await applyOverrides(state, overrides);
      const msg = this.message(args, block, this.defaultGas(args, block));
      return this.exec(evm, state, block, msg, {});
    });
  }

  async estimate(args: TxArgs, at: ExecutionPoint, overrides?: StateOverrides): Promise<{ gas: bigint; runs: number }> {
    return this.executor.run(at, async (state, block, evm) => {
      await applyOverrides(state, overrides);
      const base = this.message(args, block, 0n);
      const cap = await this.estimateCap(args, base, block, state);
      const gb = txGasBase(evm.evm.common, base);
      const minGas = gb.intrinsic > gb.floor ? gb.intrinsic : gb.floor;
      if (cap < minGas) throw new ServerError(GethText.gasRequiredExceedsAllowance(cap));
      // Every run starts from the same pre-state: a fresh copy of the overridden overlay.
      const pre = state.shallowCopy();
      const deadline = this.deadline();
      const run = (gasLimit: bigint, tracker?: GasTracker) =>
        this.exec(evm, pre.shallowCopy(), block, { ...base, gasLimit }, tracker ? { tracker } : {}, deadline);
      return estimateGas(run, cap, minGas, base.gasPrice > 0n, failureAtCap);
    });
  }

  /** eth_createAccessList: re-run with the touched set until it stops changing (geth's loop). */
  async createAccessList(args: TxArgs, at: ExecutionPoint): Promise<{ accessList: AccessListEntry[]; gasUsed: bigint; error?: string }> {
    return this.executor.run(at, async (state, block, evm) => {
      const gas = this.defaultGas(args, block);
      const pre = state.shallowCopy();
      const deadline = this.deadline();
      let list: AccessListEntry[] = args.accessList ?? [];
      const exclude = new Set<string>();
      for (let i = 0; i < 8; i++) {
        const msg = this.message({ ...args, accessList: list }, block, gas);
        exclude.add(toHex(msg.from.bytes));
        if (msg.to) exclude.add(toHex(msg.to.bytes));
        for (const p of evm.evm.precompiles.keys()) exclude.add(p);
        const r = await this.exec(evm, pre.shallowCopy(), block, msg, { reportAccessList: true }, deadline);
        const next = accessListFrom(r.accessList ?? new Map(), exclude, r.createdAddress);
        const error = r.status === 'success' ? undefined : r.status === 'revert' ? revertText(r.returnValue) : (r.error ?? 'execution failed');
        if (sameList(next, list)) return { accessList: list, gasUsed: r.gasUsed, ...(error ? { error } : {}) };
        list = next;
      }
      throw new ServerError('access list did not converge');
    });
  }

  /**
   * Read-only calls to the contract at `to` on the latest state, each as eth_call makes it (from
   * the zero address, gas from the cap) on a fresh overlay, under one `evm-timeout` for them all:
   * what in-process readers use (the routing API's ERC-20 reads). A failure is geth's text (a
   * revert, a halt, the timeout); undefined when `to` holds no code.
   */
  async readContract(to: Uint8Array, inputs: readonly Uint8Array[]): Promise<ContractRead[] | undefined> {
    const address = new Address(to);
    return this.executor.run({ height: this.executor.view.latestHeight() }, async (state, block, evm) => {
      if ((await state.getCode(address)).length === 0) return undefined;
      const gas = this.defaultGas({}, block);
      const deadline = this.deadline();
      const out: ContractRead[] = [];
      for (const input of inputs) {
        try {
          const r = await this.exec(evm, state.shallowCopy(), block, this.message({ to: address, input }, block, gas), {}, deadline);
          out.push(
            r.status === 'success'
              ? { returnValue: r.returnValue }
              : { error: r.status === 'revert' ? revertText(r.returnValue) : (r.error ?? 'execution failed'), timedOut: false },
          );
        } catch (e) {
          if (!(e instanceof ServerError)) throw e;
          // exec's text for EvmTimeoutError, and no other error's.
          out.push({ error: e.message, timedOut: e.message === GethText.evmTimeout(this.limits.timeoutMs) });
        }
      }
      return out;
    });
  }

  /**
   * A deadline for one request: `evm-timeout` bounds the whole request, however many executions
   * it takes (estimation's search, the access-list loop, a simulation's calls).
   */
  deadline(): number {
    return this.limits.timeoutMs > 0 ? performance.now() + this.limits.timeoutMs : Infinity;
  }

  /** Runs `msg` until `deadline`; validation errors and timeouts become geth errors. */
  async exec(
    evm: PooledEvm,
    state: OverlayState,
    block: Block,
    msg: CallMessage,
    opts: Omit<RunOptions, 'timeoutMs'>,
    deadline = this.deadline(),
  ): Promise<MessageResult> {
    const timeoutMs = this.limits.timeoutMs;
    try {
      if (deadline !== Infinity && performance.now() >= deadline) throw new EvmTimeoutError(timeoutMs);
      return await runMessage(evm, state, block, msg, { ...opts, timeoutMs: deadline === Infinity ? 0 : Math.max(1, deadline - performance.now()) });
    } catch (e) {
      if (e instanceof CallValidationError) throw new ServerError(refusalText(e));
      if (e instanceof EvmTimeoutError) throw new ServerError(GethText.evmTimeout(timeoutMs));
      throw e;
    }
  }

  /** A CallMessage for `args` in `block`'s environment with `gasLimit`. */
  message(args: TxArgs, block: Block, gasLimit: bigint): CallMessage {
    const fees = feesOf(args, block.header.baseFeePerGas ?? 0n);
    return {
      from: args.from ?? ZERO_ADDRESS,
      to: args.to,
      data: args.input ?? new Uint8Array(0),
      value: args.value ?? 0n,
      gasLimit,
      ...fees,
      accessList: args.accessList ?? [],
      authorizations: args.authorizationList ?? [],
    };
  }

  /** eth_call's gas: the given gas, else the gas cap, else the block's gas limit; never above the cap. */
  defaultGas(args: TxArgs, block: Block): bigint {
    const cap = this.limits.gasCap;
    let gas = args.gas ?? (cap > 0n ? cap : block.header.gasLimit);
    if (cap > 0n && gas > cap) gas = cap;
    return gas;
  }

  /** geth's upper bound for estimation: given gas or block limit, then what the balance pays, then the cap. */
  private async estimateCap(args: TxArgs, msg: CallMessage, block: Block, state: OverlayState): Promise<bigint> {
    let hi = args.gas !== undefined && args.gas >= 21_000n ? args.gas : block.header.gasLimit;
    if (msg.feeCap > 0n) {
      const balance = (await state.getAccount(msg.from))?.balance ?? 0n;
      if (msg.value > balance) throw new ServerError(GethText.insufficientFundsForTransfer(msg.from.toString()));
      const allowance = (balance - msg.value) / msg.feeCap;
      if (hi > allowance) hi = allowance;
    }
    if (this.limits.gasCap > 0n && hi > this.limits.gasCap) hi = this.limits.gasCap;
    return hi;
  }
}

/** geth's error for a message that fails even at the estimation's cap. */
function failureAtCap(r: MessageResult, cap: bigint): never {
  if (r.status === 'revert') throw new ExecutionRevertedError(hexData(r.returnValue), decodeRevertReason(r.returnValue));
  if (r.error === 'out of gas') throw new ServerError(GethText.gasRequiredExceedsAllowance(cap));
  throw new ServerError(r.error ?? 'execution failed');
}

/** geth's words for a message its state transition refuses. */
function refusalText(e: CallValidationError): string {
  switch (e.refusal) {
    case 'intrinsic-gas':
      return GethText.intrinsicGasTooLow(e.have, e.want);
    case 'floor-data-gas':
      return GethText.floorDataGas(e.have, e.want);
    case 'insufficient-funds':
      return GethText.insufficientFunds(e.have, e.want);
  }
}

function revertText(ret: Uint8Array): string {
  const reason = decodeRevertReason(ret);
  return reason ? `execution reverted: ${reason}` : 'execution reverted';
}

/** The journal's touched set as an access list: excluded addresses stay only when they have slots. */
function accessListFrom(touched: Map<string, Set<string>>, exclude: Set<string>, created: Address | undefined): AccessListEntry[] {
  const createdHex = created ? toHex(created.bytes) : undefined;
  const out: AccessListEntry[] = [];
  for (const [addr, slots] of touched) {
    if (addr === createdHex) continue;
    if (slots.size === 0 && exclude.has(addr)) continue;
    out.push({ address: Buffer.from(addr, 'hex'), storageKeys: [...slots].map((s) => Buffer.from(s.padStart(64, '0'), 'hex')) });
  }
  return out;
}

function sameList(a: AccessListEntry[], b: AccessListEntry[]): boolean {
  if (a.length !== b.length) return false;
  const key = (l: AccessListEntry[]) =>
    l
      .map((e) => `${toHex(e.address)}:${e.storageKeys.map(toHex).sort().join(',')}`)
      .sort()
      .join(';');
  return key(a) === key(b);
}
