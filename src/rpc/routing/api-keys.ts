/**
 * API keys of the routing API. A key is shown once, when created; the store keeps only a salted
 * SHA-256 of it plus metadata (id, name, prefix, created_at). Keys are 192-bit random secrets, so
 * a fast salted hash is enough (no password stretching needed), which keeps the per-request check
 * in microseconds; the comparison is constant-time (crypto.timingSafeEqual).
 *
 *   key:    clk_<id: 12 hex>_<secret: 48 hex>
 *   stored: { id, name, prefix: "clk_<id>", salt, hash = sha256(salt ‖ key), created_at }
 *
 * With a home folder the store is `<home>/config/api_keys.json`, written atomically (mode 0600)
 * and re-read when the file changes, so `chainlet keys create` works while the node runs.
 * Without one it lives in memory, attached to the node value.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { ApiKeyStoreError } from './errors.js';

export const API_KEY_PREFIX = 'clk_';
const KEY_RE = /^clk_([0-9a-f]{12})_([0-9a-f]{48})$/;
const NAME_RE = /^[\p{L}\p{N} ._@:/-]{1,64}$/u;
const FILE_VERSION = 1;
/** A running node re-reads the key file at most this often. */
const RELOAD_INTERVAL_MS = 1000;

export interface ApiKeyRecord {
  id: string;
  name: string;
  /** The non-secret start of the key (`clk_<id>`), to recognise it in lists. */
  prefix: string;
  /** Hex, 16 random bytes. */
  salt: string;
  /** Hex sha256(salt ‖ key). */
  hash: string;
  /** RFC 3339. */
  created_at: string;
}

/** What callers may see of a key: never the salt or hash. */
export type ApiKeyInfo = Pick<ApiKeyRecord, 'id' | 'name' | 'prefix' | 'created_at'>;

export interface ApiKeyStore {
  /** Where the keys live, or undefined for an in-memory store. */
  readonly path: string | undefined;
  list(): ApiKeyInfo[];
  add(record: ApiKeyRecord): void;
  /** Removes by id, prefix or name; false if nothing matched. */
  remove(idPrefixOrName: string): boolean;
  /** The key's metadata if `key` is a valid key of this store. Constant time in the secret. */
  verify(key: string): ApiKeyInfo | undefined;
}

function hashKey(salt: Buffer, key: string): Buffer {
  return createHash('sha256').update(salt).update(key, 'utf8').digest();
}

const DUMMY_SALT = randomBytes(16);
const DUMMY_HASH = hashKey(DUMMY_SALT, 'clk_000000000000_' + '0'.repeat(48));

function info(r: ApiKeyRecord): ApiKeyInfo {
  return { id: r.id, name: r.name, prefix: r.prefix, created_at: r.created_at };
}

/** Checks `key` against the records, doing the same hashing work whether or not its id exists. */
function verifyAgainst(records: readonly ApiKeyRecord[], key: string): ApiKeyInfo | undefined {
  const m = KEY_RE.exec(key);
  const rec = m ? records.find((r) => r.id === m[1]) : undefined;
  const salt = rec ? Buffer.from(rec.salt, 'hex') : DUMMY_SALT;
  const expected = rec ? Buffer.from(rec.hash, 'hex') : DUMMY_HASH;
  const actual = hashKey(salt, key);
  const same = expected.length === actual.length && timingSafeEqual(expected, actual);
  return rec && same ? info(rec) : undefined;
}

function matches(r: ApiKeyRecord, s: string): boolean {
  return r.id === s || r.prefix === s || r.name === s;
}

function checkNewRecord(records: readonly ApiKeyRecord[], record: ApiKeyRecord, path?: string): void {
  if (records.some((r) => r.name === record.name)) throw new ApiKeyStoreError(`an API key named "${record.name}" already exists`, { path });
  if (records.some((r) => r.id === record.id)) throw new ApiKeyStoreError(`duplicate API key id ${record.id}`, { path });
}

export class MemoryApiKeyStore implements ApiKeyStore {
  readonly path = undefined;
  private records: ApiKeyRecord[] = [];

  list(): ApiKeyInfo[] {
    return this.records.map(info);
  }
  add(record: ApiKeyRecord): void {
    checkNewRecord(this.records, record);
    this.records = [...this.records, record];
  }
  remove(s: string): boolean {
    const before = this.records.length;
    this.records = this.records.filter((r) => !matches(r, s));
    return this.records.length !== before;
  }
  verify(key: string): ApiKeyInfo | undefined {
    return verifyAgainst(this.records, key);
  }
}

