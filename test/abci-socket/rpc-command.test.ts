/**
 * `chainlet rpc` as a user runs it: the built CLI serves a home's app on the ABCI socket and the
 * Ethereum JSON-RPC and routing API beside it. A consensus engine of this project stands in for
 * CometBFT and drives the app through the printed proxy_app address; bad flags and an unreachable
 * CometBFT get one clear line, never a crash.
 */
import { spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { connectSocketApp } from '../../src/abci-server/socket-client.js';
import { loadHome } from '../../src/genesis/home.js';
import { startAbciChain } from '../../src/chains/abci-chain.js';
import { signEthTransfer, DEV_ADDRESS_0, DEV_KEY_0, DEV_ADDRESS_1 } from '../../src/app/fixtures/signed-txs.js';
import { CLI_BIN as bin, killAll, spawnCli } from '../helpers/cli.js';

const homes: string[] = [];
const run = (...args: string[]) => spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8', timeout: 30_000 });

function newHome(): string {
  const home = mkdtempSync(join(tmpdir(), 'chainlet-rpc-cli-'));
  homes.push(home);
  expect(run('init', '--home', home).status).toBe(0);
  return home;
}

async function rpc(url: string, method: string, params: unknown[] = []): Promise<{ result?: unknown; error?: { code: number; message: string } }> {
  const r = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  return (await r.json()) as { result?: unknown; error?: { code: number; message: string } };
}

afterAll(async () => {
  await killAll();
  for (const h of homes) rmSync(h, { recursive: true, force: true });
});

describe('chainlet rpc (built CLI)', () => {
  it('serves the app to a consensus engine over the printed proxy_app and answers eth_* from what it committed', async () => {
    const home = newHome();
    const { child, out, waitFor } = spawnCli([
      'rpc',
      '--home',
      home,
      '--comet',
      'http://127.0.0.1:9',
      '--proxy-app',
      'tcp://127.0.0.1:0',
      '--json-rpc.address',
      '127.0.0.1:0',
      '--json-rpc.ws-address',
      '127.0.0.1:0',
      '--routing.address',
      '127.0.0.1:0',
    ]);
    await waitFor('Ctrl-C to stop', { timeoutMs: 10_000 }).catch(() => undefined);
    expect(out()).toContain('Ctrl-C to stop');
    const abci = /ABCI app \(proxy_app\)\s+(\S+)/.exec(out())![1]!;
    const eth = /Ethereum JSON-RPC\s+(http:\/\/\S+)/.exec(out())![1]!;
    expect(/routing API\s+(http:\/\/\S+)/.exec(out())).not.toBeNull();

    const app = await connectSocketApp(abci);
    const h = loadHome(home);
    const chain = await startAbciChain({
      app,
      genesis: h.genesis,
      validatorKeys: h.validatorKeys,
      config: { rpc: { laddr: '' }, consensus: { mode: 'manual' } },
      logger: pino({ level: 'silent' }),
      closeApp: () => app.close(),
    });
    try {
      await chain.broadcastTx(signEthTransfer(DEV_KEY_0, DEV_ADDRESS_1, 1234n, { nonce: 0n }));
      await chain.mine(1);
      expect((await rpc(eth, 'eth_blockNumber')).result).toBe('0x2');
      expect((await rpc(eth, 'eth_getTransactionCount', [DEV_ADDRESS_0, 'latest'])).result).toBe('0x1');
      const before = BigInt((await rpc(eth, 'eth_getBalance', [DEV_ADDRESS_1, '0x1'])).result as string);
      const after = BigInt((await rpc(eth, 'eth_getBalance', [DEV_ADDRESS_1, 'latest'])).result as string);
      expect(after - before).toBe(1234n);
      // The CometBFT given by --comet is not there: a send answers a JSON-RPC error naming it.
      const refused = await rpc(eth, 'eth_sendRawTransaction', [
        `0x${Buffer.from(signEthTransfer(DEV_KEY_0, DEV_ADDRESS_1, 1n, { nonce: 1n })).toString('hex')}`,
      ]);
      expect(refused.error?.message).toMatch(/cannot reach CometBFT at http:\/\/127\.0\.0\.1:9/);
    } finally {
      await chain.stop();
    }
    child.kill('SIGTERM');
    const code = await new Promise<number | null>((r) => child.once('exit', r));
    expect(code).toBe(0);
  });

  it('chainlet app --app kvstore serves CometBFT’s kvstore example, whose state survives a restart', async () => {
    const home = newHome();
    const startApp = async (): Promise<{ child: ChildProcess; address: string }> => {
      const { child, out, waitFor } = spawnCli(['app', '--home', home, '--app', 'kvstore', '--proxy-app', 'tcp://127.0.0.1:0']);
      await waitFor((o) => /ABCI server on (tcp:\/\/\S+)/.test(o), { timeoutMs: 10_000 }).catch(() => undefined);
      expect(out()).toContain("the kvstore app's ABCI server on");
      return { child, address: /ABCI server on (tcp:\/\/\S+)/.exec(out())![1]! };
    };
    const stopApp = async (child: ChildProcess) => {
      child.kill('SIGTERM');
      expect(await new Promise<number | null>((r) => child.once('exit', r))).toBe(0);
    };
    const first = await startApp();
    const app = await connectSocketApp(first.address);
    const h = loadHome(home);
    const chain = await startAbciChain({
      app,
      genesis: { ...h.genesis, appState: {} },
      validatorKeys: h.validatorKeys,
      config: { rpc: { laddr: '' }, consensus: { mode: 'manual' } },
      logger: pino({ level: 'silent' }),
      closeApp: () => app.close(),
    });
    try {
      expect((await chain.broadcastTx(new TextEncoder().encode('name=satoshi'))).code).toBe(0);
      await chain.mine(1);
      const q = await app.query({ path: '', data: new TextEncoder().encode('name'), height: 0, prove: false });
      expect(new TextDecoder().decode(q.value!)).toBe('satoshi');
    } finally {
      await chain.stop();
    }
    await stopApp(first.child);
    const second = await startApp();
    const again = await connectSocketApp(second.address);
    try {
      const info = await again.info({ version: '0.38.25', blockVersion: 11, p2pVersion: 8, abciVersion: '2.0.0' });
      expect(info.lastBlockHeight).toBe(2);
      const q = await again.query({ path: '', data: new TextEncoder().encode('name'), height: 0, prove: false });
      expect(new TextDecoder().decode(q.value!)).toBe('satoshi');
    } finally {
      again.close();
    }
    await stopApp(second.child);
    const bad = run('app', '--home', home, '--app', 'nope');
    expect(bad.status).toBe(1);
    expect(bad.stderr).toMatch(/invalid value "nope" for --app: expected one of evm, kvstore/);
  });

  it('refuses bad flags with one line and exit code 1', () => {
    const home = newHome();
    const noHome = run('rpc', '--comet', 'http://127.0.0.1:26657');
    expect(noHome.status).toBe(1);
    expect(noHome.stderr).toMatch(/chainlet rpc needs --home/);
    const badComet = run('rpc', '--home', home, '--comet', 'localhost:26657');
    expect(badComet.status).toBe(1);
    expect(badComet.stderr).toMatch(/invalid value "localhost:26657" for --comet/);
    const noComet = run('rpc', '--home', home);
    expect(noComet.status).toBe(1);
    expect(noComet.stderr).toMatch(/--comet/);
    const personal = run('rpc', '--home', home, '--comet', 'http://127.0.0.1:26657', '--proxy-app', 'tcp://127.0.0.1:0', '--json-rpc.api', 'eth,personal');
    expect(personal.status).toBe(1);
    expect(personal.stderr).toMatch(/cannot serve the personal namespace/);
  });
});
