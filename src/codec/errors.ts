/** Errors raised while encoding CometBFT protobuf messages. */

/** Chainlet never produces evidence, so only empty evidence lists can be encoded or hashed. */
export class UnsupportedEvidenceError extends Error {
  override readonly name = 'UnsupportedEvidenceError';
  constructor(readonly count: number) {
    super(`encoding evidence is not supported (got ${count} item${count === 1 ? '' : 's'})`);
  }
}
