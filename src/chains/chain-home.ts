/**
 * A chain of the network on a home: its genesis and validator keys live in `<home>/<kind>/config/`
 * (a CometBFT home of its own), its LevelDB in `<home>/<kind>/data/`. `chainlet init` writes them
 * (src/network/network-home.ts); a home made before a chain was added gets it at its first start.
 */
import { join } from 'node:path';
import type { Ed25519Key } from '../crypto/ed25519.js';
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
