/** Errors raised while starting the transport (request-time failures become HTTP statuses, not throws). */

export class TransportError extends Error {
  override name = 'TransportError';
}

/** A backend name that is not 'auto', 'uws' or 'node' (from options or CHAINLET_HTTP_BACKEND). */
export class InvalidBackendError extends TransportError {
  override name = 'InvalidBackendError';
  constructor(
    readonly value: string,
    readonly source: 'option' | 'env',
  ) {
    super(`invalid HTTP backend ${JSON.stringify(value)} (from ${source}): expected auto, uws or node`);
  }
}

/** 'uws' was asked for explicitly but the native module does not load on this platform. */
export class BackendUnavailableError extends TransportError {
  override name = 'BackendUnavailableError';
  constructor(
    readonly backend: 'uws',
    override readonly cause: unknown,
  ) {
    super(`HTTP backend ${backend} is not available: ${cause instanceof Error ? cause.message : String(cause)}`);
  }
}

/** The listen socket could not be opened (port in use, bad host…). */
export class ListenError extends TransportError {
  override name = 'ListenError';
  constructor(
    readonly host: string,
    readonly port: number,
    override readonly cause?: unknown,
  ) {
    const why = cause instanceof Error ? `: ${cause.message}` : '';
    super(`cannot listen on ${host}:${port}${why}`);
  }
}
