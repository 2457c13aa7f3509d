import { gunzipSync, gzipSync } from 'node:zlib';
import { BTreeLevel } from '../store/btree-level.js';
import { afterEach, describe, expect, it } from 'vitest';
import { dbEntries, restoreSnapshot } from './db-restore.js';
import type { RootDb } from './parts.js';
import { dumpDb, loadDb, readDump } from './state-dump.js';
import { resolveConfig } from '../config/resolve.js';
import { openChainStores } from '../node/chain-core.js';
import { LegacyRangesError } from '../store/errors.js';

const dbs: RootDb[] = [];
afterEach(async () => {
  await Promise.all(dbs.splice(0).map((d) => d.close()));
});

async function db(entries: Record<string, string>): Promise<RootDb> {
  const d = new BTreeLevel<string, Uint8Array>({ keyEncoding: 'utf8', valueEncoding: 'view' }) as unknown as RootDb;
  await d.open();
  dbs.push(d);
  for (const [k, v] of Object.entries(entries)) await d.put(k, new TextEncoder().encode(v));
  return d;
}

async function content(d: RootDb): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for await (const [k, v] of dbEntries(d)) out[Buffer.from(k).toString()] = Buffer.from(v).toString();
  return out;
}

describe('db restore', () => {
  it('brings the db back to a snapshot, writing only the difference and skipping a prefix', async () => {
    const d = await db({ a: '1', b: '2', '!trie!x': 'n1' });
    d.on('write', () => {}); // a listener: the writes must go through abstract-level, key by key
    const snap = d.snapshot();
    await d.put('a', new TextEncoder().encode('changed'));
    await d.del('b');
    await d.put('c', new TextEncoder().encode('new'));
    await d.put('!trie!y', new TextEncoder().encode('n2'));
    const written = await restoreSnapshot(d, snap, new TextEncoder().encode('!trie!'));
    await snap.close();
    expect(written).toBe(3);
    // The skipped prefix keeps what was added (content-addressed nodes).
    expect(await content(d)).toEqual({ a: '1', b: '2', '!trie!x': 'n1', '!trie!y': 'n2' });
  });

  it("swaps the in-memory tree for the snapshot's whole, leaving the snapshot and earlier ones intact", async () => {
    const d = await db({ a: '1', b: '2', '!trie!x': 'n1' });
    const first = d.snapshot();
    await d.put('a', new TextEncoder().encode('changed'));
    const second = d.snapshot();
    await d.del('b');
    await d.put('c', new TextEncoder().encode('new'));
    await d.put('!trie!y', new TextEncoder().encode('n2'));
    expect(await restoreSnapshot(d, second, new TextEncoder().encode('!trie!'))).toBe('whole');
    expect(await content(d)).toEqual({ a: 'changed', b: '2', '!trie!x': 'n1' });
    // Writes after the swap touch neither snapshot.
    await d.put('b', new TextEncoder().encode('after'));
    expect(Buffer.from((await d.get('b', { snapshot: second } as never)) as unknown as Uint8Array).toString()).toBe('2');
    expect(await restoreSnapshot(d, first)).toBe('whole');
    expect(await content(d)).toEqual({ a: '1', b: '2', '!trie!x': 'n1' });
    await second.close();
    await first.close();
  });

  it('dumps and loads a whole db, refusing damaged dumps before writing anything', async () => {
    const src = await db({ k1: 'v1', k2: 'v2' });
    const dump = await dumpDb(src, { chainId: 'c-1', height: 7 });
    const dst = await db({ k2: 'other', k3: 'gone' });
    const { header, entries } = readDump(dump);
    expect(header).toEqual({ version: 1, chainId: 'c-1', height: 7, entries: 2 });
    await loadDb(dst, entries);
    expect(await content(dst)).toEqual({ k1: 'v1', k2: 'v2' });
    const raw = gunzipSync(dump);
    expect(() => readDump(gzipSync(raw.subarray(0, raw.length - 1)))).toThrow(/truncated entry/);
    expect(() => readDump(gzipSync(Buffer.from('hello')))).toThrow(/not a Chainlet state dump/);
  });
});

describe('empty-block ranges of the layout before empty segments', () => {
  it('a state dump holding them is refused before anything is loaded', async () => {
    const legacy = await db({ '!blocks!bs.state': 'x', '!devnet!range\x0000000000000000000002': 'old range' });
    await expect(async () => readDump(await dumpDb(legacy, { chainId: 'c', height: 2 }))).rejects.toThrow(
      'invalid state dump: a dump of an earlier Chainlet with empty-block ranges, which this version cannot read',
    );
  });

  it('a database holding them is refused at open', async () => {
    const legacy = await db({ '!devnet!range\x0000000000000000000002': 'old range' });
    const sub = (name: string) => legacy.sublevel(name, { keyEncoding: 'utf8', valueEncoding: 'view' }) as unknown as RootDb;
    await expect(openChainStores(sub, resolveConfig(undefined, {}))).rejects.toThrow(LegacyRangesError);
    const fresh = await db({});
    const subFresh = (name: string) => fresh.sublevel(name, { keyEncoding: 'utf8', valueEncoding: 'view' }) as unknown as RootDb;
    await expect(openChainStores(subFresh, resolveConfig(undefined, {}))).resolves.toBeDefined();
  });
});
