/**
 * A real Hardhat 2 project (test/fixtures/hardhat-project: hardhat-network-helpers, hardhat-chai-matchers,
 * hardhat-ethers remote signers, precompiled artifacts) runs its unchanged tests against the node with
 * `hardhat test --network chainlet`. The same tests also run on Hardhat's own network, so a failure
 * on the node is the node's fault, not the test's.
 */
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChainletNode } from '../../src/node/node.js';
import { startTestNode } from '../helpers/node.js';

const project = fileURLToPath(new URL('../fixtures/hardhat-project/', import.meta.url));
const hardhatCli = createRequire(`${project}package.json`).resolve('hardhat/internal/cli/cli.js');

function hardhatTest(args: string[], env: Record<string, string> = {}): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [hardhatCli, 'test', '--no-compile', ...args], {
      cwd: project,
      env: { ...process.env, ...env, HARDHAT_DISABLE_TELEMETRY_PROMPT: 'true', NO_COLOR: '1', FORCE_COLOR: '0' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d));
    child.stderr.on('data', (d: Buffer) => (out += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), 120_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, out });
    });
  });
}

const passing = (out: string) => Number(/(\d+) passing/.exec(out)?.[1] ?? 0);

let node: ChainletNode;
beforeAll(async () => {
  node = await startTestNode();
});
afterAll(async () => {
  await node?.stop();
});

describe('an existing Hardhat project', () => {
  it("passes on Hardhat's own network (the reference)", async () => {
    const r = await hardhatTest([]);
    expect(r.code, r.out).toBe(0);
    expect(passing(r.out), r.out).toBe(8);
  }, 150_000);

  it('passes unchanged with --network chainlet', async () => {
    const r = await hardhatTest(['--network', 'chainlet'], { CHAINLET_URL: node.urls.jsonRpc! });
    expect(r.code, r.out).toBe(0);
    expect(passing(r.out), r.out).toBe(8);
    expect(r.out).not.toMatch(/failing/);
  }, 150_000);
});
