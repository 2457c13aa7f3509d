import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Command } from 'commander';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { registerKeysCommand } from '../../src/cli/keys.js';
import { initHome } from '../../src/genesis/home.js';
import { apiKeysPath } from '../../src/rpc/routing/api-keys.js';
import { startRoutingNode, type RoutingFixture } from './helpers.js';

/** Runs `chainlet keys …` in-process and returns what it printed. */
async function keys(...args: string[]): Promise<{ out: string; err: string; exitCode: number | undefined }> {
  const program = new Command().exitOverride();
  registerKeysCommand(program);
  const out: string[] = [];
  const err: string[] = [];
  const log = vi.spyOn(console, 'log').mockImplementation((...a: unknown[]) => void out.push(a.join(' ')));
  const error = vi.spyOn(console, 'error').mockImplementation((...a: unknown[]) => void err.push(a.join(' ')));
  const before = process.exitCode;
  try {
    await program.parseAsync(['keys', ...args], { from: 'user' });
    return { out: out.join('\n'), err: err.join('\n'), exitCode: process.exitCode === before ? undefined : Number(process.exitCode) };
  } finally {
    process.exitCode = before;
    log.mockRestore();
    error.mockRestore();
  }
}

const KEY_RE = /clk_[0-9a-f]{12}_[0-9a-f]{48}/;

let home: string;
let f: RoutingFixture;

beforeAll(async () => {
  home = mkdtempSync(join(tmpdir(), 'chainlet-routing-home-'));
  initHome(home, { chainId: 'chainlet_9000-1', validators: 1 });
  f = await startRoutingNode({}, { home, logger: pino({ level: 'silent' }) });
});
afterAll(async () => {
  await f?.stop();
  rmSync(home, { recursive: true, force: true });
});

const statusWith = async (key: string) => (await fetch(`${f.url}/v2/info/chains`, { headers: { authorization: key } })).status;

async function eventually(check: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('chainlet keys', () => {
  it('create prints the key once and stores only a salted hash with metadata', async () => {
    const r = await keys('create', '--name', 'deploy bot', '--home', home);
    expect(r.exitCode).toBeUndefined();
    const key = KEY_RE.exec(r.out)?.[0];
    expect(key).toBeDefined();
    expect(r.out).toContain('not shown again');
    const file = readFileSync(apiKeysPath(home), 'utf8');
    expect(file).not.toContain(key!);
    const stored = JSON.parse(file) as { keys: Record<string, string>[] };
    expect(stored.keys).toHaveLength(1);
    expect(stored.keys[0]).toMatchObject({ name: 'deploy bot', prefix: key!.slice(0, 16) });
  });

  it('a key created while the node runs is accepted; an unknown one is refused', async () => {
    const created = JSON.parse((await keys('create', '--name', 'live', '--home', home, '--json')).out) as { key: string; prefix: string };
    expect(created.key).toMatch(KEY_RE);
    await eventually(async () => (await statusWith(created.key)) === 200);
    expect(await statusWith('clk_000000000000_' + '0'.repeat(48))).toBe(401);
  });

  it('list shows metadata, never keys; delete revokes', async () => {
    const created = JSON.parse((await keys('create', '--name', 'temp', '--home', home, '--json')).out) as { key: string; prefix: string };
    await eventually(async () => (await statusWith(created.key)) === 200);
    const list = await keys('list', '--home', home);
    expect(list.out).toContain('temp');
    expect(list.out).toContain(created.prefix);
    expect(list.out).not.toMatch(KEY_RE);
    expect((await keys('delete', 'temp', '--home', home)).out).toBe('deleted API key temp');
    await eventually(async () => (await statusWith(created.key)) === 401);
  });

  it('reports errors without crashing', async () => {
    const dup = await keys('create', '--name', 'live', '--home', home);
    expect(dup.exitCode).toBe(1);
    expect(dup.err).toContain('an API key named "live" already exists');
    const missing = await keys('delete', 'nobody', '--home', home);
    expect(missing.exitCode).toBe(1);
    expect(missing.err).toContain('no API key matches "nobody"');
  });
});
