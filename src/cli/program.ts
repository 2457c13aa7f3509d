/**
 * The command line: `chainlet init | start | version | keys | config | app | rpc`. Every config key is also a flag
 * (`--rpc.laddr`, `--json-rpc.api`, `--consensus.timeout_commit` …), generated from the key table,
 * and flags override the home's config files.
 */
import { Command, Option } from 'commander';
import { renderToml } from '../config/files.js';
import { resolveConfig } from '../config/resolve.js';
import { HomeExistsError, initHome } from '../genesis/home.js';
import { startNetwork, type ChainSpec } from '../network/network.js';
import { DEFAULT_KVSTORE_RPC_LADDR } from '../network/kvstore-chain.js';
import { DEFAULT_HUB_RPC_LADDR } from '../network/hub-defaults.js';
import { parseListenAddress } from '../config/listen-address.js';
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

const CHAIN_KINDS = ['evm', 'hub', 'kvstore', 'svm'] as const;

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
    .description('write a home folder: genesis, config.toml, app.toml, validator and node keys')
    .requiredOption('--home <dir>', 'home folder')
    .option('--chain-id <id>', 'Cosmos chain id (the EVM chain id is read from it)', 'chainlet_9000-1')
    .option('--validators <n>', 'number of in-process validators', '1')
    .option('--overwrite', 'replace an existing genesis', false)
    .action((o: { home: string; chainId: string; validators: string; overwrite: boolean }) => {
      const n = Number(o.validators);
      if (!Number.isInteger(n) || n < 1) fail(`--validators must be a positive integer, got ${o.validators}`);
      let r: ReturnType<typeof initHome>;
      try {
        r = initHome(o.home, { chainId: o.chainId, validators: n, overwrite: o.overwrite });
      } catch (err) {
        if (err instanceof HomeExistsError) fail(err.message);
        throw err;
      }
      console.log(`initialised ${o.home} for chain ${r.genesis.chainId} with ${n} validator(s)`);
      for (const f of r.files) console.log(`  wrote ${f}`);
    });

  const start = addNodeOptions(program.command('start').description('start a node (default: an in-memory devnet with funded dev accounts)'));
  start.option('--kvstore-rpc <laddr>', `CometBFT RPC address of the kvstore chain (with --chains …,kvstore)`, DEFAULT_KVSTORE_RPC_LADDR);
  start.option('--hub-rpc <laddr>', 'CometBFT RPC address of the hub chain (with --chains …,hub)', DEFAULT_HUB_RPC_LADDR);
  start.option(
    '--hub-block-time <ms>',
    'the hub makes a block every <ms> milliseconds, empty ones too (interval mode; 0: automine, a block only when a tx arrives)',
    '0',
  );
  start.option('--svm-rpc <addr>', 'Solana JSON-RPC address of the SVM chain (with --chains …,svm), as solana-test-validator', '127.0.0.1:8899');
  start.option('--svm-ws <addr>', 'Solana WebSocket (subscriptions) address of the SVM chain', '127.0.0.1:8900');
  start.option('--svm-slot-ms <ms>', 'milliseconds per slot of the SVM chain (0: only when mined)', '400');
  start.addOption(
    new Option(
      '--output <format>',
      'what stdout carries: text (banner and log lines) or json (one JSON object per line); default text on a terminal, json otherwise',
    ).choices(['text', 'json']),
  );
  start.option(
    '--chains <list>',
    `chains of the network, comma-separated: ${CHAIN_KINDS.join(', ')} (evm is always there; hub's RPC listens on ${DEFAULT_HUB_RPC_LADDR.replace('tcp://', '')}, kvstore's on ${DEFAULT_KVSTORE_RPC_LADDR.replace('tcp://', '')}, svm's Solana RPC on 127.0.0.1:8899)`,
    'evm,hub,svm',
  );
  start.action(async (o: Record<string, string | boolean | undefined>) => {
    const plan = usage(() => planFromOptions(o));
    const kinds = usage(() => chainKinds(typeof o['chains'] === 'string' ? o['chains'] : 'evm,hub,svm'));
    const json = o['output'] === undefined ? !process.stdout.isTTY : o['output'] === 'json';
    // Every server is HTTP or WebSocket that browsers and fetch clients reach: refuse a port they cannot.
    const listen: ListenFlag[] = usage(() => configListenFlags(resolveConfig(plan.home, plan.overrides))).map((f) =>
      typeof o['port'] === 'string' && (f.flag === '--json-rpc.address' || f.flag === '--json-rpc.ws-address') ? { ...f, flag: `--port (${f.flag})` } : f,
    );
    const host = typeof o['host'] === 'string' ? o['host'] : undefined;
    const chains: ChainSpec[] = [{ kind: 'evm', home: plan.home, config: plan.overrides, devnet: plan.devnet, offlineValidators: plan.offlineValidators }];
    if (kinds.includes('hub')) {
      const given = typeof o['hubRpc'] === 'string' ? o['hubRpc'] : DEFAULT_HUB_RPC_LADDR;
      const laddr = host && given === DEFAULT_HUB_RPC_LADDR ? `tcp://${host}:26757` : given;
      usage(() => parseListenAddress(laddr, '--hub-rpc'));
      listen.push({ flag: '--hub-rpc', address: laddr });
      const blockMs = Number(typeof o['hubBlockTime'] === 'string' ? o['hubBlockTime'] : '0');
      if (!Number.isSafeInteger(blockMs) || blockMs < 0)
        fail(`invalid value "${String(o['hubBlockTime'])}" for --hub-block-time: expected a non-negative integer`);
      const consensus = blockMs > 0 ? { mode: 'interval' as const, timeoutCommitMs: blockMs } : undefined;
      chains.push({
        kind: 'hub',
        mnemonic: plan.devnet?.mnemonic,
        config: { logLevel: plan.overrides.logLevel, rpc: { laddr } },
        ...(consensus ? { consensus } : {}),
      });
    }
    if (kinds.includes('kvstore')) {
      const given = typeof o['kvstoreRpc'] === 'string' ? o['kvstoreRpc'] : DEFAULT_KVSTORE_RPC_LADDR;
      const laddr = host && given === DEFAULT_KVSTORE_RPC_LADDR ? `tcp://${host}:26767` : given;
      usage(() => parseListenAddress(laddr, '--kvstore-rpc'));
      listen.push({ flag: '--kvstore-rpc', address: laddr });
      chains.push({ kind: 'kvstore', config: { logLevel: plan.overrides.logLevel, rpc: { laddr } } });
    }
    if (kinds.includes('svm')) {
      const str = (k: string, d: string) => (typeof o[k] === 'string' ? (o[k] as string) : d);
      const rpc = str('svmRpc', '127.0.0.1:8899');
      const ws = str('svmWs', '127.0.0.1:8900');
      usage(() => parseListenAddress(rpc, '--svm-rpc'));
      usage(() => parseListenAddress(ws, '--svm-ws'));
      listen.push({ flag: '--svm-rpc', address: rpc }, { flag: '--svm-ws', address: ws });
      const slotMs = Number(str('svmSlotMs', '400'));
      if (!Number.isSafeInteger(slotMs) || slotMs < 0) fail(`invalid value "${str('svmSlotMs', '')}" for --svm-slot-ms: expected a non-negative integer`);
      // The [svm] section as the chain spec takes it (limits, origins, history sizes).
      const svm = usage(() => resolveConfig(plan.home, plan.overrides)).svm;
      chains.push({ kind: 'svm', rpc, ws, slotMs, mnemonic: plan.devnet?.mnemonic, home: plan.home, ...svm });
    }
    usage(() => refuseUnsafePorts(listen));
    // What a slow start waits for, on stderr: stdout keeps the banner (or only JSON lines).
    const onWait = plan.silent
      ? undefined
      : (what: string) =>
          process.stderr.write(json ? `${JSON.stringify({ time: new Date().toISOString(), event: 'waiting', message: what })}\n` : `${what}…\n`);
    const network = await startNetwork({ chains, onWait }).catch((err: Error) => fail(describeStartError(err, resolveConfig(plan.home, plan.overrides))));
    const node = network.evm!;
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
    if (!plan.silent) await printBanner(node, { mnemonic: plan.devnet?.mnemonic, network, json });
  });

  const config = program.command('config').description('inspect the configuration');
  addNodeOptions(
    config.command('show').description("print the effective config.toml and app.toml (defaults, then the home's files, then flags) as TOML"),
  ).action((o: Record<string, string | boolean | undefined>) => {
    const plan = usage(() => planFromOptions(o));
    const cfg = usage(() => resolveConfig(plan.home, plan.overrides));
    process.stdout.write(`# config/config.toml\n${renderToml('config', cfg)}\n# config/app.toml\n${renderToml('app', cfg)}`);
  });

  registerKeysCommand(program);
  registerAppCommand(program, fail);
  registerRpcCommand(program, fail);
  return program;
}

function chainKinds(list: string): string[] {
  const kinds = list
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  for (const k of kinds)
    if (!(CHAIN_KINDS as readonly string[]).includes(k))
      throw new Error(`invalid value "${list}" for --chains: expected a comma-separated list of ${CHAIN_KINDS.join(', ')}`);
  return kinds;
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
