/**
 * The human reason in revert data, as geth puts it after "execution reverted: ": the string of a
 * Solidity `Error(string)`, or the meaning of a `Panic(uint256)` code. Custom errors have no
 * reason (clients decode them from `data` with the ABI).
 */

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

function selector(d: Uint8Array): number {
  return ((d[0]! << 24) | (d[1]! << 16) | (d[2]! << 8) | d[3]!) >>> 0;
}

function word(d: Uint8Array, offset: number): bigint | undefined {
  if (offset + 32 > d.length) return undefined;
  return BigInt(`0x${Buffer.from(d.subarray(offset, offset + 32)).toString('hex')}`);
}

export function decodeRevertReason(d: Uint8Array): string | undefined {
  if (d.length < 4) return undefined;
  const sel = selector(d);
  if (sel === ERROR_SELECTOR) {
    const off = word(d, 4);
    if (off === undefined || off > BigInt(d.length)) return undefined;
    const start = 4 + Number(off);
    const len = word(d, start);
    if (len === undefined || BigInt(start + 32) + len > BigInt(d.length)) return undefined;
    return new TextDecoder().decode(d.subarray(start + 32, start + 32 + Number(len)));
  }
  if (sel === PANIC_SELECTOR) {
    const code = word(d, 4);
    if (code === undefined) return undefined;
    const known = code < 256n ? PANIC_REASONS[Number(code)] : undefined;
    return known ?? `unknown panic code: 0x${code.toString(16)}`;
  }
  return undefined;
}
