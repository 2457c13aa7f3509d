/**
 * Thin helpers over abstract-level shared by the block store and the indexers: the accepted
 * database type, the value encoding (value-codec.ts), batched writes and range scans. Every call states its
 * encodings (utf8 keys, Uint8Array values), so any database or sublevel works whatever its
 * defaults.
 */
import type { AbstractBatchOperation, AbstractLevel } from 'abstract-level';
import { directTarget, type DirectWrite } from './btree-level.js';
import { decodeValue, encodeRecord, encodeValue } from './value-codec.js';

/**
 * Any abstract-level database or sublevel with string keys (classic-level, memory-level,
 * `db.sublevel(...)`), whatever its default value type `V`: the helpers here never use it.
 */
export type LevelDb<V = unknown> = AbstractLevel<string | Uint8Array | Buffer, string, V>;

/** Forgets the caller's default value type; safe because every call names its encodings. */
export function asLevelDb<V>(db: LevelDb<V>): LevelDb {
  return db as unknown as LevelDb;
}

const ENC = { keyEncoding: 'utf8', valueEncoding: 'view' } as const;
const SCAN_CHUNK = 1024;

export const EMPTY_VALUE = new Uint8Array(0);

export interface PutOp {
  key: string;
  value: Uint8Array;
}

export { decodeValue, encodeRecord, encodeValue };

export async function openDb(db: LevelDb): Promise<void> {
  if (db.status !== 'open') await db.open();
}

export async function getValue<T>(db: LevelDb, key: string): Promise<T | undefined> {
  const v = await db.get<string, Uint8Array>(key, ENC);
  return v === undefined ? undefined : decodeValue<T>(v);
}

export async function getValues<T>(db: LevelDb, keys: string[]): Promise<(T | undefined)[]> {
  if (keys.length === 0) return [];
  const vs = await db.getMany<string, Uint8Array>(keys, ENC);
  return vs.map((v) => (v === undefined ? undefined : decodeValue<T>(v)));
}

export async function hasKey(db: LevelDb, key: string): Promise<boolean> {
  return (await db.get<string, Uint8Array>(key, ENC)) !== undefined;
}

type BatchOp = { type: 'put'; key: string; value: Uint8Array; sublevel?: LevelDb } | { type: 'del'; key: string; sublevel?: LevelDb };

/**
 * Writes all puts and deletes atomically. On the in-memory database the writes go straight into
 * its tree (btree-level.ts `directTarget`). Elsewhere a sublevel's batch goes straight to the root database
 * with the sublevel named per operation: the key is prefixed once, in one pass over the
 * operations, instead of once per level (each level re-validates and re-encodes every operation).
 */
export async function writeBatch(db: LevelDb, puts: PutOp[], dels: string[] = []): Promise<void> {
  const n = puts.length + dels.length;
  if (n === 0) return;
  const direct = directTarget(db);
  if (direct) {
    const prefix = (db as { prefix?: string }).prefix ?? '';
    const writes: DirectWrite[] = new Array(n);
    let j = 0;
    for (const p of puts) writes[j++] = { prefix, key: p.key, value: p.value };
    for (const key of dels) writes[j++] = { prefix, key, value: undefined };
    direct.writeDirect(writes);
    return;
  }
  const root = rootOf(db);
  const sublevel = root === db ? undefined : db;
  const ops: BatchOp[] = new Array(n);
  let i = 0;
  for (const p of puts) ops[i++] = sublevel ? { type: 'put', key: p.key, value: p.value, sublevel } : { type: 'put', key: p.key, value: p.value };
  for (const key of dels) ops[i++] = sublevel ? { type: 'del', key, sublevel } : { type: 'del', key };
  await root.batch<string, Uint8Array>(ops as AbstractBatchOperation<LevelDb, string, Uint8Array>[], ENC);
}

/** The root database of a sublevel (abstract-level's `db`), or `db` itself. */
export function rootOf<D extends object>(db: D): D {
  return (db as { parent?: unknown }).parent ? (db as unknown as { db: D }).db : db;
}

/** Calls `onKey` for every key in [gte, lt) in order, until it returns false. */
export async function scanKeys(db: LevelDb, gte: string, lt: string, onKey: (key: string) => boolean | void): Promise<void> {
  const it = db.keys<string>({ gte, lt, keyEncoding: 'utf8' });
  try {
    for (;;) {
      const keys = await it.nextv(SCAN_CHUNK);
      if (keys.length === 0) return;
      for (const k of keys) if (onKey(k) === false) return;
    }
  } finally {
    await it.close();
  }
}

/** Calls `onEntry` for every entry in [gte, lt) in order, until it returns false. */
export async function scanEntries(db: LevelDb, gte: string, lt: string, onEntry: (key: string, value: Uint8Array) => boolean | void): Promise<void> {
  const it = db.iterator<string, Uint8Array>({ gte, lt, ...ENC });
  try {
    for (;;) {
      const entries = await it.nextv(SCAN_CHUNK);
      if (entries.length === 0) return;
      for (const [k, v] of entries) if (onEntry(k, v) === false) return;
    }
  } finally {
    await it.close();
  }
}
