/**
 * `chainlet start` as a new user meets it, through the built binary (`dist/cli/main.js`): the
 * version flag, a chain that starts halted, flags refused with one line, a banner that ends on the
 * endpoints, JSON lines when stdout is not a terminal, what a slow start waits for, every server
 * listening before the first one answers, the debug namespace's hint, and the hub's txs in the log.
 */
import { spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DirectSecp256k1HdWallet } from '@cosmjs/proto-signing';
import { SigningStargateClient } from '@cosmjs/stargate';
import { afterEach, describe, expect, it } from 'vitest';
import { DEV_MNEMONIC } from '../../src/genesis/dev-accounts.js';
import { CLI_BIN as bin, freePort, killAll, spawnCli, PORTS0 } from '../helpers/cli.js';

const { version } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
afterEach(killAll);

const run = (...args: string[]) => spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8', timeout: 30_000 });

interface Started {
  child: ChildProcess;
  out: () => string;
  err: () => string;
}

/** Starts the binary (stdout a pipe); resolves once stdout has a line `done` accepts. */
async function start(args: string[], done: (out: string) => boolean): Promise<Started> {
  const { child, out, err, waitFor } = spawnCli(['start', ...args]);
  await waitFor(done);
  return { child, out, err };
}

interface ReadyLine {
  event: 'ready';
  chains: { chainId: string; kind: string; height: number; halted?: string; accounts: { address: string; balance: string }[] }[];
  endpoints: { name: string; url: string; ws?: string }[];
}

const jsonLines = (out: string) =>
  out
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as Record<string, unknown>);
const readyOf = (out: string) => jsonLines(out).find((j) => j['event'] === 'ready') as ReadyLine | undefined;
const hasReady = (out: string) => out.split('\n').some((l) => l.includes('"event":"ready"'));
const endpoint = (r: ReadyLine, name: string) => r.endpoints.find((e) => e.name === name || e.name.startsWith(`${name} `))!.url;

async function rpc(url: string, method: string, params: unknown[] = []): Promise<{ result?: unknown; error?: { code: number; message: string } }> {
  const r = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  return (await r.json()) as { result?: unknown; error?: { code: number; message: string } };
}

/** Resolves once `f` resolves without throwing (a server not listening yet throws). */
async function until<T>(f: () => Promise<T>): Promise<T> {
  for (;;) {
    try {
      return await f();
    } catch {
      await new Promise((r) => setTimeout(r, 10));
    }
  }
}

