/**
 * The built CLI (`dist/cli/main.js`, what `npm start` and `npx chainlet` run), spawned as a user
 * would: every key of the config table as a flag reaches the effective config, bad values and
 * unknown flags stop with one line, and a started node serves what its flags asked for.
 */
import { spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse as parseToml } from 'smol-toml';
import { bytesToHex } from 'viem';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { defaultConfig } from '../../src/config/defaults.js';
import { CONFIG_KEYS, JSON_RPC_NAMESPACES, keyName, parseDurationMs, type ConfigKey } from '../../src/config/keys.js';
import { signTransfer } from '../helpers/txs.js';
import { connectAbci } from '../abci-socket/client.js';
import { CLI_BIN as bin, freePort, killAll, spawnCli, PORTS0 } from '../helpers/cli.js';

const tmp = mkdtempSync(join(tmpdir(), 'chainlet-bin-'));
afterEach(killAll);
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const run = (...args: string[]) => spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8', timeout: 30_000 });

/** Starts the binary with text output (stdout is a pipe here); resolves with its stdout once the banner is complete. */
async function start(args: string[]): Promise<{ child: ChildProcess; out: () => string; banner: string }> {
  const { child, out, waitFor } = spawnCli(['start', '--output', 'text', ...args]);
  return { child, out, banner: await waitFor('Ctrl-C to stop') };
}

const urlOf = (banner: string, label: string) => new RegExp(`${label}:\\s+(http://\\S+)`).exec(banner)![1]!;

async function rpc(url: string, method: string, params: unknown[] = []): Promise<{ result?: unknown; error?: { code: number; message: string } }> {
  const r = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  return (await r.json()) as { result?: unknown; error?: { code: number; message: string } };
}

/** A value different from the default for each key, as a flag gives it, and what `config show` must print. */
function nonDefault(key: ConfigKey, i: number): { args: string[]; expect: (printed: unknown) => void } {
  const flag = `--${keyName(key)}`;
  const [a, b] = key.path;
  const def = b === undefined ? (defaultConfig()[a] as unknown) : (defaultConfig()[a] as unknown as Record<string, unknown>)[b];
  const same = (want: unknown) => (printed: unknown) => expect(printed, flag).toEqual(want);
  switch (key.kind) {
    case 'bool':
      // Switch form for true, `=false` for false: both spellings of Cosmos EVM and CometBFT.
      return def ? { args: [`${flag}=false`], expect: same(false) } : { args: [flag], expect: same(true) };
    case 'int':
      return { args: [flag, String((def as number) + 7 + i)], expect: same((def as number) + 7 + i) };
    case 'bigint':
      return { args: [flag, String((def as bigint) + 12_345n)], expect: same(Number((def as bigint) + 12_345n)) };
    case 'duration': {
      const ms = (def as number) + 1500 + i;
      return { args: [flag, `${ms}ms`], expect: (p) => expect(parseDurationMs(p as string), flag).toBe(ms) };
    }
    case 'list': {
      const v = key.choices
        ? [...JSON_RPC_NAMESPACES].filter((n) => !(def as string[]).includes(n)).slice(0, 2)
        : key.hexAddresses
          ? ['0x5FbDB2315678afecb367f032d93F642f64180aa3', '0xe7f1725e7734ce288f8367e1bb143e90bb3f0512']
          : ['a.example', 'b.example'];
      return { args: [flag, v.join(',')], expect: same(v) };
    }
    case 'map':
      return { args: [flag, 'achainlet=1.25,0xabc=2'], expect: same({ achainlet: '1.25', '0xabc': '2' }) };
    case 'string': {
      const v = key.choices ? key.choices.find((c) => c !== def)! : key.address ? `127.0.0.1:${20_000 + i}` : `value-${i}`;
      return { args: [flag, v], expect: same(v) };
    }
  }
}

