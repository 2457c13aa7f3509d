import { describe, expect, it } from 'vitest';
import { toHexUpper } from '../crypto/encoding.js';
import { merkleRoot } from '../crypto/merkle.js';
import { encodeBlock } from './proto.js';
import { kvstoreBlock3 } from './fixtures/kvstore-block3.js';
import { makeBlockId, makePartSet, PART_SIZE } from './part-set.js';

describe('makeBlockId', () => {
  it('reproduces the block_id of a real block (header hash and parts hash over its proto bytes)', () => {
    const { blockId, size } = makeBlockId(kvstoreBlock3());
    expect(toHexUpper(blockId.hash)).toBe('7874C9B73AB92A004ABEEEE02FEF71616A632D7908A82CDF3C670CE76B9678B6');
    expect(blockId.partSetHeader.total).toBe(1);
    expect(toHexUpper(blockId.partSetHeader.hash)).toBe('D3EDB56FC35178B78C2416D2E6C639CAAFC76BE7C92A4B2CF0D098FAC79322E1');
    expect(size).toBe(encodeBlock(kvstoreBlock3()).length);
  });

  it('splits a block larger than one part', () => {
    const block = kvstoreBlock3();
    block.data.txs = [new Uint8Array(PART_SIZE + 100).fill(7)];
    const { blockId, size } = makeBlockId(block);
    expect(size).toBeGreaterThan(PART_SIZE);
    expect(blockId.partSetHeader.total).toBe(2);
  });
});

describe('makePartSet', () => {
  it.each([
    [1, 1],
    [PART_SIZE, 1],
    [PART_SIZE + 1, 2],
    [3 * PART_SIZE, 3],
  ])('cuts %i bytes into %i parts of at most PART_SIZE', (len, total) => {
    const bytes = new Uint8Array(len).map((_, i) => i % 251);
    const { header, parts } = makePartSet(bytes);
    expect(header.total).toBe(total);
    expect(parts).toHaveLength(total);
    expect(parts.every((p) => p.length <= PART_SIZE)).toBe(true);
    expect(parts.reduce((n, p) => n + p.length, 0)).toBe(len);
    expect(header.hash).toEqual(merkleRoot(parts));
  });

  it('hashes the raw part bytes, not their hashes', () => {
    const bytes = new Uint8Array([1, 2, 3]);
    expect(makePartSet(bytes).header.hash).toEqual(merkleRoot([bytes]));
  });

  it('uses PART_SIZE = 65536 as CometBFT', () => {
    expect(PART_SIZE).toBe(65536);
  });
});
