/**
 * Tests of the built CLI run `dist/` (tsc's output, bundled by scripts/bundle.mjs): rebuild it first when a source file is newer than the build,
 * so such a test never checks stale output (on CI, `npm ci`'s prepare has just built it).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

function newestMtime(dir: string): number {
  let newest = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) newest = Math.max(newest, newestMtime(p));
    else if (e.name.endsWith('.ts') && !e.name.endsWith('.test.ts')) newest = Math.max(newest, statSync(p).mtimeMs);
  }
  return newest;
}

export default function setup(): void {
  const built = join(root, 'dist', 'cli', 'main.js');
  if (existsSync(built) && statSync(built).mtimeMs >= newestMtime(join(root, 'src'))) return;
  execFileSync(process.execPath, [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.build.json'], { cwd: root, stdio: 'inherit' });
  execFileSync(process.execPath, [join(root, 'scripts', 'bundle.mjs')], { cwd: root, stdio: 'inherit' });
}
