/** Commit hash (header `last_commit_hash`): merkle root over the proto-encoded CommitSigs. */
import { merkleRoot } from '../crypto/merkle.js';
import { encodeCommitSig } from './proto.js';
import type { Commit } from './block.js';

export function commitHash(c: Commit): Uint8Array {
  return merkleRoot(c.signatures.map(encodeCommitSig));
}
