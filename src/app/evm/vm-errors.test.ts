import { EVMError } from '@ethereumjs/evm';
import { describe, expect, it } from 'vitest';
import { gethErrorText, revertReason } from './vm-errors.js';

const hex = (h: string) => new Uint8Array(Buffer.from(h, 'hex'));
const word = (v: bigint | number) => BigInt(v).toString(16).padStart(64, '0');

describe('geth error texts', () => {
  it('maps ethereumjs halts to geth words', () => {
    const e = (m: string) => new EVMError(m as never);
    expect(gethErrorText(e(EVMError.errorMessages.REVERT))).toBe('execution reverted');
    expect(gethErrorText(e(EVMError.errorMessages.OUT_OF_GAS))).toBe('out of gas');
    expect(gethErrorText(e(EVMError.errorMessages.INVALID_JUMP))).toBe('invalid jump destination');
    expect(gethErrorText(e(EVMError.errorMessages.STATIC_STATE_CHANGE))).toBe('write protection');
    expect(gethErrorText(e(EVMError.errorMessages.INVALID_OPCODE), { op: 0xfe, name: 'INVALID' })).toBe('invalid opcode: INVALID');
    expect(gethErrorText(e(EVMError.errorMessages.INVALID_OPCODE), { op: 0x0c, name: 'UNKNOWN' })).toBe('invalid opcode: opcode 0xc not defined');
  });
});

describe('revertReason', () => {
  it('decodes Error(string) and Panic(uint256)', () => {
    const msg = Buffer.from('insufficient balance').toString('hex');
    expect(revertReason(hex(`08c379a0${word(32)}${word(20)}${msg.padEnd(64, '0')}`))).toBe('insufficient balance');
    expect(revertReason(hex(`4e487b71${word(0x11)}`))).toBe('arithmetic underflow or overflow');
    expect(revertReason(hex(`4e487b71${word(0x99)}`))).toBe('unknown panic code: 0x99');
  });

  it('gives nothing for custom errors and malformed data', () => {
    expect(revertReason(hex('deadbeef'))).toBeUndefined();
    expect(revertReason(hex('08c379a0'))).toBeUndefined();
    expect(revertReason(hex(`08c379a0${word(32)}${word(1000)}`))).toBeUndefined();
    expect(revertReason(new Uint8Array(0))).toBeUndefined();
  });
});
