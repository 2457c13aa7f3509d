import { Address } from '@ethereumjs/util';
import { describe, expect, it } from 'vitest';
import { newMemoryDb } from '../fixtures/test-chain.js';
import { AppStore, RECENT_BLOCKS, RECENT_TXS, type AppMeta } from './app-store.js';
import type { BlockRecord, ExecutedTx } from './block-record.js';

const bytes = (n: number, fill: number) => new Uint8Array(n).fill(fill);

function tx(i: number): ExecutedTx {
  return {
    bytes: bytes(110, i & 0xff),
    ethHash: Uint8Array.from({ length: 32 }, (_, k) => (k < 4 ? (i >> (8 * k)) & 0xff : 1)),
    sender: new Address(bytes(20, 9)),
    type: 2,
    to: new Address(bytes(20, 8)),
    status: 1,
    gasUsed: 21_000n,
    effectiveGasPrice: 1_000_000_000n,
    contractAddress: undefined,
    logs: [],
  };
}

function record(number: number, txs: number): BlockRecord {
  return {
    number,
    hash: bytes(32, number),
    parentHash: bytes(32, number - 1),
    timestamp: 1_700_000_000n + BigInt(number),
    coinbase: new Address(bytes(20, 4)),
    gasLimit: 30_000_000n,
    gasUsed: 21_000n * BigInt(txs),
    baseFee: 7n,
    stateRoot: bytes(32, 6),
    bloom: bytes(256, 0),
    txs: Array.from({ length: txs }, (_, i) => tx(number * 100_000 + i)),
  };
}

const meta = (lastHeight: number) => ({ lastHeight }) as unknown as AppMeta;

describe('AppStore recent blocks', () => {
  it('keeps the newest records decoded, at most RECENT_BLOCKS of them and RECENT_TXS txs together', async () => {
    const store = new AppStore(newMemoryDb());
    const small: BlockRecord[] = [];
    for (let h = 1; h <= RECENT_BLOCKS + 2; h++) {
      small.push(record(h, 1));
      await store.commit([], meta(h), small[h - 1]);
    }
    // the oldest two left the cache (read back from the store: equal, not the same object)
    expect(await store.getBlockRecord(1)).not.toBe(small[0]);
    expect(await store.getBlockRecord(1)).toMatchObject({ number: 1, txs: [{ gasUsed: 21_000n }] });
    expect(await store.getBlockRecord(RECENT_BLOCKS + 2)).toBe(small[RECENT_BLOCKS + 1]);

    // two big blocks: the older one goes once both hold more than RECENT_TXS txs
    const big1 = record(100, RECENT_TXS - 10);
    const big2 = record(101, 20);
    await store.commit([], meta(100), big1);
    expect(await store.getBlockRecord(100)).toBe(big1);
    await store.commit([], meta(101), big2);
    expect(await store.getBlockRecord(101)).toBe(big2);
    expect(await store.getBlockRecord(100)).not.toBe(big1);
    // a block over the bound alone still stays (the newest always does)
    const huge = record(102, RECENT_TXS + 1);
    await store.commit([], meta(102), huge);
    expect(await store.getBlockRecord(102)).toBe(huge);
  });
});
