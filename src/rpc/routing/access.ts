/**
 * Who is calling, and may they: the API key in the `authorization` header (the bare key, as the
 * Skip Go API sends it; a `Bearer ` prefix is tolerated), checked in constant time by the store.
 * A present but invalid key is refused (401, code 16); callers without a key share one global
 * token bucket (429, code 8, past it); callers with a valid key are never limited.
 */
import type { ApiKeyInfo, ApiKeyStore } from './api-keys.js';
import { RateLimitedError, UnauthenticatedError } from './errors.js';
import type { TokenBucket } from './token-bucket.js';

export type Caller = { kind: 'key'; key: ApiKeyInfo } | { kind: 'anonymous' };

/** Headers telling a caller that `client_id` is deprecated (RFC 9745 Deprecation + a 299 Warning). */
export const CLIENT_ID_DEPRECATION_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  deprecation: 'true',
  warning: '299 - "client_id is deprecated; use the authorization header"',
});

export function readApiKey(headers: Record<string, string>): string | undefined {
  const raw = headers['authorization']?.trim();
  if (!raw) return undefined;
  return /^bearer\s+/i.test(raw) ? raw.replace(/^bearer\s+/i, '') : raw;
}

export class AccessGate {
  constructor(
    private readonly keys: ApiKeyStore,
    private readonly bucket: TokenBucket,
  ) {}

  /** Identifies the caller and, for a caller without a key on a limited route, takes a token. */
  admit(headers: Record<string, string>, limited: boolean): Caller {
    const key = readApiKey(headers);
    if (key !== undefined) {
      const info = this.keys.verify(key);
      if (!info) throw new UnauthenticatedError();
      return { kind: 'key', key: info };
    }
    if (limited) {
      const t = this.bucket.take();
      if (!t.ok) throw new RateLimitedError(t.retryAfterMs);
    }
    return { kind: 'anonymous' };
  }
}
