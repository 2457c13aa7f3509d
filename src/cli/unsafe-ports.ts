/**
 * Ports that browsers and Node's `fetch` refuse to connect to (ERR_UNSAFE_PORT): the fetch
 * standard's "bad ports". Every Chainlet server is HTTP or WebSocket that a browser page (the
 * explorer, a dapp, a wallet) or a Node client over `fetch` (viem, cosmjs, @solana/kit) reaches, so
 * `chainlet start` refuses such a port for any of them, naming the flag, rather than start a server
 * those clients cannot reach.
 */
import { CONFIG_KEYS, keyName } from '../config/keys.js';
import { parseListenAddress } from '../config/listen-address.js';
import type { NodeConfig } from '../config/types.js';
import { UsageError } from './node-options.js';

/** https://fetch.spec.whatwg.org/#port-blocking (the same list Chromium, Firefox and undici block). */
export const FETCH_BAD_PORTS: ReadonlySet<number> = new Set([
  1, 7, 9, 11, 13, 15, 17, 19, 20, 21, 22, 23, 25, 37, 42, 43, 53, 69, 77, 79, 87, 95, 101, 102, 103, 104, 109, 110, 111, 113, 115, 117, 119, 123, 135, 137,
  139, 143, 161, 179, 389, 427, 465, 512, 513, 514, 515, 526, 530, 531, 532, 540, 548, 554, 556, 563, 587, 601, 636, 989, 990, 993, 995, 1719, 1720, 1723, 2049,
  3659, 4045, 4190, 5060, 5061, 6000, 6566, 6665, 6666, 6667, 6668, 6669, 6679, 6697, 10080,
]);

export interface ListenFlag {
  /** The flag that sets the address, e.g. `--routing.address`. */
  flag: string;
  address: string;
}

/** The listen addresses of the config table's keys, as the effective config has them. */
export function configListenFlags(cfg: NodeConfig): ListenFlag[] {
  const out: ListenFlag[] = [];
  for (const k of CONFIG_KEYS) {
    if (!k.address) continue;
    const [a, b] = k.path;
    const value = b === undefined ? cfg[a] : (cfg[a] as unknown as Record<string, unknown>)[b];
    if (typeof value === 'string' && value !== '') out.push({ flag: `--${keyName(k)}`, address: value });
  }
  return out;
}

/** Throws a UsageError naming the first flag whose port browsers and fetch refuse. */
export function refuseUnsafePorts(flags: readonly ListenFlag[]): void {
  for (const { flag, address } of flags) {
    let port: number;
    try {
      port = parseListenAddress(address, flag).port;
    } catch {
      continue; // a malformed address has its own error where it is parsed
    }
    if (FETCH_BAD_PORTS.has(port)) {
      throw new UsageError(
        `invalid value "${address}" for ${flag}: port ${port} is one browsers and Node's fetch refuse to connect to (ERR_UNSAFE_PORT, the fetch standard's bad ports); choose another port`,
      );
    }
  }
}
