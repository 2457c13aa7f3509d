/**
 * Errors of the Ethereum JSON-RPC, in geth's words. viem, ethers and wallets classify node errors
 * by their text (viem: `NonceTooLowError.nodeMessage = /nonce too low|…/`), so every message a
 * client can see is fixed here, in one place, and `errors.test.ts` runs them through real viem.
 *
 * Each class carries its JSON-RPC `code` and optional `data`; `toJsonRpcError` is the one mapper
 * from anything thrown by a handler to the error object on the wire.
 */
import { JsonRpcErrorException } from '../jsonrpc/errors.js';
import type { JsonRpcError } from '../jsonrpc/types.js';

/** Base of every error a handler throws on purpose. `shortMessage` is the wire message. */
export class EthRpcError extends Error {
  override name = 'EthRpcError';
  readonly shortMessage: string;
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
    this.shortMessage = message;
  }

  toJsonRpc(): JsonRpcError {
    return this.data === undefined ? { code: this.code, message: this.message } : { code: this.code, message: this.message, data: this.data };
  }
}

/** A hex value geth's hexutil would refuse; param decoders turn it into InvalidParamsError. */
export class HexError extends Error {
  override name = 'HexError';
}

/** -32602. `index` set: geth's `invalid argument N: …`; else the detail alone. */
export class InvalidParamsError extends EthRpcError {
  override name = 'InvalidParamsError';
  constructor(
    readonly detail: string,
    readonly index?: number,
  ) {
    super(-32602, index === undefined ? detail : `invalid argument ${index}: ${detail}`);
  }
}

/** -32601, also for a method whose namespace is not in `api`. */
export class MethodNotFoundError extends EthRpcError {
  override name = 'MethodNotFoundError';
  /** `hint` follows geth's text (which clients match on): how to turn the method's namespace on. */
  constructor(
    readonly method: string,
    hint?: string,
  ) {
    super(-32601, `the method ${method} does not exist/is not available${hint ? ` (${hint})` : ''}`);
  }
}

/** -32004 (EIP-1474 "method not supported"): methods and subscriptions this node does not offer. */
export class NotSupportedError extends EthRpcError {
  override name = 'NotSupportedError';
  constructor(readonly what: string) {
    super(-32004, `${what} is not supported`);
  }
}

/** Code 3 with the revert bytes as `data`, as geth answers a reverted eth_call / eth_estimateGas. */
export class ExecutionRevertedError extends EthRpcError {
  override name = 'ExecutionRevertedError';
  constructor(
    readonly revertData: string,
    readonly reason?: string,
  ) {
    super(3, reason ? `execution reverted: ${reason}` : 'execution reverted', revertData);
  }
}

/** -32000: geth's default code for everything a call, a tx or a lookup can fail with. */
export class ServerError extends EthRpcError {
  override name = 'ServerError';
  constructor(message: string, data?: unknown) {
    super(-32000, message, data);
  }
}

/** -32600 for a well-formed request the server refuses (batch too large, bad WS id). */
export class InvalidRequestError extends EthRpcError {
  override name = 'InvalidRequestError';
  constructor(message: string) {
    super(-32600, message);
  }
}

/**
 * The texts. Functions where geth formats values into the message; the format is geth's
 * (core/error.go, core/txpool/errors.go, internal/ethapi, eth/filters) or Cosmos EVM's where
 * the feature is Cosmos EVM's own (logs-cap, block-range-cap, profiling).
 */
