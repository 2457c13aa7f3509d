import { createEVM } from '@ethereumjs/evm';
import { describe, expect, it } from 'vitest';
import { createChainCommon } from '../chain-common.js';
import { mstore, word32, type OpState } from './fast-ops.js';

const common = createChainCommon({ chainId: 9000n, hardfork: 'prague' });
const WORDS = [0n, 1n, 0xffn, 0x100n, 2n ** 64n - 1n, 2n ** 64n, 2n ** 128n + 5n, 2n ** 192n - 1n, 2n ** 255n, 2n ** 256n - 1n, 0x1234567890abcdefn << 100n];

/** A run state shaped as ethereumjs's handlers see it: a stack and a memory. */
function state(offset: bigint, word: bigint) {
  const stack = [word, offset];
  const mem = new Uint8Array(128);
  return {
    mem,
    rs: {
      stack: { popN: (n: number) => stack.splice(-n).reverse() },
      memory: {
        write(o: number, size: number, value: Uint8Array) {
          if (value.length !== size) throw new Error('size');
          mem.set(value, o);
        },
      },
    },
  };
}

describe('fast MSTORE', () => {
  it('word32 is the big-endian 32-byte word', () => {
    for (const w of WORDS) expect(Buffer.from(word32(w)).toString('hex')).toBe(w.toString(16).padStart(64, '0'));
  });

  it("writes what ethereumjs's MSTORE writes", async () => {
    const evm = await createEVM({ common, params: {} });
    const original = (evm as unknown as { _opcodeMap: { opHandler: (rs: unknown) => void }[] })._opcodeMap[0x52]!.opHandler;
    for (const w of WORDS) {
      for (const off of [0n, 1n, 31n, 64n]) {
        const a = state(off, w);
        const b = state(off, w);
        mstore(a.rs as unknown as OpState);
        original(b.rs);
        expect(Buffer.from(a.mem).toString('hex')).toBe(Buffer.from(b.mem).toString('hex'));
      }
    }
  });
});
