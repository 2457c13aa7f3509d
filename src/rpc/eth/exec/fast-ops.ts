/**
 * Cheaper handlers for hot opcodes of the call EVMs, installed into each call EVM's own opcode
 * table (the app's block executor keeps ethereumjs's). They do what ethereumjs's handler does
 * without its costliest step; fast-ops.test.ts runs both on the same inputs.
 *
 * MSTORE: ethereumjs turns the word into bytes through a hex string and pads it with an array
 * spread (`setLengthLeft(bigIntToBytes(word), 32)`), ~5% of an ERC20 eth_call. Here the word is
 * written as four 64-bit halves of a 32-byte array.
 */
import type { EVM } from '@ethereumjs/evm';

interface MstoreState {
  stack: { popN(n: number): bigint[] };
  memory: { write(offset: number, size: number, value: Uint8Array): void };
}

interface OpEntry {
  opHandler: (rs: MstoreState) => void;
}

const MSTORE = 0x52;
const M64 = 0xffff_ffff_ffff_ffffn;

/** A stack word (0 ≤ v < 2^256) as 32 big-endian bytes. */
export function word32(v: bigint): Uint8Array {
  const out = new Uint8Array(32);
  if (v === 0n) return out;
  const dv = new DataView(out.buffer);
  dv.setBigUint64(0, v >> 192n);
  dv.setBigUint64(8, (v >> 128n) & M64);
  dv.setBigUint64(16, (v >> 64n) & M64);
  dv.setBigUint64(24, v & M64);
  return out;
}

export function mstore(rs: MstoreState): void {
  const [offset, word] = rs.stack.popN(2) as [bigint, bigint];
  rs.memory.write(Number(offset), 32, word32(word));
}

/** Puts the cheaper handlers into `evm`'s opcode table (gas functions and opcode info unchanged). */
export function installFastOps(evm: EVM): void {
  const map = (evm as unknown as { _opcodeMap: OpEntry[] })._opcodeMap;
  map[MSTORE]!.opHandler = mstore;
}
