import { MemoryLevel } from 'memory-level';
import { describe, expect, it } from 'vitest';
import { rootOf, writeBatch, type LevelDb } from './level.js';

describe('writeBatch', () => {
  it("writes a nested sublevel's batch through the root, to the same keys as the sublevel itself would", async () => {
    const root = new MemoryLevel<string, Uint8Array>({ keyEncoding: 'utf8', valueEncoding: 'view' });
    const app = root.sublevel('app', { keyEncoding: 'utf8', valueEncoding: 'view' });
    const index = app.sublevel('index', { keyEncoding: 'utf8', valueEncoding: 'view' }) as unknown as LevelDb;
    expect(rootOf(index)).toBe(root);
    expect(rootOf(root as unknown as LevelDb)).toBe(root);

    await writeBatch(index, [
      { key: 'a\x00b', value: Uint8Array.of(1) },
      { key: 'c', value: Uint8Array.of(2) },
    ]);
    const viaSublevel = new MemoryLevel<string, Uint8Array>({ keyEncoding: 'utf8', valueEncoding: 'view' });
    await viaSublevel
      .sublevel<string, Uint8Array>('app', { valueEncoding: 'view' })
      .sublevel<string, Uint8Array>('index', { valueEncoding: 'view' })
      .batch([
        { type: 'put', key: 'a\x00b', value: Uint8Array.of(1) },
        { type: 'put', key: 'c', value: Uint8Array.of(2) },
      ]);
    expect(await root.keys().all()).toEqual(await viaSublevel.keys().all());
    const get = async (key: string) => {
      const v = await index.get<string, Uint8Array>(key, { keyEncoding: 'utf8', valueEncoding: 'view' });
      return v === undefined ? undefined : [...v];
    };
    expect(await get('c')).toEqual([2]);

    await writeBatch(index, [], ['c']);
    expect(await get('c')).toBeUndefined();
    expect(await get('a\x00b')).toEqual([1]);
  });
});
