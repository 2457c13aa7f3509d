/**
 * The command line: `chainlet init | start | version | keys | config | app | rpc`. Every config key is also a flag
 * (`--rpc.laddr`, `--json-rpc.api`, `--consensus.timeout_commit` …), generated from the key table,
 * and flags override the home's config files.
 */
import { Command, Option } from 'commander';
import { renderToml } from '../config/files.js';
import { resolveConfig } from '../config/resolve.js';
import { HomeExistsError } from '../genesis/home.js';
import { RELAYER_PRIVATE_KEY } from '../network/ibc/relayer-key.js';
import { startNetwork, type ChainSpec } from '../network/network.js';
import { ChainRegistry } from '../chains/registry.js';
import type { CliContext } from '../chains/types.js';
import { COMET_VERSION, VERSION } from '../version.js';
import { printBanner } from './banner.js';
import { configListenFlags, refuseUnsafePorts, type ListenFlag } from './unsafe-ports.js';
import { logActivity } from './activity-log.js';
import { describeStartError } from './start-errors.js';
import { addNodeOptions, planFromOptions } from './node-options.js';
import { registerKeysCommand } from './keys.js';
import { registerAppCommand } from './app-command.js';
import { registerRpcCommand } from './rpc-command.js';

/** Parses `argv` (as `process.argv`: node, script, then the arguments) and runs the command. */
export async function runCli(argv: readonly string[]): Promise<void> {
  await buildProgram().parseAsync([...argv]);
}

/** The chain kinds `--chains` offers (src/chains/registry.ts); the first is always there. */
const KINDS = new ChainRegistry();
const DEFAULT_CHAINS = KINDS.list()
  .filter((k) => k.byDefault)
  .map((k) => k.name)
  .join(',');

