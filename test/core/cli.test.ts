import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { startNode } from '../../src/node/node.js';
import { spawnCli, PORTS0 } from '../helpers/cli.js';

const cli = fileURLToPath(new URL('../../src/cli/main.ts', import.meta.url));
const tmp = mkdtempSync(join(tmpdir(), 'chainlet-cli-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** Starts `chainlet start --output text` from the sources (through tsx). */
const start = (args: string[]) => spawnCli(['start', '--output', 'text', ...args], { bin: cli, nodeArgs: ['--import', 'tsx'] });
/** Resolves with what `chainlet start --output text` printed once its banner is complete. */
const banner = (s: ReturnType<typeof start>) => s.waitFor('Ctrl-C to stop', { timeoutMs: 25_000 });

const run = (...args: string[]) => spawnSync(process.execPath, ['--import', 'tsx', cli, ...args], { encoding: 'utf8', timeout: 30_000 });

describe('cli', () => {
  it('version', () => {
    const r = run('version');
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^chainlet \d+\.\d+\.\d+ \(CometBFT 0\.38\.\d+ RPC/);
  });

  it('init --validators 4 writes a CometBFT-layout home that a node starts from', async () => {
    const home = join(tmp, 'h4');
    const r = run('init', '--home', home, '--validators', '4', '--chain-id', 'demo_4242-1');
    expect(r.status, r.stderr).toBe(0);
    for (const f of [
      'config/genesis.json',
      'config/config.toml',
      'config/app.toml',
      'config/priv_validator_key.json',
      'config/node_key.json',
      'config/validators/priv_validator_key_3.json',
    ]) {
      expect(existsSync(join(home, f)), f).toBe(true);
    }
    const pv = JSON.parse(readFileSync(join(home, 'config/priv_validator_key.json'), 'utf8'));
    expect(pv.address).toMatch(/^[0-9A-F]{40}$/);
    expect(pv.pub_key.type).toBe('tendermint/PubKeyEd25519');
    expect(pv.priv_key.type).toBe('tendermint/PrivKeyEd25519');
    expect(Buffer.from(pv.priv_key.value, 'base64')).toHaveLength(64);
    const g = JSON.parse(readFileSync(join(home, 'config/genesis.json'), 'utf8'));
    expect(g.chain_id).toBe('demo_4242-1');
    expect(g.validators).toHaveLength(4);
    expect(g.app_state.evm.chain_id).toBe('4242');
    expect(readFileSync(join(home, 'config/config.toml'), 'utf8')).toMatch(/laddr = "tcp:\/\/127.0.0.1:26657"/);
    expect(readFileSync(join(home, 'config/app.toml'), 'utf8')).toMatch(/\[json-rpc\][\s\S]*api = \[ "eth", "web3", "net", "txpool" \]/);
    // A second init refuses to overwrite.
    expect(run('init', '--home', home).status).toBe(1);

    const node = await startNode({ home, servers: false, config: { consensus: { mode: 'manual' }, logLevel: 'silent' } });
    try {
      expect(node.internals.validators).toHaveLength(4);
      await node.mine(2);
      expect(node.height).toBe(3);
    } finally {
      await node.stop();
    }
  }, 60_000);

  it('start: flags override the files; prints the dev accounts; stops on SIGINT', async () => {
    const home = join(tmp, 'h1');
    expect(run('init', '--home', home).status).toBe(0);
    const s = start(['--home', home, ...PORTS0, '--log-level', 'silent']);
    const { child } = s;
    const out = await banner(s);
    expect(out).toContain('0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266');
    expect(out).toContain('0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80');
    expect(out).toContain('Chain ID (EVM):    9000');
    expect(out).not.toContain(':26657');
    child.kill('SIGINT');
    const code = await new Promise<number | null>((r) => child.once('exit', r));
    expect(code).toBe(0);
  }, 60_000);

  it('start --validators 4 --offline-validators 3: an in-memory devnet with one validator offline keeps producing', async () => {
    const s = start([
      '--validators',
      '4',
      '--offline-validators',
      '3',
      '--mode',
      'interval',
      '--block-time',
      '20',
      '--consensus.timeout_propose',
      '100ms',
      '--consensus.timeout_prevote',
      '20ms',
      '--consensus.timeout_precommit',
      '20ms',
      ...PORTS0,
      '--log-level',
      'silent',
    ]);
    const { child } = s;
    try {
      const out = await banner(s);
      const validatorsLine = out.split('\n').find((l) => l.startsWith('Validators:'))!;
      expect(validatorsLine.split(',')).toHaveLength(4);
      expect(validatorsLine.match(/\(offline\)/g)).toHaveLength(1);
      const rpc = /CometBFT RPC:\s+(\S+)/.exec(out)![1]!;
      // Heights advance past a round whose proposer is the offline validator.
      let height = 0;
      for (let i = 0; i < 100 && height < 6; i++) {
        const status = (await (await fetch(`${rpc}/status`)).json()) as { result: { sync_info: { latest_block_height: string } } };
        height = Number(status.result.sync_info.latest_block_height);
        if (height < 6) await new Promise((r) => setTimeout(r, 100));
      }
      expect(height).toBeGreaterThanOrEqual(6);
    } finally {
      child.kill('SIGINT');
      await new Promise((r) => child.once('exit', r));
    }
  }, 60_000);

  it('a node stopped with stop() leaves nothing behind: the process exits by itself', () => {
    const fixture = fileURLToPath(new URL('../fixtures/start-stop.ts', import.meta.url));
    const r = spawnSync(process.execPath, ['--import', 'tsx', fixture], { encoding: 'utf8', timeout: 30_000 });
    expect(r.signal, 'process had to be killed: a handle was left open').toBeNull();
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain('stopped at height 3');
  }, 40_000);
});
