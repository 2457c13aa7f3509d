import type { MerkleStateManager } from '@ethereumjs/statemanager';
import { describe, expect, it } from 'vitest';
import type { ContractCallResult, ContractCalls } from './erc20-read.js';
import { Erc20Tokens } from './erc20-tokens.js';

const TOKEN = '0x00000000000000000000000000000000000e2c20';
const word = (n: number): ContractCallResult => ({ returnValue: Uint8Array.from({ length: 32 }, (_, i) => (i === 31 ? n : 0)) });

/** Calls answering `answer` (counted), over a state whose only contract has code hash `codeHash.at`. */
function fixture(answer: () => ContractCallResult[]) {
  const codeHash = { at: 1 };
  const calls: ContractCalls & { count: number } = {
    count: 0,
    async readContract() {
      calls.count++;
      return answer();
    },
  };
  const state = { getAccount: async () => ({ codeHash: new Uint8Array(32).fill(codeHash.at) }) } as unknown as MerkleStateManager;
  return { tokens: new Erc20Tokens([TOKEN], calls, async () => state), calls, codeHash };
}

describe('Erc20Tokens.list', () => {
  it('does not read again a token whose reads timed out until its code changes', async () => {
    let timeout = true;
    const f = fixture(() =>
      timeout
        ? [
            { error: 'execution aborted (timeout = 5s)', timedOut: true },
            { error: 'x', timedOut: true },
            { error: 'x', timedOut: true },
          ]
        : [word(6), word(0), word(0)],
    );
    expect(await f.tokens.list()).toEqual([]);
    expect(await f.tokens.list()).toEqual([]);
    expect(f.calls.count).toBe(1);
    timeout = false;
    f.codeHash.at = 2;
    expect((await f.tokens.list()).map((t) => t.meta.decimals)).toEqual([6]);
    expect(await f.tokens.list()).toHaveLength(1);
    expect(f.calls.count).toBe(2);
  });

  it('reads again a token whose decimals() reverted (a proxy may be set up later)', async () => {
    const f = fixture(() => [{ error: 'execution reverted' }, { error: 'execution reverted' }, { error: 'execution reverted' }]);
    expect(await f.tokens.list()).toEqual([]);
    expect(await f.tokens.list()).toEqual([]);
    expect(f.calls.count).toBe(2);
  });
});