function buildProgram(): Command {
  const program = new Command();
  program.name('chainlet').description('A complete chain node in one Node.js process: CometBFT RPC, Ethereum JSON-RPC and a routing API over an EVM app.');
  program.version(VERSION, '-V, --version', 'print the version');

  program
    .command('version')
    .description('print the version')
    .action(() => {
      console.log(`chainlet ${VERSION} (CometBFT ${COMET_VERSION} RPC, ABCI 2.0)`);
    });

  program
    .command('init')
    .description(
      'write a home folder: every chain of the network (the EVM chain: genesis, config.toml, app.toml, validator and node keys; the others in <home>/<kind>/)',
    )
    .requiredOption('--home <dir>', 'home folder')
    .option('--chain-id <id>', 'Cosmos chain id of the EVM chain (the EVM chain id is read from it)', 'chainlet_9000-1')
    .option('--validators <n>', 'number of in-process validators of the EVM chain', '1')
    .option('--chains <list>', `chains of the network to write, comma-separated: ${KINDS.names().join(', ')} (as start's --chains)`, DEFAULT_CHAINS)
    .option('--overwrite', 'replace an existing genesis', false)
    .action(async (o: { home: string; chainId: string; validators: string; chains: string; overwrite: boolean }) => {
      const n = Number(o.validators);
      if (!Number.isInteger(n) || n < 1) fail(`--validators must be a positive integer, got ${o.validators}`);
      const kinds = usage(() => chainKinds(o.chains)).map((name) => KINDS.get(name));
      const files: string[] = [];
      try {
        // Each kind writes its chain; the first pair's relayer is funded in every IBC chain's genesis (docs/network.md).
        for (const k of kinds)
          files.push(
            ...((await k.initHome?.(o.home, { chainId: o.chainId, validators: n, overwrite: o.overwrite, relayerKeys: [RELAYER_PRIVATE_KEY] })) ?? []),
          );
      } catch (err) {
        if (err instanceof HomeExistsError) fail(err.message);
        throw err;
      }
      console.log(`initialised ${o.home} for chain ${o.chainId} with ${n} validator(s) and ${kinds.map((k) => k.name).join(', ')}`);
      for (const f of files) console.log(`  wrote ${f}`);
    });

  const start = addNodeOptions(program.command('start').description('start a node (default: an in-memory devnet with funded dev accounts)'));
  for (const k of KINDS.list()) for (const opt of k.cli?.options ?? []) start.option(opt.flags, opt.description, opt.default);
  start.addOption(
    new Option(
      '--output <format>',
      'what stdout carries: text (banner and log lines) or json (one JSON object per line); default text on a terminal, json otherwise',
    ).choices(['text', 'json']),
  );
  start.option(
    '--chains <list>',
    `chains of the network, comma-separated: ${KINDS.names().join(', ')} (${KINDS.list()
      .map((k) => k.help)
      .join('; ')})`,
    DEFAULT_CHAINS,
  );
  start.action(async (o: Record<string, string | boolean | undefined>) => {
    const plan = usage(() => planFromOptions(o));
    const kinds = usage(() => chainKinds(typeof o['chains'] === 'string' ? o['chains'] : DEFAULT_CHAINS));
    const json = o['output'] === undefined ? !process.stdout.isTTY : o['output'] === 'json';
    // Every server is HTTP or WebSocket that browsers and fetch clients reach: refuse a port they cannot.
    const listen: ListenFlag[] = usage(() => configListenFlags(resolveConfig(plan.home, plan.overrides))).map((f) =>
      typeof o['port'] === 'string' && (f.flag === '--json-rpc.address' || f.flag === '--json-rpc.ws-address') ? { ...f, flag: `--port (${f.flag})` } : f,
    );
    const ctx = cliContext(o, plan, listen, start);
    // Each kind makes its spec from its own flags (and checks them), in the registry's order.
    const chains = usage(() => KINDS.list().flatMap((k) => (kinds.includes(k.name) && k.cli ? [k.cli.spec(ctx) as ChainSpec] : [])));
    usage(() => refuseUnsafePorts(listen));
    // What a slow start waits for, on stderr: stdout keeps the banner (or only JSON lines).
    const onWait = plan.silent
      ? undefined
      : (what: string) =>
          process.stderr.write(json ? `${JSON.stringify({ time: new Date().toISOString(), event: 'waiting', message: what })}\n` : `${what}…\n`);
    const network = await startNetwork({ chains, onWait }).catch((err: Error) => fail(describeStartError(err, resolveConfig(plan.home, plan.overrides))));
    const stopLogs = plan.silent ? undefined : logActivity(network.chains, process.stdout, { json });
    const shutdown = async (sig: string) => {
      if (!plan.silent)
        process.stdout.write(json ? `${JSON.stringify({ time: new Date().toISOString(), event: 'stopping', signal: sig })}\n` : `\n${sig}: stopping…\n`);
      stopLogs?.();
      await network.stop();
      process.exit(0);
    };
    // Installed before the banner says "Ctrl-C to stop", so a signal right after it is handled.
    process.once('SIGINT', () => void shutdown('SIGINT'));
    process.once('SIGTERM', () => void shutdown('SIGTERM'));
    if (!plan.silent) await printBanner(network, { mnemonic: plan.devnet?.mnemonic, json });
  });

  const config = program.command('config').description('inspect the configuration');
  const show = addNodeOptions(
    config
      .command('show')
      .description(
        "print the effective config.toml and app.toml (defaults, then the home's files, then flags) as TOML, then each chain's settings (its <home>/<kind>/config/config.toml, then its flags)",
      ),
  );
  for (const k of KINDS.list()) for (const opt of k.cli?.options ?? []) show.option(opt.flags, opt.description, opt.default);
  show.option('--chains <list>', `the chains whose settings to show: ${KINDS.names().join(', ')}`, DEFAULT_CHAINS);
  show.action((o: Record<string, string | boolean | undefined>) => {
    const plan = usage(() => planFromOptions(o));
    const cfg = usage(() => resolveConfig(plan.home, plan.overrides));
    const kinds = usage(() => chainKinds(typeof o['chains'] === 'string' ? o['chains'] : DEFAULT_CHAINS));
    const ctx = cliContext(o, plan, [], show);
    const lines = KINDS.list().flatMap((k) => (kinds.includes(k.name) ? usage(() => k.configLines?.(ctx) ?? []) : []));
    const chains = lines.length > 0 ? `\n# chains of the network (chainlet start --chains ${kinds.join(',')})\n${lines.map((l) => `# ${l}`).join('\n')}\n` : '';
    // Both files' root keys come first: after a [section], TOML has no way back to the root.
    process.stdout.write(
      `# config/config.toml (root keys)\n${renderToml('config', cfg, 'root')}# config/app.toml (root keys)\n${renderToml('app', cfg, 'root')}\n` +
        `# config/config.toml\n${renderToml('config', cfg, 'sections')}\n# config/app.toml\n${renderToml('app', cfg, 'sections')}${chains}`,
    );
  });

  registerKeysCommand(program);
  registerAppCommand(program, fail);
  registerRpcCommand(program, fail);
  return program;
}

/** The kinds `--chains` names, each known to the registry; the first kind (evm) is always there. */
function chainKinds(list: string): string[] {
  const kinds = list
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const names = KINDS.names();
  for (const k of kinds)
    if (!names.includes(k)) throw new Error(`invalid value "${list}" for --chains: expected a comma-separated list of ${names.join(', ')}`);
  return [...new Set([names[0]!, ...kinds])];
}

/** What each kind reads to make its spec from `chainlet start`'s flags (a flag given on the command line overrides the chain's home config). */
function cliContext(o: Record<string, string | boolean | undefined>, plan: ReturnType<typeof planFromOptions>, listen: ListenFlag[], cmd: Command): CliContext {
  return {
    options: o,
    given: (option) => cmd.getOptionValueSource(option) === 'cli',
    home: plan.home,
    overrides: plan.overrides,
    devnet: plan.devnet,
    offlineValidators: plan.offlineValidators,
    ...(typeof o['host'] === 'string' ? { host: o['host'] } : {}),
    listen,
  };
}

/** Runs `f`; a usage or config mistake ends the process with one line. */
function usage<T>(f: () => T): T {
  try {
    return f();
  } catch (err) {
    fail((err as Error).message);
  }
}

function fail(msg: string): never {
  console.error(`error: ${msg}`);
  process.exit(1);
}
