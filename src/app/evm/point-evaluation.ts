/**
 * The EIP-4844 point evaluation precompile (0x…0a) when no KZG library is configured: ethereumjs's
 * own throws "kzg not initialized" from inside the call, a JavaScript error rather than a failed
 * call (eth_call answered an internal error, and a block tx to it broke the block's state before the
 * executor unwound runTx's checkpoints). This one fails the call as Ethereum fails a bad input: its
 * gas and input checks are upstream's, and a well-formed input, whose proof cannot be verified
 * without the trusted setup, fails as an invalid proof, consuming the call's gas. Simplified: a
 * valid proof fails too (docs/rpc-eth.md).
 */
import { computeVersionedHash, bigIntToBytes, bytesToHex, setLengthLeft } from '@ethereumjs/util';
import { EVMError, type ExecResult, type PrecompileInput } from '@ethereumjs/evm';

/** 0x…0a. */
export const POINT_EVALUATION_ADDRESS = '0x000000000000000000000000000000000000000a';

const BLS_MODULUS = setLengthLeft(bigIntToBytes(52435875175126190479447740508185965837690552500527637822603658699938581184513n), 32);

function failed(error: string, gas: bigint): ExecResult {
  return { returnValue: new Uint8Array(0), executionGasUsed: gas, exceptionError: new EVMError(error as never) };
}

export async function pointEvaluationWithoutKzg(opts: PrecompileInput): Promise<ExecResult> {
  const gas = opts.common.param('kzgPointEvaluationPrecompileGas');
  if (opts.gasLimit < gas) return failed(EVMError.errorMessages.OUT_OF_GAS, opts.gasLimit);
  if (opts.data.length !== 192) return failed(EVMError.errorMessages.INVALID_INPUT_LENGTH, opts.gasLimit);
  const version = Number(opts.common.param('blobCommitmentVersionKzg'));
  if (computeVersionedHash(bytesToHex(opts.data.subarray(96, 144)), version) !== bytesToHex(opts.data.subarray(0, 32)))
    return failed(EVMError.errorMessages.INVALID_COMMITMENT, opts.gasLimit);
  if (Buffer.compare(opts.data.subarray(32, 64), BLS_MODULUS) >= 0 || Buffer.compare(opts.data.subarray(64, 96), BLS_MODULUS) >= 0)
    return failed(EVMError.errorMessages.INVALID_INPUTS, opts.gasLimit);
  return failed(EVMError.errorMessages.INVALID_PROOF, opts.gasLimit);
}
