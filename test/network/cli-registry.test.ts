/**
 * The command line reads the chain-kind registry: `--chains` accepts its kinds, each kind adds its
 * own `chainlet start` flags, `config show` prints each chain's settings, `chainlet app --app`
 * offers the kinds whose application runs alone behind a CometBFT.
 */
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { CLI_BIN } from '../helpers/cli.js';

const run = (...args: string[]) => spawnSync(process.execPath, [CLI_BIN, ...args], { encoding: 'utf8', timeout: 60_000 });

describe('the CLI from the registry', () => {
  it('start --help lists every kind and each kind’s flags', () => {
    const r = run('start', '--help');
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/--chains <list>\s+chains of the network, comma-separated: evm, hub, kvstore, svm/);
    for (const flag of ['--hub-rpc', '--hub-block-time', '--kvstore-rpc', '--svm-rpc', '--svm-ws', '--svm-slot-ms']) expect(r.stdout).toContain(flag);
  });

  it('refuses a kind the registry does not know, naming the ones it does', () => {
    const r = run('start', '--chains', 'evm,bogus');
    expect(r.status).toBe(1);
    expect(r.stderr.trim()).toBe('error: invalid value "evm,bogus" for --chains: expected a comma-separated list of evm, hub, kvstore, svm');
  });

  it('a kind’s flag is checked by its kind, with one line naming it', () => {
    const r = run('start', '--chains', 'evm,hub', '--hub-block-time', '-5');
    expect(r.status).toBe(1);
    expect(r.stderr.trim()).toBe('error: invalid value "-5" for --hub-block-time: expected a non-negative integer');
  });

  it('config show prints each chain’s settings after the TOML, as comments', () => {
    const r = run('config', 'show', '--chains', 'evm,kvstore', '--kvstore-rpc', 'tcp://127.0.0.1:27000');
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain(
      '# chains of the network (chainlet start --chains evm,kvstore)\n# kvstore: CometBFT RPC tcp://127.0.0.1:27000 (--kvstore-rpc)\n',
    );
    expect(r.stdout).not.toContain('# hub:');
    const all = run('config', 'show');
    expect(all.stdout).toMatch(
      /# hub: CometBFT RPC tcp:\/\/127\.0\.0\.1:26757 \(--hub-rpc\), automine \(--hub-block-time\)\n# svm: Solana RPC 127\.0\.0\.1:8899/,
    );
  });

  it('chainlet app --app offers the kinds with an application of their own', () => {
    const r = run('app', '--home', '/nonexistent-chainlet-home', '--app', 'hub');
    expect(r.status).toBe(1);
    expect(r.stderr.trim()).toBe('error: invalid value "hub" for --app: expected one of evm, kvstore');
  });
});
