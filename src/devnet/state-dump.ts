/**
 * anvil_dumpState / anvil_loadState: the whole node database (blocks, commits, FinalizeBlock
 * responses, receipts and logs in the app's block records, the tx and block indexes, the state
 * trie, empty segments), so a loaded node answers for every block the dumped one had.
 *
 * Format (then gzip; the RPC carries it as 0x-hex, as Anvil does):
 *   "CHAINLET-STATE\n" ‖ u32be header length ‖ header JSON {version, chainId, height, entries}
 *   ‖ per entry: u32be key length ‖ key ‖ u32be value length ‖ value      (keys in db order)
 */
import { createRequire } from 'node:module';
import { dbEntries, restoreRange, type EntrySource } from './db-restore.js';
import { LEGACY_RANGE_SUBLEVEL } from '../store/segments/segment-registry.js';
import { InvalidStateDumpError } from './errors.js';
import type { RootDb } from './parts.js';

/** node:zlib, loaded by the first dump or load rather than by every start. */
const zlib = (): typeof import('node:zlib') => createRequire(import.meta.url)('node:zlib') as typeof import('node:zlib');

const MAGIC = Buffer.from('CHAINLET-STATE\n', 'latin1');
const VERSION = 1;

export interface DumpHeader {
  version: number;
  chainId: string;
  height: number;
  entries: number;
}

/** Serialises every entry of the db (read through one implicit snapshot, so it is consistent). */
export async function dumpDb(db: RootDb, info: { chainId: string; height: number }): Promise<Uint8Array> {
  const parts: Buffer[] = [];
  let entries = 0;
  for await (const [k, v] of dbEntries(db)) {
    const head = Buffer.allocUnsafe(4);
    head.writeUInt32BE(k.length);
    const mid = Buffer.allocUnsafe(4);
    mid.writeUInt32BE(v.length);
    parts.push(head, Buffer.from(k.buffer, k.byteOffset, k.byteLength), mid, Buffer.from(v.buffer, v.byteOffset, v.byteLength));
    entries++;
  }
  const header = Buffer.from(JSON.stringify({ version: VERSION, chainId: info.chainId, height: info.height, entries } satisfies DumpHeader));
  const len = Buffer.allocUnsafe(4);
  len.writeUInt32BE(header.length);
  return new Uint8Array(zlib().gzipSync(Buffer.concat([MAGIC, len, header, ...parts]), { level: 1 }));
}

/** Reads a dump's header, checking it is one (throws InvalidStateDumpError). */
export function readDump(gz: Uint8Array): { header: DumpHeader; entries: EntrySource } {
  let buf: Buffer;
  try {
    buf = zlib().gunzipSync(gz);
  } catch {
    throw new InvalidStateDumpError('not gzip data');
  }
  if (buf.length < MAGIC.length + 4 || !buf.subarray(0, MAGIC.length).equals(MAGIC)) throw new InvalidStateDumpError('not a Chainlet state dump');
  const hl = buf.readUInt32BE(MAGIC.length);
  let header: DumpHeader;
  try {
    header = JSON.parse(buf.subarray(MAGIC.length + 4, MAGIC.length + 4 + hl).toString('utf8')) as DumpHeader;
  } catch {
    throw new InvalidStateDumpError('unreadable header');
  }
  if (header.version !== VERSION) throw new InvalidStateDumpError(`unsupported version ${header.version}`);
  // Parsed in full before anything is written, so a damaged dump never leaves a half-loaded db.
  const list: [Uint8Array, Uint8Array][] = [];
  let off = MAGIC.length + 4 + hl;
  while (off < buf.length) {
    if (off + 4 > buf.length) throw new InvalidStateDumpError('truncated entry');
    const kl = buf.readUInt32BE(off);
    if (off + 8 + kl > buf.length) throw new InvalidStateDumpError('truncated entry');
    const key = new Uint8Array(buf.subarray(off + 4, off + 4 + kl));
    const vl = buf.readUInt32BE(off + 4 + kl);
    if (off + 8 + kl + vl > buf.length) throw new InvalidStateDumpError('truncated entry');
    const value = new Uint8Array(buf.subarray(off + 8 + kl, off + 8 + kl + vl));
    if (isLegacyRangeKey(key)) throw new InvalidStateDumpError('a dump of an earlier Chainlet with empty-block ranges, which this version cannot read');
    const prev = list.at(-1);
    if (prev !== undefined && Buffer.compare(prev[0], key) >= 0) throw new InvalidStateDumpError('entries out of order');
    list.push([key, value]);
    off += 8 + kl + vl;
  }
  if (list.length !== header.entries) throw new InvalidStateDumpError(`expected ${header.entries} entries, found ${list.length}`);
  return { header, entries: toAsync(list) };
}

/** Ranges of the layout before empty segments: root keys `!devnet!range\0…`. */
const LEGACY_RANGE_KEY = Buffer.from(`!${LEGACY_RANGE_SUBLEVEL}!range\x00`, 'latin1');
function isLegacyRangeKey(key: Uint8Array): boolean {
  return key.length > LEGACY_RANGE_KEY.length && Buffer.from(key.buffer, key.byteOffset, LEGACY_RANGE_KEY.length).equals(LEGACY_RANGE_KEY);
}

async function* toAsync<T>(items: readonly T[]): AsyncGenerator<T> {
  for (const i of items) yield i;
}

/** Replaces the db's content with the dump's (writes only the difference). */
export async function loadDb(db: RootDb, entries: EntrySource, onEntries?: (consumed: number) => void): Promise<number> {
  return restoreRange(db, entries, {}, onEntries);
}
