#!/usr/bin/env node
/**
 * The command line: `chainlet init | start | version | keys`. Every config key is also a flag
 * (`--rpc.laddr`, `--json-rpc.api`, `--consensus.timeout_commit` …), generated from the key table,
 * and flags override the home's config files.
 */
import { Command, Option } from 'commander';
import { CONFIG_KEYS } from '../config/keys.js';
import { overridesFromFlags } from '../config/files.js';
import { mergeConfig } from '../config/defaults.js';
import type { DeepPartial, NodeConfig, ProductionMode } from '../config/types.js';
import { initHome } from '../genesis/home.js';
import { startNode } from '../node/node.js';
import { COMET_VERSION, VERSION } from '../version.js';
import { printBanner } from './banner.js';
import { registerKeysCommand } from './keys.js';

const program = new Command();
program.name('chainlet').description('A complete chain node in one Node.js process: CometBFT RPC, Ethereum JSON-RPC and a routing API over an EVM app.');

program
  .command('version')
  .description('print the version')
  .action(() => {
    console.log(`chainlet ${VERSION} (CometBFT ${COMET_VERSION} RPC, ABCI 2.0)`);
  });

program
  .command('init')
  .description('write a home folder: genesis, config.toml, app.toml, validator and node keys')
  .requiredOption('--home <dir>', 'home folder')
  .option('--chain-id <id>', 'Cosmos chain id (the EVM chain id is read from it)', 'chainlet_9000-1')
  .option('--validators <n>', 'number of in-process validators', '1')
  .option('--overwrite', 'replace an existing genesis', false)
  .action((o: { home: string; chainId: string; validators: string; overwrite: boolean }) => {
    const n = Number(o.validators);
    if (!Number.isInteger(n) || n < 1) fail(`--validators must be a positive integer, got ${o.validators}`);
    const r = initHome(o.home, { chainId: o.chainId, validators: n, overwrite: o.overwrite });
    console.log(`initialised ${o.home} for chain ${r.genesis.chainId} with ${n} validator(s)`);
    for (const f of r.files) console.log(`  wrote ${f}`);
  });

const start = program
  .command('start')
  .description('start a node (default: an in-memory devnet with funded dev accounts)')
  .option('--home <dir>', 'home folder made by `chainlet init` (data on disk)')
  .option('--validators <n>', 'in-memory devnet: number of validators', '1')
  .option('--chain-id <id>', 'in-memory devnet: Cosmos chain id')
  .addOption(new Option('--mode <mode>', 'block production').choices(['automine', 'interval', 'manual']))
  .option('--block-time <ms>', 'interval mode: milliseconds between blocks (sets consensus.timeout_commit)')
  .option('--offline-validators <list>', 'comma-separated validator indices that start offline', '');
for (const k of CONFIG_KEYS) {
  const flag = k.section ? `${k.section}.${k.name}` : k.name;
  if (['moniker', 'db_backend', 'log_level'].includes(flag)) continue;
  start.option(`--${flag} <value>`, k.doc);
}
start.option('--log-level <level>', 'trace | debug | info | warn | error | silent');
start.action(async (o: Record<string, string | undefined>) => {
  const flagValues: Record<string, string> = {};
  for (const k of CONFIG_KEYS) {
    const flag = k.section ? `${k.section}.${k.name}` : k.name;
    const v = o[flag];
    if (v !== undefined) flagValues[flag] = v;
  }
  let overrides: DeepPartial<NodeConfig>;
  try {
    overrides = overridesFromFlags(flagValues);
  } catch (err) {
    fail((err as Error).message);
  }
  const extra: DeepPartial<NodeConfig> = { logLevel: o.logLevel ?? 'info' };
  if (o.mode) extra.consensus = { mode: o.mode as ProductionMode };
  if (o.blockTime) extra.consensus = { ...extra.consensus, mode: (o.mode as ProductionMode) ?? 'interval', timeoutCommitMs: Number(o.blockTime) };
  const validators = Number(o.validators ?? 1);
  const offline = (o.offlineValidators ?? '').split(',').filter(Boolean).map(Number);
  const node = await startNode({
    home: o.home,
    config: mergeConfig(extra as NodeConfig, overrides as never) as DeepPartial<NodeConfig>,
    devnet: o.home ? undefined : { validators, chainId: o.chainId },
    offlineValidators: offline,
  }).catch((err: Error) => fail(err.message));
  const shutdown = async (sig: string) => {
    console.log(`\n${sig}: stopping…`);
    await node.stop();
    process.exit(0);
  };
  // Installed before the banner says "Ctrl-C to stop", so a signal right after it is handled.
  process.once('SIGINT', () => void shutdown('SIGINT'));
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
  printBanner(node);
});

function fail(msg: string): never {
  console.error(`error: ${msg}`);
  process.exit(1);
}

registerKeysCommand(program);

await program.parseAsync(process.argv);
