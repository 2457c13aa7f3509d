/** Header `evidence_hash`. Chainlet produces no evidence, so only the empty list is supported. */
import { merkleRoot } from '../crypto/merkle.js';
import { UnsupportedEvidenceError } from '../codec/errors.js';

/** merkle([]) = sha256(""); throws UnsupportedEvidenceError for any evidence. */
export function evidenceHash(evidence: readonly unknown[]): Uint8Array {
  if (evidence.length > 0) throw new UnsupportedEvidenceError(evidence.length);
  return merkleRoot([]);
}
