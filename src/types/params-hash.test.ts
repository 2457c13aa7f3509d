import { describe, expect, it } from 'vitest';
import { toHexUpper } from '../crypto/encoding.js';
import { sha256 } from '../crypto/hash.js';
import { encodeHashedParams } from './proto.js';
import { consensusParamsHash } from './params-hash.js';
import { defaultConsensusParams } from './params.js';

describe('consensusParamsHash', () => {
  it('matches consensus_hash of chains with default params (max_bytes 22020096, max_gas -1)', () => {
    expect(toHexUpper(consensusParamsHash(defaultConsensusParams()))).toBe('048091BC7DDC283F77BFBF91D73C44DA58C3DF8A9CBC867405D8B7F3DAADA22F');
  });

  it('depends only on block max bytes and max gas', () => {
    const p = defaultConsensusParams();
    const q = defaultConsensusParams();
    q.evidence.maxAgeNumBlocks = 1;
    q.version.app = 3;
    expect(consensusParamsHash(q)).toEqual(consensusParamsHash(p));
    q.block.maxGas = 30_000_000;
    expect(consensusParamsHash(q)).toEqual(sha256(encodeHashedParams(22_020_096, 30_000_000)));
    expect(consensusParamsHash(q)).not.toEqual(consensusParamsHash(p));
  });
});
