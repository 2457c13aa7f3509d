import { describe, expect, it } from 'vitest';
import { SvmHistory, type SvmTxRecord } from './history.js';

const rec = (signature: string, slot: bigint, keys: string[]): SvmTxRecord => ({
  signature,
  slot,
  blockTime: 0n,
  wire: new Uint8Array([1]),
  fee: 5000n,
  accountKeys: keys,
  preBalances: keys.map(() => 0n),
  postBalances: keys.map(() => 0n),
  logs: [],
  computeUnits: 0n,
  err: null,
  changed: [],
});
const block = (slot: bigint) => ({ slot, blockhash: `h${slot}`, timeMs: 0, blockHeight: slot });

describe('SvmHistory', () => {
  it('at maxRecords evicts the oldest record; its slot and older count as cleaned up', () => {
    const h = new SvmHistory(2, 100);
    h.add(rec('a', 1n, ['X']));
    h.closeBlock(block(0n));
    h.closeBlock(block(1n));
    h.add(rec('b', 2n, ['X', 'Y']));
    h.closeBlock(block(2n));
    expect(h.firstAvailableBlock()).toBe(0n);
    h.add(rec('c', 3n, ['X']));
    expect(h.get('a')).toBeUndefined();
    expect(h.firstAvailableBlock()).toBe(2n);
    expect(h.block(1n)).toBeUndefined();
    expect(h.block(2n)?.txs.map((r) => r.signature)).toEqual(['b']);
    expect(h.signaturesFor('X', { limit: 10, maxSlot: 10n }).map((r) => r.signature)).toEqual(['c', 'b']);
    expect(h.signaturesFor('X', { limit: 10, maxSlot: 2n }).map((r) => r.signature)).toEqual(['b']);
    expect(h.signaturesFor('X', { before: 'a', limit: 10, maxSlot: 10n })).toEqual([]);
  });

  it('at maxBlocks keeps the newest blocks', () => {
    const h = new SvmHistory(100, 3);
    for (let s = 0n; s < 6n; s++) h.closeBlock(block(s));
    expect(h.firstAvailableBlock()).toBe(3n);
    expect([...h.allBlocks()].map((b) => b.slot)).toEqual([3n, 4n, 5n]);
  });

  it('keeps evicting the oldest block and record through long churn (its cursors survive the maps compacting)', () => {
    const h = new SvmHistory(50, 20);
    for (let s = 0n; s < 5_000n; s++) {
      h.closeBlock(block(s));
      h.add(rec(`sig${s}`, s, ['X']));
    }
    expect([...h.allBlocks()].map((b) => b.slot)).toEqual(Array.from({ length: 20 }, (_, i) => 4_980n + BigInt(i)));
    expect(h.size).toBe(50);
    expect(h.get('sig4949')).toBeUndefined();
    expect(h.get('sig4950')?.slot).toBe(4_950n);
    expect(h.firstAvailableBlock()).toBe(4_980n);
    expect(h.signaturesFor('X', { limit: 100, maxSlot: 10_000n })).toHaveLength(50);
  });
});
