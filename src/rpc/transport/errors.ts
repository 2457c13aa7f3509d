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

/** Readable causes of the common listen failures (node's errno codes). */
const LISTEN_CAUSES: Record<string, string> = {
  EADDRINUSE: 'the address is already in use (another process is listening there)',
  EACCES: 'permission denied (ports below 1024 need privileges)',
  EADDRNOTAVAIL: 'the host is not an address of this machine',
  ENOTFOUND: 'the host name cannot be resolved',
};

/** The listen socket could not be opened (port in use, bad host…). */
export class ListenError extends TransportError {
  override name = 'ListenError';
  /** node's errno code of the cause, e.g. `EADDRINUSE`, when known. */
  readonly code: string | undefined;
  constructor(
    readonly host: string,
    readonly port: number,
    override readonly cause?: unknown,
  ) {
    const code = (cause as NodeJS.ErrnoException | undefined)?.code;
    const why = code && LISTEN_CAUSES[code] ? `: ${LISTEN_CAUSES[code]}` : cause instanceof Error ? `: ${cause.message}` : '';
    super(`cannot listen on ${host}:${port}${why}`);
    this.code = code;
  }
}