export const GethText = {
  nonceTooLow: (next: bigint, got: bigint) => `nonce too low: next nonce ${next}, tx nonce ${got}`,
  nonceTooHigh: (next: bigint, got: bigint) => `nonce too high: next nonce ${next}, tx nonce ${got}`,
  insufficientFunds: (have: bigint, want: bigint) => `insufficient funds for gas * price + value: have ${have} want ${want}`,
  insufficientFundsForTransfer: (address: string) => `insufficient funds for transfer: address ${address}`,
  intrinsicGasTooLow: (have: bigint, want: bigint) => `intrinsic gas too low: have ${have}, want ${want}`,
  floorDataGas: (have: bigint, want: bigint) => `insufficient gas for floor data gas cost: have ${have}, want ${want}`,
  feeCapTooLow: (address: string, maxFee: bigint, baseFee: bigint) =>
    `max fee per gas less than block base fee: address ${address}, maxFeePerGas: ${maxFee}, baseFee: ${baseFee}`,
  tipAboveFeeCap: (address: string, tip: bigint, maxFee: bigint) =>
    `max priority fee per gas higher than max fee per gas: address ${address}, maxPriorityFeePerGas: ${tip}, maxFeePerGas: ${maxFee}`,
  gasLimitExceedsBlock: 'exceeds block gas limit',
  alreadyKnown: 'already known',
  underpriced: 'replacement transaction underpriced',
  txPoolFull: 'txpool is full',
  oversizedData: 'oversized data',
  txTypeNotSupported: 'transaction type not supported',
  unprotectedTx: 'only replay-protected (EIP-155) transactions allowed over RPC',
  invalidChainId: (want: bigint, got: bigint) => `invalid sender: invalid chain id for signer: have ${got} want ${want}`,
  invalidSender: (detail: string) => `invalid sender: ${detail}`,
  gasRequiredExceedsAllowance: (cap: bigint) => `gas required exceeds allowance (${cap})`,
  evmTimeout: (ms: number) => `execution aborted (timeout = ${formatGoDuration(ms)})`,
  headerNotFound: 'header not found',
  unknownBlock: 'unknown block',
  filterNotFound: 'filter not found',
  unknownAccount: 'unknown account',
  logsCap: (cap: number) => `query returned more than ${cap} results`,
  blockRangeCap: (cap: number) => `maximum [from, to] blocks distance: ${cap}`,
  invalidBlockRange: 'invalid block range params',
  pendingLogs: 'pending logs are not supported',
  feeHistoryCap: (cap: number, got: number) => `block count ${got} exceeds fee history cap ${cap}`,
  txFeeCap: (fee: string, cap: number) => `tx fee (${fee} ether) exceeds the configured cap (${cap.toFixed(2)} ether)`,
  bothGasPrices: 'both gasPrice and (maxFeePerGas or maxPriorityFeePerGas) specified',
  inputAndData: `both "data" and "input" are set and not equal. Please use "input" to pass transaction call data`,
  contractCreationNoData: 'contract creation without any data provided',
  notEnoughGasForBlock: 'block gas limit reached',
  responseTooLarge: 'response too large',
  batchTooLarge: 'batch too large',
} as const;

/** geth's Go duration formatting for the timeout message ("10s", "1.5s", "500ms"). */
export function formatGoDuration(ms: number): string {
  if (ms < 1000) return `${ms}ms`;
  if (ms % 60_000 === 0 && ms >= 60_000) return `${ms / 60_000}m0s`;
  return `${ms / 1000}s`;
}

/**
 * The geth text for a tx the app or the mempool refused (the `log` of a non-zero CheckTx), so that
 * eth_sendRawTransaction answers as geth's txpool would. Unknown logs pass through unchanged.
 */
export function gethTextForCheckTxLog(log: string, ctx: { sender?: string } = {}): string {
  let m = /^invalid nonce; got (\d+), expected (\d+)/.exec(log);
  if (m) {
    const got = BigInt(m[1]!);
    const next = BigInt(m[2]!);
    return got < next ? GethText.nonceTooLow(next, got) : GethText.nonceTooHigh(next, got);
  }
  m = /insufficient funds for gas \* price \+ value: have (\d+) want (\d+)/.exec(log);
  if (m) return GethText.insufficientFunds(BigInt(m[1]!), BigInt(m[2]!));
  m = /intrinsic gas too low: have (\d+), want (\d+)/.exec(log);
  if (m) return GethText.intrinsicGasTooLow(BigInt(m[1]!), BigInt(m[2]!));
  if (/exceeds block max gas|block gas limit exceeded/.test(log)) return GethText.gasLimitExceedsBlock;
  m = /max fee per gas less than (?:block base fee|min gas price) \((\d+) < (\d+)\)/.exec(log);
  if (m) return GethText.feeCapTooLow(ctx.sender ?? '0x', BigInt(m[1]!), BigInt(m[2]!));
  if (/only replay-protected/.test(log)) return GethText.unprotectedTx;
  m = /invalid chain id; expected (\d+), got (\d+)/.exec(log);
  if (m) return GethText.invalidChainId(BigInt(m[1]!), BigInt(m[2]!));
  if (/^transaction type \d+ not supported/.test(log)) return GethText.txTypeNotSupported;
  m = /^invalid transaction signature \((.*)\)/.exec(log);
  if (m) return GethText.invalidSender(m[1]!);
  if (/replacement transaction underpriced/.test(log)) return GethText.underpriced;
  if (/sender not an eoa/.test(log)) return 'sender not an eoa';
  const parse = /^(.*): tx parse error$/.exec(log);
  if (parse) return parse[1]!;
  return log;
}

/** Anything a handler threw → the JSON-RPC error object (unexpected errors: -32603 with their text). */
export function toJsonRpcError(err: unknown): JsonRpcError {
  if (err instanceof EthRpcError) return err.toJsonRpc();
  if (err instanceof JsonRpcErrorException) return err.error;
  const message = err instanceof Error ? err.message : String(err);
  return { code: -32603, message };
}
