/**
 * `chainlet start --hub-block-time <ms>` through the built binary: the hub makes blocks while idle
 * (interval mode), and a value that is not a non-negative integer is refused in one line.
 */
import { spawnSync } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { CLI_BIN as bin, killAll, PORTS0, spawnCli } from '../helpers/cli.js';

afterEach(killAll);

interface Ready {
  event: string;
  chains: { chainId: string; kind: string; urls: Record<string, string> }[];
}

describe('chainlet start --hub-block-time', () => {
  it('makes the hub produce blocks while idle', async () => {
    const isReady = (line: string) => line.includes('"event":"ready"');
    const { waitFor } = spawnCli(['start', '--chains', 'evm,hub', '--hub-block-time', '20', '--output', 'json', ...PORTS0]);
    const out = await waitFor((o) => o.split('\n').some(isReady));
    const ready = JSON.parse(out.split('\n').find(isReady)!) as Ready;
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
