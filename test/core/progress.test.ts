/**
 * Long work logs its progress: a start on a home whose app lost its state replays the stored blocks
 * with progress lines (and ends at the same app hash), anvil_mine of 100 000 blocks and a large
 * loadState log a start and an end line.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { ClassicLevel } from 'classic-level';
import pino from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { initHome } from '../../src/genesis/home.js';
import { createEip1193Provider } from '../../src/node/rpc-eth.js';
import { startNode } from '../../src/node/node.js';

const homes: string[] = [];
afterAll(() => {
  for (const h of homes) rmSync(h, { recursive: true, force: true });
});

function capture(): { logger: pino.Logger; lines: () => string[] } {
  const out: string[] = [];
  const stream = new Writable({
    write(chunk, _enc, cb) {
      for (const l of String(chunk).split('\n')) if (l.trim() !== '') out.push((JSON.parse(l) as { msg: string }).msg);
      cb();
    },
  });
  return { logger: pino({ level: 'info' }, stream), lines: () => out };
}

const NO_SERVERS = { servers: false as const, config: { consensus: { mode: 'manual' as const } } };

describe('progress of long work', () => {
  it('a start replays 150 stored blocks through an app that lost its state, logging progress', async () => {
    const home = mkdtempSync(join(tmpdir(), 'chainlet-progress-'));
    homes.push(home);
    initHome(home);
    const first = await startNode({ home, ...NO_SERVERS, logger: pino({ level: 'silent' }) });
    for (let i = 0; i < 150; i++) await first.mine(1);
    const height = first.height;
    const appHash = (await first.internals.stateStore.loadState())!.appHash;
    await first.stop();
    // The app's state is lost; the blocks, the state and the results stay.
    const db = new ClassicLevel<string, Uint8Array>(join(home, 'data', 'chainlet.db'), { keyEncoding: 'utf8', valueEncoding: 'view' });
    await db.sublevel('app').clear();
    await db.close();
    const { logger, lines } = capture();
    const second = await startNode({ home, ...NO_SERVERS, logger });
    try {
      expect(second.height).toBe(height);
      expect(Buffer.from((await second.internals.stateStore.loadState())!.appHash)).toEqual(Buffer.from(appHash));
      expect(lines()).toContain(`replaying stored blocks through the app: ${height} blocks`);
      expect(lines().some((l) => /^replaying stored blocks through the app: done, \d+ blocks in \d+ ms$/.test(l))).toBe(true);
    } finally {
      await second.stop();
    }
  }, 60_000);

  it('anvil_mine of 100 000 blocks and a large anvil_loadState log their start and end', async () => {
    const { logger, lines } = capture();
    const node = await startNode({ ...NO_SERVERS, logger });
    const eth = createEip1193Provider(node);
    try {
      await eth.request({ method: 'anvil_mine', params: ['0x186a0'] });
      expect(lines()).toContain('mining: 100000 blocks');
      expect(lines().some((l) => /^mining: done, 100000 blocks in \d+ ms$/.test(l))).toBe(true);
      for (let i = 0; i < 120; i++) await node.mine(1);
      const dump = (await eth.request({ method: 'anvil_dumpState', params: [] })) as string;
      await eth.request({ method: 'anvil_loadState', params: [dump] });
      expect(lines().some((l) => /^loading state: \d+ entries$/.test(l))).toBe(true);
      expect(lines().some((l) => /^loading state: done, \d+ entries in \d+ ms$/.test(l))).toBe(true);
    } finally {
      eth.close();
      await node.stop();
    }
  }, 60_000);
});
