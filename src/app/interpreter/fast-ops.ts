/**
 * Cheaper handlers for hot opcodes, installed into one EVM's own opcode table (the call EVMs' and
 * the block executor's; a reference-execution app and the tracers keep ethereumjs's). They do what ethereumjs's handler does
 * without its costliest step; fast-ops.test.ts runs both on the same inputs.
 *
 * ethereumjs turns a stack word into bytes through a hex string and pads it with an array spread
 * (`setLengthLeft(bigIntToBytes(word), 32)`): for MSTORE alone ~5% of an ERC20 eth_call. MSTORE,
 * SLOAD (the key) and LOG0–LOG4 (the topics) here write the word 32 bits at a time into a
 * 32-byte array instead; everything else they do is ethereumjs's.
 */
import { bytesToBigInt } from '@ethereumjs/util';
import type { EVM } from '@ethereumjs/evm';

/** The part of ethereumjs's RunState these handlers use. */
export interface OpState {
  opCode: number;
  stack: { pop(): bigint; popN(n: number): bigint[]; push(v: bigint): void };
  memory: { write(offset: number, size: number, value: Uint8Array): void; read(offset: number, size: number): Uint8Array };
  interpreter: {
    storageLoad(key: Uint8Array): Promise<Uint8Array>;
    log(data: Uint8Array, numberOfTopics: number, topics: Uint8Array[]): void;
  };
}

interface OpEntry {
  opHandler: (rs: OpState) => unknown;
}

const MSTORE = 0x52;
const SLOAD = 0x54;
const LOG0 = 0xa0;
const LOG4 = 0xa4;

/** A stack word (0 ≤ v < 2^256) as 32 big-endian bytes, 32 bits at a time (a DataView costs 6× more). */
export function word32(v: bigint): Uint8Array {
  const out = new Uint8Array(32);
  let i = 32;
  while (v > 0n) {
    const w = Number(BigInt.asUintN(32, v));
    i -= 4;
    out[i] = w >>> 24;
    out[i + 1] = (w >>> 16) & 0xff;
    out[i + 2] = (w >>> 8) & 0xff;
    out[i + 3] = w & 0xff;
    v >>= 32n;
  }
  return out;
}

export function mstore(rs: OpState): void {
  const [offset, word] = rs.stack.popN(2) as [bigint, bigint];
  rs.memory.write(Number(offset), 32, word32(word));
}

export async function sload(rs: OpState): Promise<void> {
  const value = await rs.interpreter.storageLoad(word32(rs.stack.pop()));
  rs.stack.push(value.length > 0 ? bytesToBigInt(value) : 0n);
}

export function log(rs: OpState): void {
  const [offset, length] = rs.stack.popN(2) as [bigint, bigint];
  const count = rs.opCode - LOG0;
  const topics = rs.stack.popN(count).map(word32);
  const data = length === 0n ? new Uint8Array(0) : rs.memory.read(Number(offset), Number(length));
  rs.interpreter.log(data, count, topics);
}

/** Puts the cheaper handlers into `evm`'s opcode table (gas functions and opcode info unchanged). */
export function installFastOps(evm: EVM): void {
  const map = (evm as unknown as { _opcodeMap: OpEntry[] })._opcodeMap;
  map[MSTORE]!.opHandler = mstore;
  map[SLOAD]!.opHandler = sload;
  for (let op = LOG0; op <= LOG4; op++) map[op]!.opHandler = log;
}
