import { describe, expect, it } from 'vitest';
import { BlockIDFlag } from '../abci/types.js';
import { fromBase64, fromHex, toHexUpper } from '../crypto/encoding.js';
import { merkleRoot } from '../crypto/merkle.js';
import { encodeBlock } from '../codec/proto.js';
import type { Block } from './block.js';
import { makeBlockId, makePartSet, PART_SIZE } from './part-set.js';
import { parseRfc3339 } from './time.js';

/** Block 3 of a CometBFT kvstore test chain, from its /block RPC response. */
function kvstoreBlock3(): Block {
  const lastBlockId = {
    hash: fromHex('A6D7F1807C5B793AF033DCDFA7F6A0277892FC0667D3D551C7F02A7301375FB2'),
    partSetHeader: { total: 1, hash: fromHex('F650172F9AF96F2F4C5667FF25DBEEAE91E570E2F1022ED47643891B0E0A5FD7') },
  };
  return {
    header: {
      version: { block: 11, app: 0 },
      chainId: 'test-chain-ICfzT7',
      height: 3,
      time: parseRfc3339('2023-03-07T12:05:13.763628292Z'),
      lastBlockId,
      lastCommitHash: fromHex('6DDB90D8F9C10C7DFD14A24C8D6B45DE52424D38C6ED7E75EE5448AEA7564EE1'),
      dataHash: fromHex('8609FB8DFC53717A6DB5B58F601092CB5FFE80E1D354DA454942BA88EF3E077D'),
      validatorsHash: fromHex('582449ED5B7A5406FB53D4CA78F3DA52B95805A99206B0F2479EA901B0FF3852'),
      nextValidatorsHash: fromHex('582449ED5B7A5406FB53D4CA78F3DA52B95805A99206B0F2479EA901B0FF3852'),
      consensusHash: fromHex('048091BC7DDC283F77BFBF91D73C44DA58C3DF8A9CBC867405D8B7F3DAADA22F'),
      appHash: new Uint8Array(0),
      lastResultsHash: fromHex('6E340B9CFFB37A989CA544E6BB780A2C78901D3FB33738768511A30617AFA01D'),
      evidenceHash: fromHex('E3B0C44298FC1C149AFBF4C8996FB92427AE41E4649B934CA495991B7852B855'),
      proposerAddress: fromHex('B12306BE80788BE3C71CE14377A93565C8831EEE'),
    },
    data: { txs: [fromBase64('dGVuZGV0b2xsPXJvY2tz')] },
    evidence: { evidence: [] },
    lastCommit: {
      height: 2,
      round: 0,
      blockId: lastBlockId,
      signatures: [
        {
          blockIdFlag: BlockIDFlag.Commit,
          validatorAddress: fromHex('B12306BE80788BE3C71CE14377A93565C8831EEE'),
          timestamp: parseRfc3339('2023-03-07T12:05:13.763628292Z'),
          signature: fromBase64('sFMBe/KQJ0MJtThBJFHHfaR5T3AlT+wRtJsvb5yFppVWfOkxyZeXsFogTL05p+cgc99Twdtcxd7kpQ2rSc/2CA=='),
        },
      ],
    },
  };
}

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
