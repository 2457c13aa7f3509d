import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createInterface } from 'node:readline';
import { afterAll, describe, expect, it } from 'vitest';
import { fromHex, toHexUpper } from '../../src/crypto/encoding.js';
import { initHome } from '../../src/genesis/home.js';
import { startNode } from '../../src/node/node.js';

const home = mkdtempSync(join(tmpdir(), 'chainlet-crash-'));
afterAll(() => rmSync(home, { recursive: true, force: true }));

interface Line {
  ready?: boolean;
  height: number;
  appHash?: string;
  txs?: string[];
}

/** Runs the child until it has committed `blocks` more blocks, then SIGKILLs it mid-production. */
async function runAndKill(blocks: number): Promise<Line[]> {
  const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(new URL('../fixtures/run-home-node.ts', import.meta.url)), home], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const lines: Line[] = [];
  const rl = createInterface({ input: child.stdout! });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`child did not commit ${blocks} blocks in time`)), 25_000);
    rl.on('line', (l) => {
      const line = JSON.parse(l) as Line;
      lines.push(line);
      if (lines.filter((x) => !x.ready).length >= blocks) {
        clearTimeout(timer);
        child.kill('SIGKILL');
        resolve();
      }
    });
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
  });
  await exited;
  return lines;
}

describe('crash safety with --home', () => {
  it('resumes after SIGKILL at the last committed height with the same app hash and no lost tx', async () => {
    initHome(home, { chainId: 'chainlet_9000-1' });
    const first = await runAndKill(6);
    const committed = first.filter((l) => !l.ready);
    expect(committed.length).toBeGreaterThanOrEqual(6);
    const last = committed[committed.length - 1]!;

    // A second run resumes where the first stopped, then is killed again.
    const second = await runAndKill(3);
    expect(second[0]!.ready).toBe(true);
    expect(second[0]!.height).toBeGreaterThanOrEqual(last.height);

    const node = await startNode({ home, servers: false, config: { consensus: { mode: 'manual' }, logLevel: 'silent' } });
    try {
      const all = [...committed, ...second.filter((l) => !l.ready)];
      const top = all[all.length - 1]!;
      expect(node.height).toBeGreaterThanOrEqual(top.height);
      // Same app hash for every height we saw committed: the app hash of height H is in header H+1 / the stored FinalizeBlock response.
      for (const l of all) {
        const res = await node.internals.stateStore.loadFinalizeBlockResponse(l.height);
        expect(toHexUpper(res!.appHash)).toBe(l.appHash);
        for (const hash of l.txs!) {
          await node.internals.indexer.flush();
          const found = await node.internals.txIndexer!.get(fromHex(hash));
          expect(found?.height).toBe(l.height);
        }
      }
      const info = await node.internals.app.info({ version: '', blockVersion: 11, p2pVersion: 8, abciVersion: '2.0.0' });
      expect(info.lastBlockHeight).toBe(node.height);
      expect(toHexUpper(info.lastBlockAppHash)).toBe(toHexUpper(node.internals.consensus.state.appHash));
      // And it keeps producing.
      await node.mine(1);
      expect(node.height).toBeGreaterThan(top.height);
    } finally {
      await node.stop();
    }
  }, 60_000);
});
