import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { BTreeLevel, directTarget, type DirectWrite } from './btree-level.js';
import { writeBatch } from './level.js';

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

  /** Every entry of the tree as [key bytes hex, value bytes hex]. */
  async function dump(db: BTreeLevel<Uint8Array, Uint8Array>): Promise<[string, string][]> {
    const out: [string, string][] = [];
    for await (const [k, v] of db.iterator({ keyEncoding: 'view', valueEncoding: 'view' }))
      out.push([Buffer.from(k).toString('hex'), Buffer.from(v).toString('hex')]);
    return out;
  }

  it('writeDirect stores exactly what a batch through abstract-level stores', async () => {
    const viaBatch = new BTreeLevel<Uint8Array, Uint8Array>();
    const viaDirect = new BTreeLevel<Uint8Array, Uint8Array>();
    await viaBatch.open();
    await viaDirect.open();
    const setup = (db: BTreeLevel<Uint8Array, Uint8Array>) => {
      const app = db.sublevel('app');
      return {
        bytes: app.sublevel<Uint8Array, Uint8Array>('trie', { keyEncoding: 'view', valueEncoding: 'view' }),
        text: app.sublevel<string, string>('meta', { keyEncoding: 'utf8', valueEncoding: 'utf8' }),
        mixed: db.sublevel<string, Uint8Array>('txindex', { keyEncoding: 'utf8', valueEncoding: 'view' }),
      };
    };
    const a = setup(viaBatch);
    const d = setup(viaDirect);
    await Promise.all([a.bytes.open(), a.text.open(), a.mixed.open(), d.bytes.open(), d.text.open(), d.mixed.open()]);
    const key = Uint8Array.from([0, 0x21, 0x7f, 0x80, 0xff]);
    const value = Uint8Array.from([1, 2, 0xfe]);
    await viaBatch.batch([
      { type: 'put', sublevel: a.bytes, key, value },
      { type: 'put', sublevel: a.bytes, key: Uint8Array.from([9]), value },
      { type: 'put', sublevel: a.text, key: 'app', value: '{"h":1,"memo":"é✓"}' },
      { type: 'put', sublevel: a.mixed, key: 'tx.e\x00memo\x00naïve ✓\x00', value },
      { type: 'put', sublevel: a.mixed, key: 'gone', value },
    ] as never);
    await viaBatch.batch([{ type: 'del', sublevel: a.mixed, key: 'gone' }] as never);
    const writes: DirectWrite[] = [
      { prefix: d.bytes.prefix, key, value },
      { prefix: d.bytes.prefix, key: Uint8Array.from([9]), value },
      { prefix: d.text.prefix, key: 'app', value: '{"h":1,"memo":"é✓"}' },
      { prefix: d.mixed.prefix, key: 'tx.e\x00memo\x00naïve ✓\x00', value },
      { prefix: d.mixed.prefix, key: 'gone', value },
    ];
    directTarget(d.bytes)!.writeDirect(writes);
    directTarget(d.mixed)!.writeDirect([{ prefix: d.mixed.prefix, key: 'gone', value: undefined }]);
    expect(await dump(viaDirect)).toEqual(await dump(viaBatch));
    expect((await dump(viaDirect)).length).toBe(4);
    // Read back through the sublevels with their own encodings.
    expect(await d.text.get('app')).toBe('{"h":1,"memo":"é✓"}');
    expect(await d.bytes.get(key)).toEqual(value);
    expect(await d.mixed.get('tx.e\x00memo\x00naïve ✓\x00')).toEqual(value);
  });

  it('level.writeBatch takes the direct path on an open BTreeLevel and gives the same entries', async () => {
    const plain = new BTreeLevel<Uint8Array, Uint8Array>();
    const direct = new BTreeLevel<Uint8Array, Uint8Array>();
    await plain.open();
    await direct.open();
    plain.on('write', () => undefined); // a listener: writeBatch must go through abstract-level
    expect(directTarget(plain)).toBeUndefined();
    expect(directTarget(direct)).toBe(direct);
    for (const db of [plain, direct]) {
      const sub = db.sublevel<string, Uint8Array>('blocks', { keyEncoding: 'utf8', valueEncoding: 'view' });
      await sub.open();
      await writeBatch(sub as never, [
        { key: 'bs.state', value: Uint8Array.from([1]) },
        { key: 'bs.block\x00ü', value: Uint8Array.from([2]) },
      ]);
      await writeBatch(sub as never, [], ['bs.state']);
    }
    expect(await dump(direct)).toEqual(await dump(plain));
  });

  it('takes no direct write while a prewrite hook is on or before the database is open', async () => {
    const db = new BTreeLevel<Uint8Array, Uint8Array>();
    expect(directTarget(db)).toBeUndefined(); // opening
    await db.open();
    expect(directTarget(db.sublevel('x'))).toBe(db);
    const hook = () => undefined;
    db.hooks.prewrite.add(hook);
    expect(directTarget(db)).toBeUndefined();
    db.hooks.prewrite.delete(hook);
    expect(directTarget(db)).toBe(db);
    await db.close();
    expect(directTarget(db)).toBeUndefined();
  });
});