describe('chainlet (built binary)', () => {
  it('config show: every key of the key table set by its flag is in force', () => {
    const cases = CONFIG_KEYS.map((k, i) => ({ key: k, ...nonDefault(k, i) }));
    const r = run('config', 'show', ...cases.flatMap((c) => c.args));
    expect(r.status, r.stderr).toBe(0);
    const doc = parseToml(r.stdout) as Record<string, Record<string, unknown>>;
    for (const c of cases) {
      const sec = c.key.section === '' ? doc : doc[c.key.section]!;
      c.expect(sec[c.key.name]);
    }
  });

  it('config show reads a home and lets flags override it; the gas-cap alias works', () => {
    const home = join(tmp, 'show');
    expect(run('init', '--home', home).status).toBe(0);
    const r = run('config', 'show', '--home', home, '--json-rpc.rpc-gas-cap', '99', '--mode', 'manual');
    expect(r.status, r.stderr).toBe(0);
    const doc = parseToml(r.stdout) as Record<string, Record<string, unknown>>;
    expect(doc['db_backend']).toBe('classic');
    expect(doc['evm']!['devnet']).toBe(false);
    expect(doc['json-rpc']!['gas-cap']).toBe(99);
    expect(doc['consensus']!['mode']).toBe('manual');
  });

  it.each([
    [['--json-rpc.evm-timeout', 'abc'], '--json-rpc.evm-timeout', 'duration'],
    [['--rpc.laddr', 'nonsense'], '--rpc.laddr', 'listen address'],
    [['--json-rpc.api', 'eth,bogus'], '--json-rpc.api', 'eth, web3, net, txpool, debug, personal, admin, miner'],
    [['--json-rpc.enable-profiling=maybe'], '--json-rpc.enable-profiling', 'true or false'],
    [['--mempool.size', '12x'], '--mempool.size', 'integer'],
    [['--port', 'http'], '--port', 'port'],
    [['--no-such-flag', '1'], "'--no-such-flag'", 'unknown option'],
  ])('start %j stops with one line naming the flag, exit 1', (args, flag, accepts) => {
    const r = run('start', ...args);
    expect(r.status).toBe(1);
    const lines = r.stderr.trim().split('\n');
    expect(lines, r.stderr).toHaveLength(1);
    expect(lines[0]).toContain(flag);
    expect(lines[0]).toContain(accepts);
    expect(r.stdout).toBe('');
  });

  it('init on an existing home says what exists and how to overwrite it, without a stack trace', () => {
    const home = join(tmp, 'twice');
    expect(run('init', '--home', home).status).toBe(0);
    const r = run('init', '--home', home);
    expect(r.status).toBe(1);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/already initialised.*genesis\.json exists.*--overwrite/);
    expect(run('init', '--home', home, '--overwrite').status).toBe(0);
  });

  describe('a busy port', () => {
    let blocker: Server;
    afterEach(() => new Promise<void>((r) => blocker.close(() => r())));
    it('says the address is in use and which flag moves it', async () => {
      blocker = createServer();
      await new Promise<void>((r) => blocker.listen(0, '127.0.0.1', () => r()));
      const port = (blocker.address() as { port: number }).port;
      const r = spawnSync(
        process.execPath,
        [
          bin,
          'start',
          '--silent',
          '--json-rpc.address',
          `127.0.0.1:${port}`,
          '--json-rpc.ws-address',
          '127.0.0.1:0',
          '--rpc.laddr',
          'tcp://127.0.0.1:0',
          '--routing.address',
          '127.0.0.1:0',
          // The other chains on ports 0 too: a default port another test holds would be named first.
          '--hub-rpc',
          'tcp://127.0.0.1:0',
          '--svm-rpc',
          '127.0.0.1:0',
          '--svm-ws',
          '127.0.0.1:0',
        ],
        {
          encoding: 'utf8',
          timeout: 30_000,
        },
      );
      expect(r.status).toBe(1);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(r.stderr).toContain(`127.0.0.1:${port}`);
      expect(r.stderr).toContain('already in use');
      expect(r.stderr).toContain('--json-rpc.address');
      expect(r.stderr).toContain('[json-rpc] address');
    });
  });

  it('a started node serves the namespaces and switches its flags asked for, and logs each tx and block', async () => {
    const { child, out, banner } = await start([
      ...PORTS0,
      '--json-rpc.api',
      'eth,web3,net,debug',
      '--json-rpc.enable-profiling',
      '--accounts',
      '3',
      '--balance',
      '42',
    ]);
    const url = urlOf(banner, 'Ethereum JSON-RPC');
    expect((await rpc(url, 'debug_memStats')).result).toBeTypeOf('object');
    // enable-profiling given alone switched it on: the profiling hooks answer.
    expect((await rpc(url, 'debug_freeOSMemory')).error).toBeUndefined();
    expect(banner).toMatch(/\(2\) 0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC \(42 CHAINLET\)  chainlet1/);
    expect(banner).not.toContain('(3) 0x');
    expect(banner).toMatch(/Namespaces:\s+eth, web3, net, debug \(profiling on\)/);
    expect(banner).toMatch(/Devnet control:\s+on/);
    expect(banner).toMatch(/Routing API limit:/);
    const hash = (await rpc(url, 'eth_sendRawTransaction', [bytesToHex(await signTransfer({ nonce: 0 }))])).result as string;
    // --output text: the log lines as a terminal shows them, each naming its chain (JSON lines: cli-start.test.ts).
    const line = await new Promise<string>((resolve) => {
      const t = setInterval(() => {
        const l = out()
          .split('\n')
          .find((s) => s.includes(`tx ${hash}`));
        if (l) {
          clearInterval(t);
          resolve(l);
        }
      }, 20);
    });
    expect(line.toLowerCase()).toMatch(
      /^chainlet_9000-1 +  tx 0x[0-9a-f]{64}  from 0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266 to 0x[0-9a-f]{40}  gas 21000  ok  block \d+$/,
    );
    expect(out()).toMatch(/^chainlet_9000-1 +block \d+ /m);
    child.kill('SIGTERM');
  });

  it('--chain-id, --mnemonic and --host shape the devnet', async () => {
    const mnemonic = 'abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about';
    const { child, banner } = await start([...PORTS0, '--chain-id', 'demo_4242-1', '--mnemonic', mnemonic, '--accounts', '1', '--host', '127.0.0.1']);
    const url = urlOf(banner, 'Ethereum JSON-RPC');
    expect((await rpc(url, 'eth_chainId')).result).toBe('0x1092');
    expect(banner).toMatch(/Chain ID \(Cosmos\): demo_4242-1/);
    expect(banner).toContain(`Mnemonic:          ${mnemonic}`);
    // The first account of that mnemonic at m/44'/60'/0'/0/0.
    expect(banner).toMatch(/\(0\) 0x9858EfFD232B4033E47d90003D41EC34EcaEda94 \(10000 CHAINLET\)/);
    child.kill('SIGTERM');
  });

  it('--chains evm,kvstore starts a second chain with its own CometBFT RPC, listed in the banner', async () => {
    const { child, banner } = await start([...PORTS0, '--chains', 'evm,kvstore', '--kvstore-rpc', 'tcp://127.0.0.1:0']);
    const m = /kvstore-1 \(kvstore\): CometBFT RPC (http:\/\/\S+)/.exec(banner);
    expect(m, banner).not.toBeNull();
    const status = (await (await fetch(`${m![1]}/status`)).json()) as { result: { node_info: { network: string } } };
    expect(status.result.node_info.network).toBe('kvstore-1');
    const evmStatus = (await (await fetch(`${urlOf(banner, 'CometBFT RPC')}/status`)).json()) as { result: { node_info: { network: string } } };
    expect(evmStatus.result.node_info.network).toBe('chainlet_9000-1');
    child.kill('SIGTERM');
    const r = run('start', '--chains', 'evm,solana');
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('--chains');
  });

  it('--chains evm,svm starts an SVM chain whose Solana JSON-RPC answers, listed in the banner', async () => {
    const { child, banner } = await start([...PORTS0, '--chains', 'evm,svm', '--svm-rpc', '127.0.0.1:0', '--svm-ws', '127.0.0.1:0']);
    const m = /solana-devnet \(svm, LiteSVM\): Solana JSON-RPC (http:\/\/\S+)/.exec(banner);
    expect(m, banner).not.toBeNull();
    const acct = /\(0\) (\S+)  \(m\/44'\/501'\/0'\/0', 1000 SOL\)/.exec(banner)![1]!;
    const r = await fetch(m![1]!, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'getBalance', params: [acct] }),
    });
    expect(((await r.json()) as { result: { value: number } }).result.value).toBe(1000 * 1e9);
    child.kill('SIGTERM');
    const bad = run('start', '--chains', 'evm,svm', '--svm-rpc', 'nonsense');
    expect(bad.status).toBe(1);
    expect(bad.stderr).toContain('--svm-rpc');
  });

  it("chainlet app serves the home's EVM app over the ABCI socket", async () => {
    const home = join(tmp, 'abci');
    expect(run('init', '--home', home).status).toBe(0);
    const { child, waitFor } = spawnCli(['app', '--home', home, '--proxy-app', 'tcp://127.0.0.1:0']);
    const out = await waitFor((o) => /ABCI server on (tcp:\/\/\S+)/.test(o));
    const address = /ABCI server on (tcp:\/\/\S+)/.exec(out)![1]!;
    const c = await connectAbci(address);
    const info = (await c.call({ info: { version: '0.38.17', blockVersion: 11n, p2pVersion: 8n, abciVersion: '2.0.0' } })).info!;
    expect(info.lastBlockHeight).toBe(0n);
    c.close();
    child.kill('SIGTERM');
  });

  it('--silent prints nothing', async () => {
    const port = await freePort();
    const { out } = spawnCli(['start', '--silent', ...PORTS0, '--json-rpc.address', `127.0.0.1:${port}`]);
    for (;;) {
      const r = await rpc(`http://127.0.0.1:${port}`, 'eth_chainId').catch(() => undefined);
      if (r?.result === '0x2328') break;
      await new Promise((res) => setTimeout(res, 50));
    }
    await rpc(`http://127.0.0.1:${port}`, 'eth_sendRawTransaction', [bytesToHex(await signTransfer({ nonce: 0 }))]);
    await rpc(`http://127.0.0.1:${port}`, 'eth_blockNumber');
    expect(out()).toBe('');
  });
});