function parseRecord(x: unknown, path: string): ApiKeyRecord {
  const r = x as Partial<Record<keyof ApiKeyRecord, unknown>>;
  const ok =
    typeof x === 'object' &&
    x !== null &&
    typeof r.id === 'string' &&
    /^[0-9a-f]{12}$/.test(r.id) &&
    typeof r.name === 'string' &&
    typeof r.prefix === 'string' &&
    typeof r.salt === 'string' &&
    /^[0-9a-f]{32}$/.test(r.salt) &&
    typeof r.hash === 'string' &&
    /^[0-9a-f]{64}$/.test(r.hash) &&
    typeof r.created_at === 'string';
  if (!ok) throw new ApiKeyStoreError('malformed key entry (expected id, name, prefix, salt, hash, created_at)', { path });
  return {
    id: r.id as string,
    name: r.name as string,
    prefix: r.prefix as string,
    salt: r.salt as string,
    hash: r.hash as string,
    created_at: r.created_at as string,
  };
}

export class FileApiKeyStore implements ApiKeyStore {
  private records: ApiKeyRecord[] = [];
  private stamp = '';
  private checkedAt = -Infinity;

  /** Reads the file (a missing file is an empty store). Throws ApiKeyStoreError on a malformed file. */
  constructor(readonly path: string) {
    this.reload();
  }

  private fileStamp(): string {
    try {
      const s = statSync(this.path);
      return `${s.mtimeMs}:${s.size}:${s.ino}`;
    } catch {
      return 'missing';
    }
  }

  private reload(): void {
    const stamp = this.fileStamp();
    this.records = stamp === 'missing' ? [] : this.read();
    this.stamp = stamp;
    this.checkedAt = performance.now();
  }

  private read(): ApiKeyRecord[] {
    let json: unknown;
    try {
      json = JSON.parse(readFileSync(this.path, 'utf8'));
    } catch (cause) {
      throw new ApiKeyStoreError('cannot read API keys (not JSON?)', { path: this.path, cause });
    }
    const keys = (json as { keys?: unknown })?.keys;
    if (!Array.isArray(keys)) throw new ApiKeyStoreError('expected {"version": 1, "keys": [...]}', { path: this.path });
    return keys.map((k) => parseRecord(k, this.path));
  }

  /** Picks up edits made by another process (`chainlet keys create`), at most once a second. */
  private refresh(): void {
    const now = performance.now();
    if (now - this.checkedAt < RELOAD_INTERVAL_MS) return;
    this.checkedAt = now;
    if (this.fileStamp() === this.stamp) return;
    try {
      this.reload();
    } catch {
      // A half-written or broken file: keep serving the keys we had.
    }
  }

  private write(records: ApiKeyRecord[]): void {
    mkdirSync(dirname(this.path), { recursive: true });
    const tmp = `${this.path}.${process.pid}.tmp`;
    writeFileSync(tmp, JSON.stringify({ version: FILE_VERSION, keys: records }, null, 2) + '\n', { mode: 0o600 });
    renameSync(tmp, this.path);
    this.records = records;
    this.stamp = this.fileStamp();
  }

  list(): ApiKeyInfo[] {
    this.reload();
    return this.records.map(info);
  }
  add(record: ApiKeyRecord): void {
    this.reload();
    checkNewRecord(this.records, record, this.path);
    this.write([...this.records, record]);
  }
  remove(s: string): boolean {
    this.reload();
    const kept = this.records.filter((r) => !matches(r, s));
    if (kept.length === this.records.length) return false;
    this.write(kept);
    return true;
  }
  verify(key: string): ApiKeyInfo | undefined {
    this.refresh();
    return verifyAgainst(this.records, key);
  }
}

export function apiKeysPath(home: string): string {
  return join(home, 'config', 'api_keys.json');
}

/**
 * The store for a home folder (file) or for a home-less node (memory). A node opens its own at first
 * use (`getApiKeyStore(node)` in src/node/rpc-routing.ts), so two nodes never share keys.
 */
export function openApiKeyStore(home: string | undefined): ApiKeyStore {
  return home ? new FileApiKeyStore(apiKeysPath(home)) : new MemoryApiKeyStore();
}

export interface CreatedApiKey {
  /** The full key: shown once, never stored. */
  key: string;
  info: ApiKeyInfo;
}

/** Creates a key named `name`, stores its salted hash and returns the key (the only time it is visible). */
export function createApiKey(store: ApiKeyStore, name: string, opts: { now?: Date } = {}): CreatedApiKey {
  const trimmed = name.trim();
  if (!NAME_RE.test(trimmed)) {
    throw new ApiKeyStoreError(`invalid key name "${name}": 1-64 letters, digits, spaces or . _ @ : / -`, { path: store.path });
  }
  const id = randomBytes(6).toString('hex');
  const key = `${API_KEY_PREFIX}${id}_${randomBytes(24).toString('hex')}`;
  const salt = randomBytes(16);
  const record: ApiKeyRecord = {
    id,
    name: trimmed,
    prefix: `${API_KEY_PREFIX}${id}`,
    salt: salt.toString('hex'),
    hash: hashKey(salt, key).toString('hex'),
    created_at: (opts.now ?? new Date()).toISOString(),
  };
  store.add(record);
  return { key, info: info(record) };
}
