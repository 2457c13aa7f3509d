import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { BTreeLevel } from './btree-level.js';

const require = createRequire(import.meta.url);

interface TapRow {
  type: string;
  ok?: boolean;
  name?: string;
  id?: number;
}

describe('BTreeLevel', () => {
  it('passes the abstract-level compliance suite (the one memory-level and classic-level run)', async () => {
    const tape = require('tape') as { createHarness(): { createStream(o: { objectMode: true }): NodeJS.ReadableStream } };
    const suite = require('abstract-level/test') as (o: { test: unknown; factory: (opts?: object) => unknown }) => void;
    const harness = tape.createHarness();
    const failures: string[] = [];
    let passed = 0;
    const stream = harness.createStream({ objectMode: true });
    stream.on('data', (row: TapRow) => {
      if (row.type !== 'assert') return;
      if (row.ok === true) passed++;
      else failures.push(String(row.name));
    });
    const ended = new Promise((resolve) => stream.on('end', resolve));
    suite({ test: harness, factory: (opts) => new BTreeLevel(opts) });
    await ended;
    expect(failures).toEqual([]);
    expect(passed).toBeGreaterThan(1000);
  }, 120_000);
});
