import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { resolveProfilePath } from './paths.js';
import { DebugProfiler, ProfilingError } from './profiler.js';

let dir: string;
let p: DebugProfiler;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'chainlet-prof-'));
});
afterEach(async () => {
  await p?.dispose();
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('profile paths (as Cosmos EVM resolves them)', () => {
  it('expands ~/ and cleans the path', () => {
    expect(resolveProfilePath('~/prof/../cpu.prof')).toBe(join(homedir(), 'cpu.prof'));
    expect(resolveProfilePath('a//b/./c/')).toBe(join('a', 'b', 'c'));
    expect(resolveProfilePath('')).toBe('.');
    expect(resolveProfilePath('~user/x')).toBe('~user/x'); // only ~/ is expanded
  });
});

describe('DebugProfiler', () => {
  it('writes a heap snapshot for the memory profile', async () => {
    p = new DebugProfiler();
    const file = join(dir, 'mem.heapsnapshot');
    await p.writeMemProfile(file);
    expect(statSync(file).size).toBeGreaterThan(1000);
    const head = readFileSync(file, 'utf8').slice(0, 200);
    expect(head).toContain('"snapshot"');
  });

  it('counts GCs, and forces one with or without --expose-gc', async () => {
    p = new DebugProfiler();
    const g = globalThis as { gc?: () => void };
    const saved = g.gc;
    try {
      delete g.gc;
      // No global.gc: a full GC is still forced (obtained at run time); the observer sees a forced one.
      const forcedBefore = p.memStats().NumForcedGC;
      p.freeOSMemory();
      // GC entries reach the observer asynchronously.
      for (let i = 0; i < 100 && p.memStats().NumForcedGC === forcedBefore; i++) await new Promise((r) => setTimeout(r, 5));
      expect(p.memStats().NumForcedGC).toBeGreaterThan(forcedBefore);
      let forced = 0;
      g.gc = () => void forced++;
      p.freeOSMemory();
      expect(forced).toBe(1);
    } finally {
      if (saved === undefined) delete g.gc;
      else g.gc = saved;
    }
    // Allocate until V8 collects; the observer sees it.
    const before = p.gcStats().NumGC;
    for (let i = 0; i < 200 && p.gcStats().NumGC === before; i++) {
      const junk: unknown[] = [];
      for (let j = 0; j < 20_000; j++) junk.push({ j, s: `x${j}` });
      await new Promise((r) => setImmediate(r));
    }
    const s = p.gcStats();
    expect(s.NumGC).toBeGreaterThan(before);
    expect(s.Pause.length).toBe(Math.min(s.NumGC, 256));
    expect(s.PauseTotal).toBeGreaterThan(0);
    expect(Date.parse(s.LastGC)).toBeGreaterThan(Date.now() - 60_000);
    const m = p.memStats();
    expect(m.NumGC).toBe(s.NumGC);
    expect(m.PauseNs[(m.NumGC + 255) % 256]).toBe(s.Pause[0]); // Go's ring: most recent at (NumGC+255)%256
    expect(m.LastGC).toBeGreaterThan(0);
  });

  it('ends a timed CPU profile early and writes it when disposed', async () => {
    p = new DebugProfiler();
    const file = join(dir, 'timed.cpuprofile');
    const started = Date.now();
    const pending = p.cpuProfile(file, 60);
    await new Promise((r) => setTimeout(r, 50));
    await p.dispose();
    await pending;
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(JSON.parse(readFileSync(file, 'utf8')).nodes.length).toBeGreaterThan(0);
  });

  it('samples event-loop delay for a timed block profile, then stops', async () => {
    p = new DebugProfiler();
    const file = join(dir, 'block-timed.json');
    const busy = setTimeout(() => {
      const end = Date.now() + 60;
      while (Date.now() < end); // hold the loop up once
    }, 200);
    await p.blockProfile(file, 1);
    clearTimeout(busy);
    const prof = JSON.parse(readFileSync(file, 'utf8'));
    expect(prof.profile).toBe('block');
    expect(prof.eventLoopDelay.count).toBeGreaterThan(0);
    expect(prof.eventLoopDelay.max).toBeGreaterThan(40e6); // the 60 ms hold-up, in ns
    const after = join(dir, 'block-after.json');
    await p.writeBlockProfile(after);
    expect(JSON.parse(readFileSync(after, 'utf8')).enabled).toBe(false);
  });
});
