import { describe, expect, it } from 'vitest';
import { toHexUpper } from '../crypto/encoding.js';
import { UnsupportedEvidenceError } from '../codec/errors.js';
import { evidenceHash } from './evidence.js';

describe('evidenceHash', () => {
  it('is sha256("") for no evidence', () => {
    expect(toHexUpper(evidenceHash([]))).toBe('E3B0C44298FC1C149AFBF4C8996FB92427AE41E4649B934CA495991B7852B855');
  });

  it('rejects evidence it cannot encode', () => {
    expect(() => evidenceHash([{ type: 'duplicate_vote' }])).toThrow(UnsupportedEvidenceError);
  });
});