describe('chainlet start (built binary), as a new user meets it', () => {
  it('--version and -V print the package version', () => {
    for (const flag of ['--version', '-V']) {
      const r = run(flag);
      expect(r.status, r.stderr).toBe(0);
      expect(r.stdout.trim()).toBe(version);
    }
  });

  it('--offline-validators out of range stops with one line naming the flag and what it accepts', () => {
    const r = run('start', ...PORTS0, '--validators', '4', '--offline-validators', '7');
    expect(r.status).toBe(1);
    const lines = r.stderr.trim().split('\n');
    expect(lines, r.stderr).toHaveLength(1);
    expect(lines[0]).toContain('--offline-validators');
    expect(lines[0]).toContain('0 to 3');
    expect(r.stdout).toBe('');
  });

  const withoutEth = PORTS0.filter((_, i) => !['--json-rpc.address', '--json-rpc.ws-address'].includes(PORTS0[i - (i % 2)]!));
  it("--offline-validators out of a home's range stops with one line too", () => {
    const home = mkdtempSync(join(tmpdir(), 'chainlet-start-'));
    try {
      expect(run('init', '--home', home).status).toBe(0);
      const r = run('start', ...PORTS0, '--home', home, '--offline-validators', '3');
      expect(r.status).toBe(1);
      const lines = r.stderr.trim().split('\n');
      expect(lines, r.stderr).toHaveLength(1);
      expect(lines[0]).toMatch(/--offline-validators: expected comma-separated validator indices from 0 to 0/);
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  });

  it.each([
    ['--routing.address', [...PORTS0, '--routing.address', '127.0.0.1:10080']],
    ['--svm-rpc', [...PORTS0, '--svm-rpc', '127.0.0.1:6000']],
    // The WebSocket takes port + 1 = 10080.
    ['--port', [...withoutEth, '--port', '10079']],
  ])('a port browsers and fetch refuse, given by %s, stops with one line naming the flag', (flag, args) => {
    const r = run('start', ...args);
    expect(r.status).toBe(1);
    const lines = r.stderr.trim().split('\n');
    expect(lines, r.stderr).toHaveLength(1);
    expect(lines[0]).toContain(flag);
    expect(lines[0]).toContain('ERR_UNSAFE_PORT');
    expect(r.stdout).toBe('');
  });

  it('a chain that cannot reach +2/3 starts its servers, says it is halted and why, and answers RPC', async () => {
    const s = await start([...PORTS0, '--validators', '4', '--offline-validators', '2,3', '--output', 'text'], (o) => o.includes('Ctrl-C to stop'));
    const out = s.out();
    expect(out).toMatch(/HALTED: chainlet_9000-1 produces no blocks: online voting power \d+ of \d+ is not more than 2\/3 \(validators 2, 3 offline\)/);
    expect(out).toMatch(/chainlet_setValidatorOnline \[2, true\]/);
    const comet = /CometBFT RPC:\s+(http:\S+)/.exec(out)![1]!;
    const status = (await (await fetch(`${comet}/status`)).json()) as { result: { node_info: { network: string } } };
    expect(status.result.node_info.network).toBe('chainlet_9000-1');
    const eth = /Ethereum JSON-RPC:\s+(http:\S+)/.exec(out)![1]!;
    expect((await rpc(eth, 'eth_chainId')).result).toBe('0x2328');
    // Bringing a validator back resumes the chain: 3 of 4 is more than 2/3.
    expect((await rpc(eth, 'chainlet_setValidatorOnline', [2, true])).result).toBe(true);
    await until(async () => {
      if ((await rpc(eth, 'eth_blockNumber')).result === '0x0') throw new Error('no block yet');
    });
  });

  it("the banner (text) ends on the endpoints and lists the other chains' balances read from them", async () => {
    const s = await start([...PORTS0, '--output', 'text'], (o) => o.includes('Ctrl-C to stop'));
    const lines = s.out().trimEnd().split('\n');
    const last = lines[lines.length - 1]!;
    const eth = /^Ethereum JSON-RPC:\s+(http:\/\/(\S+))/.exec(lines[lines.length - 3]!);
    expect(eth, lines.slice(-12).join('\n')).not.toBeNull();
    expect(last).toBe(`Listening on ${eth![2]} at height ${/height (\d+)/.exec(last)![1]}. Ctrl-C to stop.`);
    const tail = lines.slice(lines.lastIndexOf('Endpoints')).join('\n');
    for (const label of [
      'CometBFT RPC:',
      'Routing API:',
      'Explorer:',
      'chainlethub-1 (hub): CometBFT RPC http',
      'solana-devnet (svm, LiteSVM): Solana JSON-RPC http',
    ])
      expect(tail).toContain(label);
    expect(s.out()).toMatch(/\(0\) hub1\S+  \(m\/44'\/118'\/0'\/0\/0, 1000000 HUB\)/);
    expect(s.out()).toMatch(/\(0\) \S+  \(m\/44'\/501'\/0'\/0', 1000 SOL\)/);
  });

  it('stdout that is not a terminal carries only JSON lines: the banner is one object; a hub tx is logged naming the hub, its sender and recipient', async () => {
    const s = await start([...PORTS0], hasReady);
    const ready = readyOf(s.out())!;
    const hub = ready.chains.find((c) => c.kind === 'hub')!;
    expect(hub.accounts[0]!.balance).toBe('1000000000000');
    expect(ready.chains.find((c) => c.kind === 'svm')!.accounts[0]!.balance).toBe(String(1000n * 10n ** 9n));
    expect(ready.endpoints.at(-1)!.name).toBe('Ethereum JSON-RPC');

    const wallet = await DirectSecp256k1HdWallet.fromMnemonic(DEV_MNEMONIC, { prefix: 'hub' });
    const [from] = await wallet.getAccounts();
    const to = hub.accounts[2]!.address;
    const client = await SigningStargateClient.connectWithSigner(endpoint(ready, 'chainlethub-1'), wallet, { broadcastPollIntervalMs: 50 });
    const fee = { amount: [{ denom: 'uhub', amount: '5000' }], gas: '200000' };
    const ok = await client.sendTokens(from!.address, to, [{ denom: 'uhub', amount: '25' }], fee);
    expect(ok.code).toBe(0);
    const poor = await client.sendTokens(from!.address, to, [{ denom: 'uhub', amount: (10n ** 20n).toString() }], fee);
    expect(poor.code).not.toBe(0);
    client.disconnect();

    const lineOf = (hash: string) =>
      until(async () => jsonLines(s.out()).find((j) => j['event'] === 'tx' && j['hash'] === hash) ?? Promise.reject(new Error('not yet')));
    expect(await lineOf(ok.transactionHash)).toMatchObject({ chain: 'chainlethub-1', from: from!.address, to, status: 'success' });
    expect(await lineOf(poor.transactionHash)).toMatchObject({ chain: 'chainlethub-1', from: from!.address, status: 'failed' });
    expect(jsonLines(s.out()).some((j) => j['event'] === 'block' && j['chain'] === 'chainlethub-1')).toBe(true);
    // Every line of stdout parses (the banner included).
    expect(() => jsonLines(s.out())).not.toThrow();
  });

  it('a slow start says what it waits for, and the first server to answer finds the other chains listening', async () => {
    const [eth, hubRpc, svmRpc] = [await freePort(), await freePort(), await freePort()];
    const args = [
      ...PORTS0,
      '--json-rpc.address',
      `127.0.0.1:${eth}`,
      '--hub-rpc',
      `tcp://127.0.0.1:${hubRpc}`,
      '--svm-rpc',
      `127.0.0.1:${svmRpc}`,
      '--mode',
      'interval',
      '--block-time',
      '200',
    ];
    const { out, err } = spawnCli(['start', ...args]);
    await until(() => rpc(`http://127.0.0.1:${eth}`, 'eth_chainId'));
    // Whichever server answers first, the other chains' servers already listen.
    expect((await (await fetch(`http://127.0.0.1:${hubRpc}/status`)).json()) as object).toHaveProperty('result');
    expect((await rpc(`http://127.0.0.1:${svmRpc}`, 'getHealth')).result).toBe('ok');
    await until(async () => (hasReady(out()) ? undefined : Promise.reject(new Error('no banner yet'))));
    const waits = jsonLines(err())
      .filter((j) => j['event'] === 'waiting')
      .map((j) => j['message']);
    expect(waits).toContain('chainlet_9000-1: waiting for block 1 (interval mode, block time 200 ms)');
    expect(waits.some((m) => String(m).startsWith('opening IBC between chainlet_9000-1 and chainlethub-1'))).toBe(true);
  });

  it("a debug_* method with the namespace off says how to turn it on, after geth's words", async () => {
    const s = await start([...PORTS0], hasReady);
    const r = await rpc(endpoint(readyOf(s.out())!, 'Ethereum JSON-RPC'), 'debug_traceTransaction', ['0x' + '00'.repeat(32)]);
    expect(r.error?.code).toBe(-32601);
    expect(r.error?.message).toMatch(/^the method debug_traceTransaction does not exist\/is not available \(/);
    expect(r.error?.message).toContain('--json-rpc.api eth,web3,net,txpool,debug');
  });
});
