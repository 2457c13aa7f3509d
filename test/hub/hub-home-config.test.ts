/**
 * The hub's and the kvstore's config.toml on a home, with the built CLI: `chainlet init --home`
 * writes `<home>/hub/config/config.toml` and `<home>/kvstore/config/config.toml`, `chainlet start
 * --home` runs each chain on its file's settings (RPC address, block production, moniker), a flag
 * given on the command line overrides the file, and `chainlet config show --home` prints them.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { killAll, PORTS0, spawnCli } from '../helpers/cli.js';

const homes: string[] = [];
afterEach(killAll);
afterAll(() => {
  for (const h of homes) rmSync(h, { recursive: true, force: true });
});

/** Runs a CLI command to its end: its exit code and output. */
async function run(args: string[]): Promise<{ code: number | null; out: string; err: string }> {
  const cli = spawnCli(args);
  const code = await new Promise<number | null>((resolve) => cli.child.once('exit', resolve));
  return { code, out: cli.out(), err: cli.err() };
}

async function initHome(): Promise<string> {
  const home = mkdtempSync(join(tmpdir(), 'chainlet-hub-config-'));
  homes.push(home);
  const init = await run(['init', '--home', home, '--chains', 'evm,hub,kvstore']);
  expect(init.code, init.err).toBe(0);
  expect(init.out).toContain(join(home, 'hub', 'config', 'config.toml'));
  expect(init.out).toContain(join(home, 'kvstore', 'config', 'config.toml'));
  return home;
}

const hubConfig = (home: string) => join(home, 'hub', 'config', 'config.toml');
const kvConfig = (home: string) => join(home, 'kvstore', 'config', 'config.toml');

/** The home's hub file, as init wrote it, with `[rpc] laddr`, `[consensus]` (`consensus`: its lines) and `moniker` set. */
function setHubFile(home: string, laddr: string, consensus: string): void {
  const text = readFileSync(hubConfig(home), 'utf8');
  expect(text).toMatch(/^\[rpc\]\nladdr = "tcp:\/\/127\.0\.0\.1:26757"$/m);
  expect(text).toMatch(/^mode = "automine"$/m);
  writeFileSync(
    hubConfig(home),
    text
      .replace(/^laddr = .*$/m, `laddr = "${laddr}"`)
      .replace(/^timeout_commit = .*\n/m, '')
      .replace(/^mode = .*$/m, consensus)
      .replace(/^moniker = .*$/m, 'moniker = "hub-from-file"'),
  );
}

/** PORTS0 without the pair of one flag. */
const portsWithout = (flag: string) => PORTS0.filter((_, i) => PORTS0[i] !== flag && PORTS0[i - 1] !== flag);

async function status(url: string): Promise<{ node_info: { moniker: string }; sync_info: { latest_block_height: string } }> {
  const res = (await (await fetch(`${url}/status`)).json()) as { result: { node_info: { moniker: string }; sync_info: { latest_block_height: string } } };
  return res.result;
}

describe("the hub's config.toml on a home", () => {
  it('start --home runs the hub and the kvstore on their files (RPC address, interval blocks, moniker)', async () => {
    const home = await initHome();
    setHubFile(home, 'tcp://127.0.0.1:0', 'mode = "interval"\ntimeout_commit = "100ms"');
    writeFileSync(kvConfig(home), readFileSync(kvConfig(home), 'utf8').replace(/^laddr = .*$/m, 'laddr = "tcp://127.0.0.1:0"'));
    const cli = spawnCli(['start', '--home', home, ...portsWithout('--hub-rpc'), '--output', 'json', '--chains', 'evm,hub,kvstore']);
    const out = await cli.waitFor((o) => o.includes('"event":"ready"'), { timeoutMs: 60_000 });
    const ready = JSON.parse(out.split('\n').find((l) => l.includes('"event":"ready"'))!) as { chains: { kind: string; urls: Record<string, string> }[] };
    const url = (kind: string) => ready.chains.find((c) => c.kind === kind)!.urls['rpc']!;
    // Port 0 from the files: not the flags' defaults (26757, 26767).
    expect(new URL(url('hub')).port).not.toBe('26757');
    expect(new URL(url('kvstore')).port).not.toBe('26767');
    const first = await status(url('hub'));
    expect(first.node_info.moniker).toBe('hub-from-file');
    // Interval mode: empty blocks keep coming with no tx sent (automine would make none).
    const from = Number(first.sync_info.latest_block_height);
    while (Number((await status(url('hub'))).sync_info.latest_block_height) < from + 3) await new Promise((r) => setTimeout(r, 50));
  });

  it('a flag given on the command line overrides the file', async () => {
    const home = await initHome();
    // Port 1 is one browsers refuse: start refuses it too, naming the file it came from.
    setHubFile(home, 'tcp://127.0.0.1:1', 'mode = "automine"');
    const refused = await run(['start', '--home', home, ...portsWithout('--hub-rpc'), '--chains', 'evm,hub']);
    expect(refused.code).toBe(1);
    expect(refused.err).toContain(hubConfig(home));
    const cli = spawnCli(['start', '--home', home, ...PORTS0, '--hub-block-time', '100', '--output', 'json', '--chains', 'evm,hub']);
    const out = await cli.waitFor((o) => o.includes('"event":"ready"'), { timeoutMs: 60_000 });
    const ready = JSON.parse(out.split('\n').find((l) => l.includes('"event":"ready"'))!) as { chains: { kind: string; urls: Record<string, string> }[] };
    const hub = ready.chains.find((c) => c.kind === 'hub')!.urls['rpc']!;
    expect(new URL(hub).port).not.toBe('1');
    // --hub-block-time over the file's automine: blocks come with no tx sent.
    const from = Number((await status(hub)).sync_info.latest_block_height);
    while (Number((await status(hub)).sync_info.latest_block_height) < from + 3) await new Promise((r) => setTimeout(r, 50));
  });

  it("config show --home prints the hub's and the kvstore's values and where each came from", async () => {
    const home = await initHome();
    setHubFile(home, 'tcp://127.0.0.1:0', 'mode = "interval"\ntimeout_commit = "250ms"');
    const shown = await run(['config', 'show', '--home', home, '--chains', 'evm,hub,kvstore']);
    expect(shown.code, shown.err).toBe(0);
    expect(shown.out).toContain(`# hub: CometBFT RPC tcp://127.0.0.1:0 (${hubConfig(home)}), a block every 250 ms (${hubConfig(home)})`);
    expect(shown.out).toContain(`# kvstore: CometBFT RPC tcp://127.0.0.1:26767 (${kvConfig(home)})`);
    const flags = await run(['config', 'show', '--home', home, '--hub-rpc', 'tcp://127.0.0.1:26800', '--hub-block-time', '0']);
    expect(flags.code, flags.err).toBe(0);
    expect(flags.out).toContain('# hub: CometBFT RPC tcp://127.0.0.1:26800 (--hub-rpc), automine (--hub-block-time)');
  });
});
