/** Listen addresses as the config files write them: "tcp://127.0.0.1:26657", "127.0.0.1:8545", "[::1]:8080". */

export class InvalidListenAddressError extends RangeError {
  override name = 'InvalidListenAddressError';
  constructor(
    readonly key: string,
    readonly address: string,
  ) {
    super(`invalid ${key} "${address}": expected host:port with a port from 0 to 65535`);
  }
}

/** Splits an address into host (default 127.0.0.1, IPv6 brackets removed) and port (0 = the OS picks). */
export function parseListenAddress(address: string, key: string): { host: string; port: number } {
  const s = address.replace(/^[a-z]+:\/\//, '');
  const i = s.lastIndexOf(':');
  const portText = s.slice(i + 1);
  const port = Number(portText);
  if (i < 0 || portText === '' || !Number.isInteger(port) || port < 0 || port > 65535) throw new InvalidListenAddressError(key, address);
  return { host: s.slice(0, i).replace(/^\[|\]$/g, '') || '127.0.0.1', port };
}
