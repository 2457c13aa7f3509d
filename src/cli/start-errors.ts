/** One clear line for a failed start: which address is busy and which flag or key moves it, or which flag is out of range. */
import { keyName, CONFIG_KEYS } from '../config/keys.js';
import { parseListenAddress } from '../config/listen-address.js';
import type { NodeConfig } from '../config/types.js';
import { OfflineValidatorIndexError } from '../node/chain-core.js';
import { ListenError } from '../rpc/transport/errors.js';

/** The listen-address keys, with the short flag that also moves each one. */
const ADDRESS_KEYS: { key: string; shortFlag?: string }[] = [
  { key: 'rpc.laddr' },
  { key: 'json-rpc.address', shortFlag: '--port' },
  { key: 'json-rpc.ws-address', shortFlag: '--port (WebSocket = port + 1)' },
  { key: 'routing.address' },
];

export function describeStartError(err: Error, cfg: NodeConfig): string {
  if (err instanceof OfflineValidatorIndexError)
    return `invalid value "${err.index}" for --offline-validators: expected comma-separated validator indices from 0 to ${err.count - 1} (the home's genesis has ${err.count} validators in this process)`;
  if (!(err instanceof ListenError)) return err.message;
  for (const { key, shortFlag } of ADDRESS_KEYS) {
    const k = CONFIG_KEYS.find((x) => keyName(x) === key)!;
    const [a, b] = k.path;
    const value = (cfg[a] as unknown as Record<string, unknown>)[b!] as string;
    let port: number;
    try {
      port = parseListenAddress(value, key).port;
    } catch {
      continue;
    }
    if (port !== 0 && port === err.port) {
      const toml = `[${k.section}] ${k.name} in config/${k.file}.toml`;
      return `${err.message}. Move it with --${key} <host:port>${shortFlag ? ` or ${shortFlag}` : ''} (${toml}).`;
    }
  }
  return err.message;
}
