/**
 * The one table of tx rejections: ABCI code, codespace and log text for each way a tx can be refused
 * by CheckTx or fail validation inside FinalizeBlock. Texts follow Cosmos EVM (`<context>: <sdk
 * error description>`) and geth (`insufficient funds for gas * price + value`, `intrinsic gas too
 * low`) so that wallets and viem classify them. Codes are the Cosmos SDK's (codespace "sdk") or
 * Cosmos EVM x/vm's (codespace "evm").
 */
import { TxRejectedError } from '../errors.js';

export const SdkCode = {
  TxDecode: 2,
  InvalidSequence: 3,
  Unauthorized: 4,
  InsufficientFunds: 5,
  OutOfGas: 11,
  InsufficientFee: 13,
  InvalidChainId: 28,
  NotSupported: 37,
} as const;

export const EvmCode = {
  VmExecution: 10,
  InvalidAccount: 15,
  InvalidGasLimit: 16,
} as const;

export const txParseError = (detail: string) => new TxRejectedError(SdkCode.TxDecode, 'sdk', `${detail}: tx parse error`);

export const unsupportedTxType = (type: number) => new TxRejectedError(SdkCode.TxDecode, 'sdk', `transaction type ${type} not supported: tx parse error`);

export const invalidChainId = (expected: bigint, got: bigint) =>
  new TxRejectedError(SdkCode.InvalidChainId, 'sdk', `invalid chain id; expected ${expected}, got ${got}: invalid chain-id`);

export const unprotectedTx = () =>
  new TxRejectedError(SdkCode.NotSupported, 'sdk', 'only replay-protected (EIP-155) transactions allowed over RPC: feature not supported');

export const invalidSignature = (detail: string) =>
  new TxRejectedError(SdkCode.Unauthorized, 'sdk', `invalid transaction signature (${stripContext(detail)}): unauthorized`);

export const invalidNonce = (got: bigint, expected: bigint) =>
  new TxRejectedError(SdkCode.InvalidSequence, 'sdk', `invalid nonce; got ${got}, expected ${expected}: invalid sequence`);

export const insufficientFunds = (have: bigint, want: bigint) =>
  new TxRejectedError(SdkCode.InsufficientFunds, 'sdk', `insufficient funds for gas * price + value: have ${have} want ${want}`);

export const intrinsicGasTooLow = (have: bigint, want: bigint) =>
  new TxRejectedError(SdkCode.OutOfGas, 'sdk', `intrinsic gas too low: have ${have}, want ${want}`);

export const gasLimitExceedsBlock = (gas: bigint, max: bigint) =>
  new TxRejectedError(EvmCode.InvalidGasLimit, 'evm', `tx gas limit ${gas} exceeds block max gas ${max}`);

export const blockGasExhausted = (gas: bigint, left: bigint) =>
  new TxRejectedError(SdkCode.OutOfGas, 'sdk', `block gas limit exceeded: tx gas limit ${gas}, gas left in block ${left}: out of gas`);

export const feeBelowMinGasPrice = (fee: bigint, min: bigint) =>
  new TxRejectedError(SdkCode.InsufficientFee, 'sdk', `max fee per gas less than min gas price (${fee} < ${min}): insufficient fee`);

export const feeBelowBaseFee = (fee: bigint, baseFee: bigint) =>
  new TxRejectedError(SdkCode.InsufficientFee, 'sdk', `max fee per gas less than block base fee (${fee} < ${baseFee}): insufficient fee`);

export const senderNotEoa = (sender: string) =>
  new TxRejectedError(EvmCode.InvalidAccount, 'evm', `sender not an eoa: address ${sender}: account type is not a valid ethereum account`);

export const executionFailed = (detail: string) => new TxRejectedError(EvmCode.VmExecution, 'evm', `${stripContext(detail)}: evm transaction execution failed`);

/**
 * Translates an error thrown by ethereumjs `runTx` (validation failed, nothing executed, state
 * untouched) into the rejection a Cosmos EVM node would report.
 */
export function rejectionFromRunTxError(e: unknown): TxRejectedError {
  if (e instanceof TxRejectedError) return e;
  const msg = e instanceof Error ? e.message : String(e);
  let m = /account has nonce of: (\d+) tx has nonce of: (\d+)/.exec(msg);
  if (m) return invalidNonce(BigInt(m[2]!), BigInt(m[1]!));
  m = /The (?:upfront|max) cost is: (\d+) and the sender's account \(.*?\) only has: (\d+)/.exec(msg);
  if (m) return insufficientFunds(BigInt(m[2]!), BigInt(m[1]!));
  m = /tx gas limit (\d+) is lower than the minimum gas limit of (\d+)/.exec(msg);
  if (m) return intrinsicGasTooLow(BigInt(m[1]!), BigInt(m[2]!));
  m = /\((\d+)\) is less than the block's baseFeePerGas \((\d+)\)/.exec(msg);
  if (m) return feeBelowBaseFee(BigInt(m[1]!), BigInt(m[2]!));
  m = /invalid sender address, address is not EOA/.exec(msg);
  if (m) return new TxRejectedError(EvmCode.InvalidAccount, 'evm', 'sender not an eoa: account type is not a valid ethereum account');
  return executionFailed(msg);
}

/** Drops ethereumjs's "(vm hf=… -> block … -> tx …)" suffix. */
function stripContext(msg: string): string {
  const i = msg.indexOf(' (vm hf=');
  const j = i >= 0 ? i : msg.indexOf(' (tx type=');
  return j >= 0 ? msg.slice(0, j) : msg;
}
