/**
 * The options `chainlet start` and `chainlet config show` share: every key of the config table as a
 * `--section.key` flag, and the short devnet flags a user of Anvil or Hardhat expects. Commander
 * renames `--json-rpc.api` to the attribute `jsonRpc.api`, so each key is read back through the
 * attribute name commander itself reports, never a spelled-out string.
 */
import { Command, Option } from 'commander';
import { overridesFromFlags } from '../config/files.js';
import { CONFIG_KEYS, describeAccepted, keyName, type ConfigKey } from '../config/keys.js';
import { mergeConfig } from '../config/defaults.js';
import type { DeepPartial, NodeConfig, ProductionMode } from '../config/types.js';
import type { DevnetGenesisOptions } from '../genesis/devnet.js';

/** A mistake in the command line: printed as one line, exit code 1. */
export class UsageError extends Error {
  override name = 'UsageError';
}

type Opts = Record<string, string | boolean | undefined>;

/** commander attribute name → the key it sets. */
const keyByAttribute = new Map<string, ConfigKey>();

export function addNodeOptions(cmd: Command): Command {
  cmd
    .option('--home <dir>', 'home folder made by `chainlet init` (data on disk)')
    .option('--validators <n>', 'in-memory devnet: number of validators', '1')
    .option('--chain-id <id>', 'in-memory devnet: Cosmos chain id (the EVM chain id is read from it, e.g. chainlet_9000-1 → 9000)')
    .option('--accounts <n>', 'in-memory devnet: number of funded dev accounts', '10')
    .option('--balance <tokens>', 'in-memory devnet: balance of each dev account, in whole tokens', '10000')
    .option('--mnemonic <words>', 'in-memory devnet: mnemonic of the dev accounts (default: test … junk)')
    .option('--host <host>', 'host every server listens on (default 127.0.0.1; 0.0.0.0 for all interfaces)')
    .option('--port <port>', 'Ethereum JSON-RPC HTTP port; its WebSocket listens on port + 1')
    .addOption(new Option('--mode <mode>', 'block production').choices(['automine', 'interval', 'manual']))
    .option('--block-time <ms>', 'interval mode: milliseconds between blocks (sets consensus.timeout_commit)')
    .option('--offline-validators <list>', 'comma-separated validator indices that start offline', '')
    .option('--silent', 'print nothing but errors (no banner, no tx and block lines)')
    .addOption(new Option('--log-level <level>', 'trace | debug | info | warn | error | silent').hideHelp());
  for (const key of CONFIG_KEYS) {
    const flag = keyName(key);
    // Booleans are switches as in CometBFT and Cosmos EVM: `--rpc.unsafe` alone is true, `=false` works too.
    const opt = new Option(key.kind === 'bool' ? `--${flag} [bool]` : `--${flag} <value>`, `${key.doc} (${describeAccepted(key)})`);
    keyByAttribute.set(opt.attributeName(), key);
    cmd.addOption(opt);
  }
  // Cosmos EVM's older name of the gas cap.
  const alias = new Option('--json-rpc.rpc-gas-cap <value>', 'alias of --json-rpc.gas-cap').hideHelp();
  keyByAttribute.set(
    alias.attributeName(),
    CONFIG_KEYS.find((k) => keyName(k) === 'json-rpc.gas-cap')!,
  );
  cmd.addOption(alias);
  return cmd;
}

export interface NodePlan {
  home: string | undefined;
  overrides: DeepPartial<NodeConfig>;
  devnet: DevnetGenesisOptions | undefined;
  offlineValidators: number[];
  silent: boolean;
}

function positiveInt(flag: string, v: string): number {
  const n = Number(v);
  if (!/^\d+$/.test(v.trim()) || !Number.isSafeInteger(n) || n < 1) throw new UsageError(`invalid value "${v}" for --${flag}: expected a positive integer`);
  return n;
}

/** Turns parsed options into what `startNode` takes; precedence: short flags < `--section.key` flags. */
export function planFromOptions(o: Opts): NodePlan {
  const str = (name: string): string | undefined => (typeof o[name] === 'string' ? (o[name] as string) : undefined);
  const shortcuts: DeepPartial<NodeConfig> = {};
  const host = str('host');
  const portText = str('port');
  if (portText !== undefined) {
    const port = Number(portText);
    if (!/^\d+$/.test(portText) || port > 65534)
      throw new UsageError(`invalid value "${portText}" for --port: expected a port from 0 to 65534 (the WebSocket takes port + 1)`);
  }
  if (host !== undefined || portText !== undefined) {
    const h = host ?? '127.0.0.1';
    const at = (p: number | string) => (h.includes(':') ? `[${h}]:${p}` : `${h}:${p}`);
    const port = portText === undefined ? undefined : Number(portText);
    shortcuts.jsonRpc = { address: at(port ?? 8545), wsAddress: at(port === undefined ? 8546 : port === 0 ? 0 : port + 1) };
    if (host !== undefined) {
      shortcuts.rpc = { laddr: `tcp://${at(26657)}` };
      shortcuts.routing = { address: at(8080) };
    }
  }
  const mode = str('mode') as ProductionMode | undefined;
  const blockTime = str('blockTime');
  if (mode || blockTime) {
    shortcuts.consensus = { mode: mode ?? 'interval' };
    if (blockTime !== undefined) shortcuts.consensus.timeoutCommitMs = positiveInt('block-time', blockTime);
  }
  const silent = o.silent === true;
  const logLevel = str('logLevel');
  if (logLevel !== undefined) shortcuts.logLevel = logLevel;
  else if (silent) shortcuts.logLevel = 'silent';

  const flagValues: Record<string, string | boolean> = {};
  for (const [attr, key] of keyByAttribute) {
    const v = o[attr];
    if (v !== undefined) flagValues[keyName(key)] = v;
  }
  let keyed: DeepPartial<NodeConfig>;
  try {
    keyed = overridesFromFlags(flagValues);
  } catch (err) {
    throw new UsageError((err as Error).message);
  }

  const home = str('home');
  let devnet: DevnetGenesisOptions | undefined;
  if (!home) {
    const balanceText = str('balance') ?? '10000';
    if (!/^\d+$/.test(balanceText)) throw new UsageError(`invalid value "${balanceText}" for --balance: expected a whole number of tokens`);
    devnet = {
      validators: positiveInt('validators', str('validators') ?? '1'),
      chainId: str('chainId'),
      accounts: positiveInt('accounts', str('accounts') ?? '10'),
      balance: BigInt(balanceText) * 10n ** 18n,
      mnemonic: str('mnemonic'),
    };
  }
  const offlineValidators = (str('offlineValidators') ?? '')
    .split(',')
    .filter(Boolean)
    .map((s) => positiveIntOrZero('offline-validators', s));
  // A home's validator count is in its genesis: startNode checks those indices.
  if (devnet) {
    const n = devnet.validators ?? 1;
    const bad = offlineValidators.find((i) => i >= n);
    if (bad !== undefined)
      throw new UsageError(
        `invalid value "${str('offlineValidators')}" for --offline-validators: expected comma-separated validator indices from 0 to ${n - 1} (--validators ${n}), got ${bad}`,
      );
  }
  return { home, overrides: mergeConfig(shortcuts as NodeConfig, keyed as never) as DeepPartial<NodeConfig>, devnet, offlineValidators, silent };
}

function positiveIntOrZero(flag: string, v: string): number {
  if (!/^\d+$/.test(v.trim())) throw new UsageError(`invalid value "${v}" for --${flag}: expected comma-separated validator indices`);
  return Number(v);
}
