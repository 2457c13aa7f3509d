/**
 * `chainlet start --hub-block-time <ms>` through the built binary: the hub makes blocks while idle
 * (interval mode), and a value that is not a non-negative integer is refused in one line.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';

const bin = fileURLToPath(new URL('../../dist/cli/main.js', import.meta.url));
const PORTS0 = [
  '--rpc.laddr',
  'tcp://127.0.0.1:0',
  '--json-rpc.address',
  '127.0.0.1:0',
  '--json-rpc.ws-address',
  '127.0.0.1:0',
  '--routing.address',
  '127.0.0.1:0',
  '--hub-rpc',
  'tcp://127.0.0.1:0',
];
const children: ChildProcess[] = [];

afterEach(async () => {
  for (const c of children.splice(0)) {
    if (c.exitCode !== null || c.signalCode !== null) continue;
    const exited = new Promise((r) => c.once('exit', r));
    c.kill('SIGKILL');
    await exited;
  }
});

interface Ready {
  event: string;
  chains: { chainId: string; kind: string; urls: Record<string, string> }[];
}

describe('chainlet start --hub-block-time', () => {
  it('makes the hub produce blocks while idle', async () => {
    const child = spawn(process.execPath, [bin, 'start', '--chains', 'evm,hub', '--hub-block-time', '20', '--output', 'json', ...PORTS0], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.push(child);
    const ready = await new Promise<Ready>((resolve, reject) => {
      let out = '';
      child.stdout!.on('data', (d: Buffer) => {
        out += d;
        for (const line of out.split('\n')) {
          if (!line.includes('"event":"ready"')) continue;
          resolve(JSON.parse(line) as Ready);
        }
      });
      child.once('exit', (code) => reject(new Error(`exited ${code}: ${out}`)));
    });
    const rpc = ready.chains.find((c) => c.kind === 'hub')!.urls['rpc']!;
    const height = async () =>
      Number(
        ((await (await fetch(`${rpc}/status`)).json()) as { result: { sync_info: { latest_block_height: string } } }).result.sync_info.latest_block_height,
      );
    const first = await height();
    // Nothing is sent to the hub: only its interval can move it.
    let now = first;
    while (now < first + 3) {
      await new Promise((res) => setTimeout(res, 20));
      now = await height();
    }
    expect(now).toBeGreaterThanOrEqual(first + 3);
  });

  it('refuses a value that is not a non-negative integer', () => {
    const r = spawnSync(process.execPath, [bin, 'start', '--chains', 'evm,hub', '--hub-block-time', 'soon', ...PORTS0], { encoding: 'utf8', timeout: 30_000 });
    expect(r.status).toBe(1);
    expect(r.stderr.trim()).toBe('error: invalid value "soon" for --hub-block-time: expected a non-negative integer');
  });
});
