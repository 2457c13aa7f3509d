/**
 * Tests of the built CLI run `dist/` (tsc's output, bundled by scripts/bundle.mjs): rebuild it first when a source file is newer than the build,
 * so such a test never checks stale output (on CI, `npm ci`'s prepare has just built it).
 * Two test runs started at once (say, two developers' runs of single files) take a lock folder, so
 * one builds while the other waits and then finds the build current.
 * CHAINLET_TEST_NO_BUILD=1 skips the check, for a run of unit tests that never start `dist/`.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const LOCK = join(root, 'node_modules', '.chainlet-build-lock');
/** A lock older than this was left by a killed run. */
const STALE_LOCK_MS = 5 * 60_000;

function newestMtime(dir: string): number {
  let newest = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) newest = Math.max(newest, newestMtime(p));
    else if (e.name.endsWith('.ts') && !e.name.endsWith('.test.ts')) newest = Math.max(newest, statSync(p).mtimeMs);
  }
  return newest;
}

function buildIsCurrent(): boolean {
  const built = join(root, 'dist', 'cli', 'main.js');
  return existsSync(built) && statSync(built).mtimeMs >= newestMtime(join(root, 'src'));
}

function takeLock(): void {
  for (;;) {
    try {
      mkdirSync(LOCK);
      return;
    } catch {
      try {
        if (Date.now() - statSync(LOCK).mtimeMs > STALE_LOCK_MS) rmSync(LOCK, { recursive: true, force: true });
      } catch {
        /* released meanwhile */
      }
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 200);
    }
  }
}

export default function setup(): void {
  if (process.env['CHAINLET_TEST_NO_BUILD'] === '1' || buildIsCurrent()) return;
  takeLock();
  try {
    if (buildIsCurrent()) return;
    execFileSync(process.execPath, [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.build.json'], { cwd: root, stdio: 'inherit' });
    execFileSync(process.execPath, [join(root, 'scripts', 'bundle.mjs')], { cwd: root, stdio: 'inherit' });
  } finally {
    rmSync(LOCK, { recursive: true, force: true });
  }
}
