import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));

describe('Jest', () => {
  // Jest runs each test file in a vm context of its own (ES modules need --experimental-vm-modules):
  // the built package must load into that context, not Node's main one (dist/core-loader.js).
  it.skipIf(!existsSync(`${root}/dist/index.js`))('a Jest test starts a node from the built package and gets objects of its own realm', () => {
    const config = JSON.stringify({ testEnvironment: 'node', transform: {}, testMatch: ['**/*.test.mjs'] });
    const r = spawnSync(
      process.execPath,
      ['--experimental-vm-modules', `${root}/node_modules/jest/bin/jest.js`, '--rootDir', `${root}/test/fixtures/jest-project`, '--config', config, '--ci'],
      {
        cwd: root,
        encoding: 'utf8',
        timeout: 60_000,
      },
    );
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/Tests:\s+1 passed, 1 total/);
  });
});
