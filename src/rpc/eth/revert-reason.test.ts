import { describe, expect, it } from 'vitest';
import { encodeErrorResult, parseAbi } from 'viem';
import { decodeRevertReason } from './revert-reason.js';

const abi = parseAbi(['error Error(string)', 'error Panic(uint256)', 'error Custom(uint256)']);
const bytes = (h: string) => new Uint8Array(Buffer.from(h.slice(2), 'hex'));

describe('revert reasons', () => {
  it('Error(string), Panic(uint256), custom errors, junk', () => {
    expect(decodeRevertReason(bytes(encodeErrorResult({ abi, errorName: 'Error', args: ['nope'] })))).toBe('nope');
    expect(decodeRevertReason(bytes(encodeErrorResult({ abi, errorName: 'Panic', args: [0x11n] })))).toBe('arithmetic underflow or overflow');
    expect(decodeRevertReason(bytes(encodeErrorResult({ abi, errorName: 'Panic', args: [0x99n] })))).toBe('unknown panic code: 0x99');
    expect(decodeRevertReason(bytes(encodeErrorResult({ abi, errorName: 'Custom', args: [1n] })))).toBeUndefined();
    expect(decodeRevertReason(Uint8Array.of(0x08, 0xc3, 0x79, 0xa0, 1))).toBeUndefined();
    expect(decodeRevertReason(new Uint8Array(0))).toBeUndefined();
  });
});
