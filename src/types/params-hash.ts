/** Header `consensus_hash`: sha256 of HashedParams{block.max_bytes, block.max_gas} (CometBFT ConsensusParams.Hash). */
import { sha256 } from '../crypto/hash.js';
import { encodeHashedParams } from './proto.js';
import type { ConsensusParams } from './params.js';

export function consensusParamsHash(p: ConsensusParams): Uint8Array {
  return sha256(encodeHashedParams(p.block.maxBytes, p.block.maxGas));
}
