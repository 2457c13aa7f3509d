/**
 * geth's words for EVM halts (core/vm/errors.go) and for the reason inside revert data
 * (accounts/abi.UnpackRevert): what calls report as a halt's error and traces show in `error` and
 * `revertReason`.
 */
import { EVMError } from '@ethereumjs/evm';

const M = EVMError.errorMessages;

const GETH_TEXT: Record<string, string> = {
  [M.REVERT]: 'execution reverted',
  [M.OUT_OF_GAS]: 'out of gas',
  [M.CODESTORE_OUT_OF_GAS]: 'contract creation code storage out of gas',
  [M.CODESIZE_EXCEEDS_MAXIMUM]: 'max code size exceeded',
  [M.STACK_UNDERFLOW]: 'stack underflow',
  [M.STACK_OVERFLOW]: 'stack limit reached 1024',
  [M.INVALID_JUMP]: 'invalid jump destination',
  [M.OUT_OF_RANGE]: 'return data out of bounds',
  [M.STATIC_STATE_CHANGE]: 'write protection',
  [M.CREATE_COLLISION]: 'contract address collision',
  [M.VALUE_OVERFLOW]: 'gas uint64 overflow',
  [M.INSUFFICIENT_BALANCE]: 'insufficient balance for transfer',
  [M.INVALID_BYTECODE_RESULT]: 'invalid code: must not begin with 0xef',
  [M.INITCODE_SIZE_VIOLATION]: 'max initcode size exceeded',
};

/**
 * geth's text for an ethereumjs halt. An invalid opcode names the opcode as geth does
 * (`invalid opcode: INVALID`, `invalid opcode: opcode 0xc not defined`) when it is known.
 */
export function gethErrorText(err: EVMError, lastOp?: { op: number; name: string }): string {
  if (err.error === M.INVALID_OPCODE) {
    if (lastOp === undefined) return 'invalid opcode';
    return lastOp.op === 0xfe ? 'invalid opcode: INVALID' : `invalid opcode: opcode 0x${lastOp.op.toString(16)} not defined`;
  }
  return GETH_TEXT[err.error] ?? err.error;
}

export function isRevert(err: EVMError | undefined): boolean {
  return err?.error === M.REVERT;
}

const ERROR_SELECTOR = 0x08c379a0;
const PANIC_SELECTOR = 0x4e487b71;

const PANIC_REASONS: Record<number, string> = {
  0x00: 'generic panic',
  0x01: 'assert(false)',
  0x11: 'arithmetic underflow or overflow',
  0x12: 'division or modulo by zero',
  0x21: 'enum overflow',
  0x22: 'invalid encoded storage byte array accessed',
  0x31: 'out-of-bounds array access; popping on an empty array',
  0x32: 'out-of-bounds access of an array or bytesN',
  0x41: 'out of memory',
  0x51: 'uninitialized function',
};

/** The reason of an `Error(string)` or `Panic(uint256)` revert; undefined for anything else. */
export function revertReason(data: Uint8Array): string | undefined {
  if (data.length < 4) return undefined;
  const sel = ((data[0]! << 24) | (data[1]! << 16) | (data[2]! << 8) | data[3]!) >>> 0;
  if (sel === ERROR_SELECTOR) {
    const offset = readWord(data, 4);
    if (offset === undefined || offset > BigInt(data.length)) return undefined;
    const start = 4 + Number(offset);
    const len = readWord(data, start);
    if (len === undefined || BigInt(start + 32) + len > BigInt(data.length)) return undefined;
    return new TextDecoder().decode(data.subarray(start + 32, start + 32 + Number(len)));
  }
  if (sel === PANIC_SELECTOR) {
    const code = readWord(data, 4);
    if (code === undefined) return undefined;
    return (code < 256n ? PANIC_REASONS[Number(code)] : undefined) ?? `unknown panic code: 0x${code.toString(16)}`;
  }
  return undefined;
}

function readWord(d: Uint8Array, offset: number): bigint | undefined {
  if (offset + 32 > d.length) return undefined;
  return BigInt(`0x${Buffer.from(d.subarray(offset, offset + 32)).toString('hex')}`);
}
