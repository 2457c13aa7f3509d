/**
 * A node's home folder, laid out as CometBFT's:
 *   config/genesis.json  config/config.toml  config/app.toml
 *   config/priv_validator_key.json            (validator 0)
 *   config/validators/priv_validator_key_<i>.json (the other in-process validators)
 *   config/node_key.json  data/priv_validator_state.json  data/chainlet.db/
 * and the network's other chains each in a folder of the same layout (`writeChainHome`):
 *   <kind>/config/genesis.json  <kind>/config/priv_validator_key.json  <kind>/data/chainlet.db/
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { defaultConfig, homeProfile } from '../config/defaults.js';
import { renderToml } from '../config/files.js';
import { ed25519Generate, type Ed25519Key } from '../crypto/ed25519.js';
import { deriveDevAccounts, type DevAccount } from './dev-accounts.js';
import { createDevnetGenesis, type DevnetGenesisOptions } from './devnet.js';
import { genesisFromJson, genesisToJson, type GenesisDoc } from './genesis-doc.js';
import { nodeKeyFromJson, nodeKeyToJson, privValidatorKeyFromJson, privValidatorKeyToJson } from './key-files.js';

export interface InitHomeOptions {
  chainId?: string;
  validators?: number;
  overwrite?: boolean;
  /** More funded EVM accounts in the genesis (the network's IBC relayer). */
  extraAlloc?: DevnetGenesisOptions['extraAlloc'];
}

export interface InitHomeResult {
  home: string;
  genesis: GenesisDoc;
  validatorKeys: Ed25519Key[];
  nodeKey: Ed25519Key;
  files: string[];
}

const writeJson = (path: string, v: unknown) => writeFileSync(path, JSON.stringify(v, null, 2) + '\n', { mode: 0o600 });

/** `init` on a home that already has a genesis. */
export class HomeExistsError extends Error {
  override name = 'HomeExistsError';
  constructor(
    readonly home: string,
    readonly genesisPath: string,
  ) {
    super(`${home} is already initialised (${genesisPath} exists); run init with --overwrite to write a new genesis, config and keys over it`);
  }
}

export function initHome(home: string, opts: InitHomeOptions = {}): InitHomeResult {
  const cfgDir = join(home, 'config');
  const genesisPath = join(cfgDir, 'genesis.json');
  if (existsSync(genesisPath) && !opts.overwrite) {
    throw new HomeExistsError(home, genesisPath);
  }
  mkdirSync(join(cfgDir, 'validators'), { recursive: true });
  mkdirSync(join(home, 'data'), { recursive: true });
  const n = opts.validators ?? 1;
  const validatorKeys = Array.from({ length: n }, () => ed25519Generate());
  const nodeKey = ed25519Generate();
  const { genesis } = createDevnetGenesis({ chainId: opts.chainId, validators: n, validatorKeys, ...(opts.extraAlloc ? { extraAlloc: opts.extraAlloc } : {}) });
  const base = defaultConfig();
  // A home is not the throwaway devnet profile: devnet control starts off (`[evm] devnet = true` turns it on).
  const cfg = { ...homeProfile(base), home, dbBackend: 'classic' as const };
  const files: string[] = [];
  const put = (rel: string, write: (p: string) => void) => {
    const p = join(home, rel);
    write(p);
    files.push(p);
  };
  put('config/genesis.json', (p) => writeJson(p, genesisToJson(genesis)));
  put('config/config.toml', (p) => writeFileSync(p, renderToml('config', cfg)));
  put('config/app.toml', (p) => writeFileSync(p, renderToml('app', cfg)));
  put('config/priv_validator_key.json', (p) => writeJson(p, privValidatorKeyToJson(validatorKeys[0]!)));
  validatorKeys.slice(1).forEach((k, i) => put(`config/validators/priv_validator_key_${i + 1}.json`, (p) => writeJson(p, privValidatorKeyToJson(k))));
  put('config/node_key.json', (p) => writeJson(p, nodeKeyToJson(nodeKey)));
  put('data/priv_validator_state.json', (p) => writeJson(p, { height: '0', round: 0, step: 0 }));
  return { home, genesis, validatorKeys, nodeKey, files };
}

