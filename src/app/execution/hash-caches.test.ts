/**
 * Map-backed ethereumjs caches behave as the OrderedMap ones: reads, writes, checkpoints (revert
 * and commit), flushes of what changed, deletes, size and clear; state roots over them are checked
 * against runTx in fast-execution.test.ts.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Caches } from '@ethereumjs/statemanager';
import { Account, Address, createAccountFromRLP } from '@ethereumjs/util';
import { describe, expect, it } from 'vitest';
import { hashCaches, useHashMaps } from './hash-caches.js';

const addr = (n: number) => new Address(new Uint8Array(20).fill(n));
const balanceOf = (c: Caches, a: Address) => {
  const rlp = c.account!.get(a)?.accountRLP;
  return rlp === undefined ? undefined : createAccountFromRLP(rlp).balance;
};

describe('Map-backed state caches', () => {
  it('keep every account, storage and code operation’s meaning, in both kinds side by side', () => {
    for (const c of [new Caches(), hashCaches()]) {
      const a = addr(1);
      const b = addr(2);
      c.account!.put(a, new Account(0n, 10n));
      c.checkpoint();
      c.account!.put(a, new Account(1n, 20n));
      c.account!.put(b, new Account(0n, 5n));
      expect(balanceOf(c, a)).toBe(20n);
      c.account!.revert();
      c.storage!.revert();
      c.code!.revert();
      expect(balanceOf(c, a)).toBe(10n);
      expect(c.account!.get(b)).toBeUndefined();
      c.checkpoint();
      c.account!.put(b, new Account(0n, 7n));
      c.storage!.put(b, new Uint8Array(32).fill(1), Uint8Array.of(9));
      c.code!.put(b, Uint8Array.of(0x60, 0x00));
      c.commit();
      expect(c.storage!.get(b, new Uint8Array(32).fill(1))).toEqual(Uint8Array.of(9));
      expect(c.code!.get(b)?.code).toEqual(Uint8Array.of(0x60, 0x00));
      const flushed = c.account!.flush().map(([k]) => k);
      expect(flushed.sort()).toEqual([a, b].map((x) => x.toString().slice(2)).sort());
      c.account!.del(a);
      expect(c.account!.get(a)?.accountRLP).toBeUndefined();
      expect(c.account!.size()).toBe(2);
      c.clear();
      expect(c.account!.size()).toBe(0);
      expect(c.account!.get(b)).toBeUndefined();
    }
  });

  it('replaces only ordered-map caches (an LRU cache stays), and the one given', () => {
    const lru = useHashMaps(new Caches({ account: { type: 'lru' as never, size: 10 } }));
    expect((lru.account as unknown as { _orderedMapCache?: unknown })._orderedMapCache).toBeUndefined();
    const hashed = hashCaches();
    expect((hashed.account as unknown as { _orderedMapCache: object })._orderedMapCache.constructor.name).toBe('HashCacheMap');
  });

  // The replacement reaches into ethereumjs's private field: an ethereumjs that renames it is left
  // as it is, but one that starts using it otherwise (another OrderedMap method, iteration) would
  // throw mid-block. Its cache sources pin what it does with the field.
  it('serves every use the installed ethereumjs makes of the field', () => {
    const cacheDir = join(dirname(createRequire(import.meta.url).resolve('@ethereumjs/statemanager')), 'cache');
    const sources = readdirSync(cacheDir).filter((f) => f.endsWith('.js'));
    const methods = new Set<string>();
    for (const f of sources) {
      const text = readFileSync(join(cacheDir, f), 'utf8');
      for (const m of text.matchAll(/_orderedMapCache/g)) {
        const after = text.slice(m.index + m[0].length, m.index + m[0].length + 60);
        if (/^\s*=\s*new [\w.]*OrderedMap\(\)/.test(after)) continue; // its own construction, replaced here
        const call = /^\??\.(\w+)\(/.exec(after);
        expect(call, `${f}: _orderedMapCache${after.split('\n')[0]}`).not.toBeNull();
        methods.add(call![1]!);
      }
    }
    expect(methods.size).toBeGreaterThan(0);
    const map = (hashCaches().account as unknown as { _orderedMapCache: Record<string, unknown> })._orderedMapCache;
    for (const name of methods) expect(typeof map[name], `HashCacheMap lacks ${name}`).toBe('function');
  });
});
