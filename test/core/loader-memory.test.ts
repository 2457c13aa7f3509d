import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** glibc's allocator (the one whose mmap threshold moves); the built package. */
const glibc =
  process.platform === 'linux' && (process.report.getReport() as { header?: { glibcVersionRuntime?: string } }).header?.glibcVersionRuntime !== undefined;
const built = it.skipIf(!glibc || !existsSync(`${root}/dist/index.js`));

describe('the bundle loader and the allocator', () => {
  // glibc takes a mapped block freed (up to 32 MiB) as its new mmap threshold: had the loader's
  // buffer of the bundle (4 MB) been one, every block under 4 MB would come from the arenas after
  // it, and each thread arena would keep up to 8.5 MB free (scripts/core-loader.mjs).
  built('leaves blocks of a few MB to mmap once its buffer is freed', () => {
    const script = `
      import { readFileSync } from 'node:fs';
      await import('./dist/index.js');
      globalThis.gc();
      globalThis.gc();
      const brk = () => {
        const m = /^([0-9a-f]+)-([0-9a-f]+) [^\\n]*\\[heap\\]$/m.exec(readFileSync('/proc/self/smaps', 'utf8'));
        return m ? parseInt(m[2], 16) - parseInt(m[1], 16) : 0;
      };
      const before = brk();
      const kept = [];
      for (let i = 0; i < 4; i++) kept.push(new Uint8Array(3.5 * 2 ** 20).fill(1));
      console.log(JSON.stringify({ heapGrewMiB: (brk() - before) / 2 ** 20, kept: kept.length }));`;
    // --expose-gc makes V8 refuse the build's code cache; without any cache nothing is written to tmp.
    const r = spawnSync(process.execPath, ['--expose-gc', '--input-type=module', '-e', script], {
      cwd: root,
      encoding: 'utf8',
      timeout: 30_000,
      env: { ...process.env, CHAINLET_CODE_CACHE: 'off' },
    });
    expect(r.status, r.stderr).toBe(0);
    // 14 MiB of 3.5 MiB blocks: from their own mappings, not from the brk heap (13.75 MiB before)
    const out = JSON.parse(r.stdout.trim()) as { heapGrewMiB: number; kept: number };
    expect(out.kept).toBe(4);
    expect(out.heapGrewMiB).toBeLessThan(2);
  });
});
