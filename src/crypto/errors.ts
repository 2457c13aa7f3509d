/** Errors thrown by the crypto helpers. Each carries the offending input so callers can report it. */

export class InvalidHexError extends Error {
  override readonly name = 'InvalidHexError';
  constructor(
    readonly input: string,
    readonly reason: 'odd length' | 'invalid character',
  ) {
    super(`invalid hex string (${reason}): ${input.length > 80 ? `${input.slice(0, 80)}…` : input}`);
  }
}

export class InvalidBase64Error extends Error {
  override readonly name = 'InvalidBase64Error';
  constructor(readonly input: string) {
    super(`invalid base64 string: ${input.length > 80 ? `${input.slice(0, 80)}…` : input}`);
  }
}

export class InvalidKeyLengthError extends Error {
  override readonly name = 'InvalidKeyLengthError';
  constructor(
    readonly what: 'ed25519 seed' | 'ed25519 public key',
    readonly expected: number,
    readonly actual: number,
  ) {
    super(`${what} must be ${expected} bytes, got ${actual}`);
  }
}

export class InvalidBech32Error extends Error {
  override readonly name = 'InvalidBech32Error';
  constructor(
    readonly input: string,
    override readonly cause?: unknown,
  ) {
    super(`invalid bech32 string: ${input}${cause instanceof Error ? ` (${cause.message})` : ''}`);
  }
}
