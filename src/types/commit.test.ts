import { describe, expect, it } from 'vitest';
import { BlockIDFlag } from './block.js';
import { fromBase64, fromHex, toHexUpper } from '../crypto/encoding.js';
import { merkleRoot } from '../crypto/merkle.js';
import { encodeCommitSig } from './proto.js';
import { EMPTY_BLOCK_ID, type Commit } from './block.js';
import { commitHash } from './commit.js';
import { parseRfc3339, ZERO_TIME } from './time.js';

describe('commitHash', () => {
  it('matches last_commit_hash of a real block (kvstore chain, height 3)', () => {
    const blockId = {
      hash: fromHex('A6D7F1807C5B793AF033DCDFA7F6A0277892FC0667D3D551C7F02A7301375FB2'),
      partSetHeader: { total: 1, hash: fromHex('F650172F9AF96F2F4C5667FF25DBEEAE91E570E2F1022ED47643891B0E0A5FD7') },
    };
    const commit: Commit = {
      height: 2,
      round: 0,
      blockId,
      signatures: [
        {
          blockIdFlag: BlockIDFlag.Commit,
          validatorAddress: fromHex('B12306BE80788BE3C71CE14377A93565C8831EEE'),
          timestamp: parseRfc3339('2023-03-07T12:05:13.763628292Z'),
          signature: fromBase64('sFMBe/KQJ0MJtThBJFHHfaR5T3AlT+wRtJsvb5yFppVWfOkxyZeXsFogTL05p+cgc99Twdtcxd7kpQ2rSc/2CA=='),
        },
      ],
    };
    expect(toHexUpper(commitHash(commit))).toBe('6DDB90D8F9C10C7DFD14A24C8D6B45DE52424D38C6ED7E75EE5448AEA7564EE1');
  });

  it('is sha256("") for the empty commit of the initial height', () => {
    const empty: Commit = { height: 0, round: 0, blockId: EMPTY_BLOCK_ID, signatures: [] };
    expect(toHexUpper(commitHash(empty))).toBe('E3B0C44298FC1C149AFBF4C8996FB92427AE41E4649B934CA495991B7852B855');
  });

  it('includes absent signatures as leaves, in order', () => {
    const sigs = [
      {
        blockIdFlag: BlockIDFlag.Commit,
        validatorAddress: new Uint8Array(20).fill(1),
        timestamp: { seconds: 10, nanos: 0 },
        signature: new Uint8Array(64).fill(2),
      },
      { blockIdFlag: BlockIDFlag.Absent, validatorAddress: new Uint8Array(0), timestamp: ZERO_TIME, signature: null },
    ];
    const c: Commit = { height: 5, round: 1, blockId: EMPTY_BLOCK_ID, signatures: sigs };
    expect(commitHash(c)).toEqual(merkleRoot(sigs.map(encodeCommitSig)));
    expect(commitHash(c)).not.toEqual(commitHash({ ...c, signatures: [...sigs].reverse() }));
  });
});
