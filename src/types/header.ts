/**
 * Block header hash (= block hash = BlockID.hash), as CometBFT `Header.Hash()`: the merkle root
 * of the 14 header fields, each proto-encoded on its own (scalars through gogotypes wrappers, so
 * empty values become empty leaves).
 */
import { merkleRoot } from '../crypto/merkle.js';
import { encodeBlockID, encodeBytesValue, encodeConsensusVersion, encodeInt64Value, encodeStringValue, encodeTimestamp } from './proto.js';
import type { Header } from './block.js';

/** The header hash; empty when `validatorsHash` is empty (CometBFT returns nil for such a header). */
export function headerHash(h: Header): Uint8Array {
  if (h.validatorsHash.length === 0) return new Uint8Array(0);
  return merkleRoot([
    encodeConsensusVersion(h.version),
    encodeStringValue(h.chainId),
    encodeInt64Value(h.height),
    encodeTimestamp(h.time),
    encodeBlockID(h.lastBlockId),
    encodeBytesValue(h.lastCommitHash),
    encodeBytesValue(h.dataHash),
    encodeBytesValue(h.validatorsHash),
    encodeBytesValue(h.nextValidatorsHash),
    encodeBytesValue(h.consensusHash),
    encodeBytesValue(h.appHash),
    encodeBytesValue(h.lastResultsHash),
    encodeBytesValue(h.evidenceHash),
    encodeBytesValue(h.proposerAddress),
  ]);
}