/**
 * The home of one more chain of the network (`<home>/<kind>/`, laid out as a CometBFT home):
 * `config/genesis.json`, its validator keys (`config/priv_validator_key.json`, then
 * `config/validators/priv_validator_key_<i>.json`) and `data/`. Read back with `loadHome`.
 * Returns the files written.
 */
export function writeChainHome(dir: string, genesis: GenesisDoc, validatorKeys: Ed25519Key[]): string[] {
  mkdirSync(join(dir, 'config', 'validators'), { recursive: true });
  mkdirSync(join(dir, 'data'), { recursive: true });
  const files: string[] = [];
  const put = (rel: string, v: unknown) => {
    const p = join(dir, rel);
    writeJson(p, v);
    files.push(p);
  };
  put('config/genesis.json', genesisToJson(genesis));
  validatorKeys.forEach((k, i) =>
    put(i === 0 ? 'config/priv_validator_key.json' : `config/validators/priv_validator_key_${i}.json`, privValidatorKeyToJson(k)),
  );
  return files;
}

/** Whether `dir` holds a chain's genesis (a home, or a chain's home inside one). */
export function hasGenesis(dir: string): boolean {
  return existsSync(join(dir, 'config', 'genesis.json'));
}

export interface LoadedHome {
  genesis: GenesisDoc;
  validatorKeys: Ed25519Key[];
  nodeKey: Ed25519Key | undefined;
  accounts: DevAccount[];
}

export function loadHome(home: string): LoadedHome {
  const cfgDir = join(home, 'config');
  const genesisPath = join(cfgDir, 'genesis.json');
  if (!existsSync(genesisPath)) throw new Error(`no genesis at ${genesisPath}: run \`chainlet init --home ${home}\` first`);
  const genesis = genesisFromJson(JSON.parse(readFileSync(genesisPath, 'utf8')));
  const keys: Ed25519Key[] = [];
  const pv = join(cfgDir, 'priv_validator_key.json');
  if (existsSync(pv)) keys.push(privValidatorKeyFromJson(JSON.parse(readFileSync(pv, 'utf8'))));
  const vdir = join(cfgDir, 'validators');
  if (existsSync(vdir)) {
    const extra = readdirSync(vdir)
      .map((f) => /^priv_validator_key_(\d+)\.json$/.exec(f))
      .filter((m): m is RegExpExecArray => m !== null)
      .sort((a, b) => Number(a[1]) - Number(b[1]));
    for (const m of extra) keys.push(privValidatorKeyFromJson(JSON.parse(readFileSync(join(vdir, m[0]), 'utf8'))));
  }
  // Keys in genesis order: validators whose key this home does not hold are simply offline.
  const byAddr = new Map(keys.map((k) => [Buffer.from(k.address).toString('hex'), k]));
  const validatorKeys = genesis.validators.map((v) => byAddr.get(Buffer.from(v.address).toString('hex'))).filter((k): k is Ed25519Key => k !== undefined);
  const nk = join(cfgDir, 'node_key.json');
  const nodeKey = existsSync(nk) ? nodeKeyFromJson(JSON.parse(readFileSync(nk, 'utf8'))) : undefined;
  const alloc = ((genesis.appState as { evm?: { alloc?: Record<string, unknown> } }).evm?.alloc ?? {}) as Record<string, unknown>;
  const allocLower = new Set(Object.keys(alloc).map((a) => a.toLowerCase()));
  const accounts = deriveDevAccounts(10).filter((a) => allocLower.has(a.address.toLowerCase()));
  return { genesis, validatorKeys, nodeKey, accounts };
}
