/** The error of a 07-tendermint header check, with a reason callers and tests can match on. */
export type LightClientErrorReason =
  | 'invalid-header'
  | 'chain-id-mismatch'
  | 'invalid-height'
  | 'header-hash-mismatch'
  | 'validators-hash-mismatch'
  | 'trusted-validators-hash-mismatch'
  | 'untrusted-validator-set'
  | 'insufficient-voting-power'
  | 'expired'
  | 'header-time';

export class LightClientError extends Error {
  override name = 'LightClientError';
  constructor(
    readonly reason: LightClientErrorReason,
    message: string,
  ) {
    super(message);
  }
}

export const invalid = (msg: string): LightClientError => new LightClientError('invalid-header', `invalid header: ${msg}`);
