/**
 * The shape of one config key of the key table (keys.ts): its TOML file, section and name (as
 * CometBFT / Cosmos EVM spell them), where it lands in `NodeConfig`, and what values it takes.
 */
import type { NodeConfig } from './types.js';

export type KeyKind = 'string' | 'int' | 'bool' | 'duration' | 'list' | 'bigint' | 'map';

export interface ConfigKey {
  file: 'config' | 'app';
  /** TOML section ('' = top level). */
  section: string;
  name: string;
  /** Path into NodeConfig. */
  path: [keyof NodeConfig] | [keyof NodeConfig, string];
  kind: KeyKind;
  doc: string;
  /** The only values a string (or each item of a list) may take. */
  choices?: readonly string[];
  /** A listen address (`host:port`, optionally `tcp://`), checked when parsed; `'or-empty'`: "" turns the server off. */
  address?: true | 'or-empty';
  /** Each item of the list is a 0x address (20 bytes: 0x and 40 hex digits). */
  hexAddresses?: true;
}

/** One entry of the table (the section files list theirs with it). */
export const configKey = (
  file: ConfigKey['file'],
  section: string,
  name: string,
  path: ConfigKey['path'],
  kind: KeyKind,
  doc: string,
  extra: Pick<ConfigKey, 'choices' | 'address' | 'hexAddresses'> = {},
): ConfigKey => ({ file, section, name, path, kind, doc, ...extra });

/** The flag or TOML name of a key: `json-rpc.api`, `moniker`. */
export function keyName(key: ConfigKey): string {
  return key.section ? `${key.section}.${key.name}` : key.name;
}
