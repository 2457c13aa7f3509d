/**
 * A chain of the network on a home: its genesis and validator keys live in `<home>/<kind>/config/`
 * (a CometBFT home of its own), its LevelDB in `<home>/<kind>/data/`. `chainlet init` writes them
 * (src/network/network-home.ts); a home made before a chain was added gets it at its first start.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { mergeConfig } from '../config/defaults.js';
import { readConfigFiles } from '../config/files.js';
import { ConfigValueError } from '../config/keys.js';
import type { DeepPartial, NodeConfig } from '../config/types.js';
import type { Ed25519Key } from '../crypto/ed25519.js';
import { stringOption } from './format.js';
import type { CliContext } from './types.js';
import { hasGenesis, loadHome, writeChainHome } from '../genesis/home.js';
import type { GenesisDoc } from '../genesis/genesis-doc.js';

export interface ChainGenesis {
  genesis: GenesisDoc;
  validatorKeys: Ed25519Key[];
}

/** The folder of a chain kind inside a home. */
export function chainHomeDir(home: string, kind: string): string {
  return join(home, kind);
}

/** Writes a chain's home from its devnet genesis unless it has one; the files written. */
export function initChainHome(home: string, kind: string, devnet: ChainGenesis, overwrite = false): string[] {
  const dir = chainHomeDir(home, kind);
  if (hasGenesis(dir) && !overwrite) return [];
  return writeChainHome(dir, devnet.genesis, devnet.validatorKeys);
}

/**
 * Without a home: the devnet genesis, in memory. With one: the genesis and keys of the chain's home
 * (written from the devnet's first, when missing) and its data folder.
 */
export function chainOnHome(home: string | undefined, kind: string, devnet: ChainGenesis): ChainGenesis & { dataDir?: string } {
  if (home === undefined) return devnet;
  initChainHome(home, kind, devnet);
  const dir = chainHomeDir(home, kind);
  const { genesis, validatorKeys } = loadHome(dir);
  return { genesis, validatorKeys, dataDir: join(dir, 'data') };
}

/** The genesis of a chain's home folder (`dir`: a home, or `<home>/<kind>`), or undefined when it has none yet. */
export function homeGenesisOf(dir: string): GenesisDoc | undefined {
  return hasGenesis(dir) ? loadHome(dir).genesis : undefined;
}

/** A chain's own settings on a home: `<home>/<kind>/config/config.toml` (CometBFT's layout, the key table's keys). */
export function chainConfigPath(home: string, kind: string): string {
  return join(chainHomeDir(home, kind), 'config', 'config.toml');
}

/** Writes the chain's config.toml (`toml`) unless it has one; the files written. */
export function initChainConfig(home: string, kind: string, toml: string, overwrite = false): string[] {
  const path = chainConfigPath(home, kind);
  if (existsSync(path) && !overwrite) return [];
  mkdirSync(join(chainHomeDir(home, kind), 'config'), { recursive: true });
  writeFileSync(path, toml);
  return [path];
}

/** The settings a chain's home files set (only those keys; none without a home or a file). */
export function chainHomeConfig(home: string | undefined, kind: string): DeepPartial<NodeConfig> {
  if (home === undefined) return {};
  let files: DeepPartial<NodeConfig>[];
  try {
    files = readConfigFiles(chainHomeDir(home, kind));
  } catch (err) {
    // A bad value names its key; say which chain's file holds it.
    const msg = (err as Error).message;
    throw new Error(msg.includes(chainHomeDir(home, kind)) ? msg : `${chainConfigPath(home, kind)}: ${msg}`);
  }
  return files.reduce<DeepPartial<NodeConfig>>((a, o) => mergeConfig(a as NodeConfig, o), {});
}

/**
 * The settings a home folder's own `config/config.toml` and `config/app.toml` set (only those keys;
 * none without the files), e.g. the network home's (the EVM chain's files, whose `[svm]` section is
 * the SVM chain's). A bad value names its file.
 */
export function homeFilesConfig(dir: string): DeepPartial<NodeConfig> {
  let files: DeepPartial<NodeConfig>[];
  try {
    files = readConfigFiles(dir);
  } catch (err) {
    if (err instanceof ConfigValueError) throw new Error(`${join(dir, 'config', `${err.key.file}.toml`)}: ${err.message}`);
    throw err;
  }
  return files.reduce<DeepPartial<NodeConfig>>((a, o) => mergeConfig(a as NodeConfig, o), {});
}

/**
 * A chain's config as its start sees it: the home's files (with a home), then the spec's `config`
 * over them, as a flag given on the command line wins over the file (the CLI's spec already holds the
 * file's keys: merging them again changes nothing). So a chain started from code on a home runs on it too.
 */
export function specConfigOnHome(home: string | undefined, kind: string, config: DeepPartial<NodeConfig> | undefined): DeepPartial<NodeConfig> | undefined {
  if (home === undefined) return config;
  return mergeConfig(chainHomeConfig(home, kind), config);
}

/** A setting of a chain and where it came from (a flag, or the file's path). */
export interface ChainSetting<T> {
  value: T;
  from: string;
}

/**
 * A chain setting's value: its flag (`option`, commander's attribute name) when given on the command
 * line, else the chain's home config.toml's (`fromFile`), else the flag's default.
 */
export function chainSetting<T>(
  ctx: Pick<CliContext, 'options' | 'home' | 'given'>,
  kind: string,
  flag: { option: string; name: string; fallback: string },
  fromFile: T | undefined,
  parse: (flagValue: string) => T,
): ChainSetting<T> {
  const given = ctx.given ? ctx.given(flag.option) : ctx.options[flag.option] !== undefined;
  if (fromFile !== undefined && !given && ctx.home !== undefined) return { value: fromFile, from: chainConfigPath(ctx.home, kind) };
  return { value: parse(stringOption(ctx.options, flag.option, flag.fallback)), from: flag.name };
}

/** What `chainlet init --home` gives each kind of the network (ChainKind.initHome). */
export interface HomeInitContext {
  /** Replace what the home holds. */
  overwrite: boolean;
  /** Relayer private keys whose accounts the chain's genesis funds (the network's first pair's relayer). */
  relayerKeys: Uint8Array[];
  /** `init --chain-id` and `--validators`: the main (EVM) chain's. */
  chainId?: string;
  validators?: number;
}
