import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { apiKeysPath, createApiKey, FileApiKeyStore, MemoryApiKeyStore, openApiKeyStore } from './api-keys.js';
import { ApiKeyStoreError } from './errors.js';

const dirs: string[] = [];
function tmpHome(): string {
  const d = mkdtempSync(join(tmpdir(), 'chainlet-keys-'));
  dirs.push(d);
  return d;
}
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('API keys in memory', () => {
  it('creates a key that verifies, and rejects near misses', () => {
    const store = new MemoryApiKeyStore();
    const { key, info } = createApiKey(store, 'ci bot', { now: new Date('2025-01-02T03:04:05Z') });
    expect(key).toMatch(/^clk_[0-9a-f]{12}_[0-9a-f]{48}$/);
    expect(info).toEqual({ id: key.slice(4, 16), name: 'ci bot', prefix: key.slice(0, 16), created_at: '2025-01-02T03:04:05.000Z' });
    expect(store.verify(key)).toEqual(info);
    const flipped = key.slice(0, -1) + (key.endsWith('0') ? '1' : '0');
    expect(store.verify(flipped)).toBeUndefined();
    expect(store.verify('')).toBeUndefined();
    expect(store.verify(info.prefix)).toBeUndefined();
    expect(store.verify(key + ' ')).toBeUndefined();
  });

  it('lists metadata only and removes by name, id or prefix', () => {
    const store = new MemoryApiKeyStore();
    const a = createApiKey(store, 'a');
    const b = createApiKey(store, 'b');
    const c = createApiKey(store, 'c');
    expect(JSON.stringify(store.list())).not.toContain(a.key);
    expect(Object.keys(store.list()[0]!).sort()).toEqual(['created_at', 'id', 'name', 'prefix']);
    expect(store.remove('a')).toBe(true);
    expect(store.remove(b.info.id)).toBe(true);
    expect(store.remove(c.info.prefix)).toBe(true);
    expect(store.remove('nope')).toBe(false);
    expect(store.verify(a.key)).toBeUndefined();
    expect(store.list()).toEqual([]);
  });

  it('refuses duplicate and invalid names', () => {
    const store = new MemoryApiKeyStore();
    createApiKey(store, 'dup');
    expect(() => createApiKey(store, 'dup')).toThrow(ApiKeyStoreError);
    expect(() => createApiKey(store, '')).toThrow(/invalid key name/);
    expect(() => createApiKey(store, 'x'.repeat(65))).toThrow(/invalid key name/);
  });
});

describe('API keys on disk', () => {
  it('stores only a salted hash with metadata, in a private file', () => {
    const home = tmpHome();
    const store = openApiKeyStore(home);
    expect(store).toBeInstanceOf(FileApiKeyStore);
    const { key } = createApiKey(store, 'deploy');
    const text = readFileSync(apiKeysPath(home), 'utf8');
    expect(text).not.toContain(key);
    expect(text).not.toContain(key.slice(17));
    const json = JSON.parse(text) as { version: number; keys: Record<string, string>[] };
    expect(json.version).toBe(1);
    expect(Object.keys(json.keys[0]!).sort()).toEqual(['created_at', 'hash', 'id', 'name', 'prefix', 'salt']);
    expect(json.keys[0]!.hash).toMatch(/^[0-9a-f]{64}$/);
    expect(statSync(apiKeysPath(home)).mode & 0o777).toBe(0o600);
  });

  it('a second store on the same home (another process) sees the keys', () => {
    const home = tmpHome();
    const { key } = createApiKey(openApiKeyStore(home), 'one');
    expect(openApiKeyStore(home).verify(key)?.name).toBe('one');
  });

  it('same salt-free key hashes differ per key (per-key salt)', () => {
    const home = tmpHome();
    const store = openApiKeyStore(home);
    createApiKey(store, 'k1');
    createApiKey(store, 'k2');
    const json = JSON.parse(readFileSync(apiKeysPath(home), 'utf8')) as { keys: { salt: string }[] };
    expect(json.keys[0]!.salt).not.toBe(json.keys[1]!.salt);
  });

  it('reports a malformed file clearly', () => {
    const home = tmpHome();
    const store = openApiKeyStore(home);
    createApiKey(store, 'x');
    writeFileSync(apiKeysPath(home), '{"keys": [{"id": 1}]}');
    expect(() => openApiKeyStore(home)).toThrow(/malformed key entry/);
    writeFileSync(apiKeysPath(home), 'not json');
    expect(() => openApiKeyStore(home)).toThrow(ApiKeyStoreError);
  });
});
