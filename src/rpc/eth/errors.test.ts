/**
 * The geth texts of errors.ts, run through real viem: viem classifies node errors by their
 * message (`nodeMessage` regexes), so each text must land in the class a dapp expects.
 */
import { describe, expect, it } from 'vitest';
import {
  ExecutionRevertedError as ViemExecutionReverted,
  FeeCapTooLowError,
  InsufficientFundsError,
  IntrinsicGasTooLowError,
  NonceTooHighError,
  NonceTooLowError,
  RpcRequestError,
  TipAboveFeeCapError,
  UnknownNodeError,
} from 'viem';
import { getNodeError } from 'viem/utils';
import {
  ExecutionRevertedError,
  GethText,
  InvalidParamsError,
  MethodNotFoundError,
  ServerError,
  formatGoDuration,
  gethTextForCheckTxLog,
  toJsonRpcError,
} from './errors.js';

function classify(message: string, code = -32000): string {
  const err = new RpcRequestError({ body: {}, error: { code, message }, url: 'http://node' });
  return getNodeError(err, {}).constructor.name;
}

describe('geth texts as viem classifies them', () => {
  it.each([
    [GethText.nonceTooLow(5n, 3n), NonceTooLowError],
    [GethText.nonceTooHigh(5n, 9n), NonceTooHighError],
    [GethText.alreadyKnown, NonceTooLowError],
    [GethText.insufficientFunds(1n, 2n), InsufficientFundsError],
    [GethText.insufficientFundsForTransfer('0xabc'), InsufficientFundsError],
    [GethText.intrinsicGasTooLow(20_000n, 21_000n), IntrinsicGasTooLowError],
    [GethText.feeCapTooLow('0xabc', 1n, 7n), FeeCapTooLowError],
    [GethText.tipAboveFeeCap('0xabc', 9n, 1n), TipAboveFeeCapError],
    [GethText.gasRequiredExceedsAllowance(30_000_000n), ViemExecutionReverted],
  ])('%s', (text, cls) => {
    expect(classify(text)).toBe(cls.name);
  });

  it('a revert (code 3) is an ExecutionRevertedError whatever its text', () => {
    expect(classify('execution reverted: nope', 3)).toBe(ViemExecutionReverted.name);
    expect(classify('out of gas')).toBe(UnknownNodeError.name);
  });
});

describe('CheckTx logs → geth texts', () => {
  it.each([
    ['invalid nonce; got 3, expected 5: invalid sequence', 'nonce too low: next nonce 5, tx nonce 3'],
    ['invalid nonce; got 9, expected 5: invalid sequence', 'nonce too high: next nonce 5, tx nonce 9'],
    ['insufficient funds for gas * price + value: have 1 want 2', 'insufficient funds for gas * price + value: have 1 want 2'],
    ['intrinsic gas too low: have 100, want 21000', 'intrinsic gas too low: have 100, want 21000'],
    ['tx gas limit 9 exceeds block max gas 5', 'exceeds block gas limit'],
    [
      'max fee per gas less than block base fee (1 < 7): insufficient fee',
      'max fee per gas less than block base fee: address 0xabc, maxFeePerGas: 1, baseFee: 7',
    ],
    ['transaction type 3 not supported: tx parse error', 'transaction type not supported'],
    ['invalid chain id; expected 9000, got 1: invalid chain-id', 'invalid sender: invalid chain id for signer: have 1 want 9000'],
    ['replacement transaction underpriced', 'replacement transaction underpriced'],
    ['rlp: unexpected end: tx parse error', 'rlp: unexpected end'],
  ])('%s', (log, text) => {
    expect(gethTextForCheckTxLog(log, { sender: '0xabc' })).toBe(text);
  });
});

describe('error objects', () => {
  it('carry code, message and data', () => {
    expect(new ExecutionRevertedError('0x08c3', 'boom').toJsonRpc()).toEqual({ code: 3, message: 'execution reverted: boom', data: '0x08c3' });
    expect(new ExecutionRevertedError('0x').toJsonRpc()).toEqual({ code: 3, message: 'execution reverted', data: '0x' });
    expect(new MethodNotFoundError('foo_bar').toJsonRpc()).toEqual({ code: -32601, message: 'the method foo_bar does not exist/is not available' });
    expect(new InvalidParamsError('bad', 1).toJsonRpc()).toEqual({ code: -32602, message: 'invalid argument 1: bad' });
    expect(toJsonRpcError(new ServerError('header not found'))).toEqual({ code: -32000, message: 'header not found' });
    expect(toJsonRpcError(new Error('boom'))).toEqual({ code: -32603, message: 'boom' });
  });

  it('durations in geth words', () => {
    expect(formatGoDuration(10_000)).toBe('10s');
    expect(formatGoDuration(1500)).toBe('1.5s');
    expect(formatGoDuration(300)).toBe('300ms');
    expect(formatGoDuration(300_000)).toBe('5m0s');
  });
});
