/**
 * The app's persistent layout inside the sublevel it is given:
 *
 *   trie/    state trie nodes and contract code (LevelTrieDB)        hash → node
 *   blocks/  one BlockRecord per height                                u64be height → RLP
 *   roots/   state root and block hash of each height                    u64be height → root ‖ hash
 *   txs/     Ethereum tx hash → location                               32 bytes → u64be height ‖ u32be index
 *   hashes/  CometBFT block hash → height                              hash → u64be height
 *   meta/    "app" → AppMeta JSON (last height, app hash, next base fee, chain config)
 *   auth/    hex address → account number and public key (the Cosmos face, cosmos/auth-registry.ts)
 *   ibc/     the IBC store's entries (src/ibc/ibc-store.ts)                 ICS-24 path → value
 *   ibc-iavl/ the same entries as an IAVL tree, one version per height (src/store/iavl): the `ibc`
 *            store of the app hash and of `abci_query` proofs; ibc-heights/ the tree's version per height
 *
 * `commit` writes a block's trie nodes, records and the new meta in ONE batch, so the db always holds
 * either the previous block's state or the new one.
 */
import type { AbstractBatchOperation, AbstractLevel, AbstractSublevel } from 'abstract-level';
import { directTarget } from '../../store/btree-level.js';
import { rootOf } from '../../store/level.js';
import type { IavlSublevel, NodeBatch } from '../../store/iavl/index.js';
import { blockRecordBloom, decodeBlockRecord, encodeBlockRecord, type BlockRecord } from './block-record.js';
import type { AppChainConfig } from '../abci/app-config.js';
import { CorruptStoreError } from '../errors.js';
import type { BytesSublevel } from './trie-db.js';

/** The level database (normally a sublevel of the node's db) the app owns. */
export type AppLevel = AbstractLevel<string | Uint8Array | Buffer, unknown, unknown>;
export type TextSublevel = AbstractSublevel<unknown, string | Uint8Array | Buffer, string, string>;
export type TextBytesSublevel = AbstractSublevel<unknown, string | Uint8Array | Buffer, string, Uint8Array>;

export interface AppMeta {
  config: AppChainConfig;
  genesisRoot: string;
  lastHeight: number;
  /** Hex, '' before the first block. */
  lastAppHash: string;
  lastBlockHash: string;
  nextBaseFee: string;
  /** Hex root of the IBC store after the last block ('' or absent while it is empty); the app hash commits to it. */
  lastIbcRoot?: string;
}

/**
 * Decoded block records kept in memory (the RPC mostly asks for the newest blocks), and the most
 * txs they may hold together: a record keeps its txs decoded (~3 KB each), so a bound in blocks
 * alone let a few blocks of thousands of txs keep tens of MB. The newest record always stays.
 */
export const RECENT_BLOCKS = 16;
export const RECENT_TXS = 2048;

/**
 * Blocks the store holds no entries for but can name: the heights of empty segments (many empty
 * blocks committed at once, src/app/stores/empty-segments.ts). Consulted after the store's own entries.
 */
export interface VirtualBlockSource {
  record(height: number): BlockRecord | undefined;
  heightOfHash(hash: Uint8Array): number | undefined;
  rootAt(height: number): Uint8Array | undefined;
  hashAt(height: number): Uint8Array | undefined;
}

export class AppStore {
  readonly trie: BytesSublevel;
  private readonly blocks: BytesSublevel;
  private readonly roots: BytesSublevel;
  private readonly txs: BytesSublevel;
  private readonly hashes: BytesSublevel;
  private readonly meta: TextSublevel;
  readonly auth: TextSublevel;
  /** The IBC module's store (src/ibc): key → value bytes. */
  readonly ibc: TextBytesSublevel;
  /** The IBC store's IAVL nodes and versions (src/store/iavl): the `ibc` store of the app hash. */
  readonly ibcTree: IavlSublevel;
  /** u64be height → u64be version of the IBC tree at that height (heights with a commit of their own). */
  readonly ibcHeights: IavlSublevel;
  private readonly recent = new Map<number, BlockRecord>();
  private recentTxs = 0;

  /** The root database `db` is a sublevel of (or `db`): commits are written there in one pass. */
  private readonly root: AppLevel;

  constructor(
    readonly db: AppLevel,
    /** The heights of empty segments (the block store's records). */
    private readonly virtual?: VirtualBlockSource,
  ) {
    this.root = rootOf(db);
    const bytes = { keyEncoding: 'view', valueEncoding: 'view' } as const;
    this.trie = db.sublevel<Uint8Array, Uint8Array>('trie', bytes) as BytesSublevel;
    this.blocks = db.sublevel<Uint8Array, Uint8Array>('blocks', bytes) as BytesSublevel;
    this.roots = db.sublevel<Uint8Array, Uint8Array>('roots', bytes) as BytesSublevel;
    this.txs = db.sublevel<Uint8Array, Uint8Array>('txs', bytes) as BytesSublevel;
    this.hashes = db.sublevel<Uint8Array, Uint8Array>('hashes', bytes) as BytesSublevel;
    this.meta = db.sublevel<string, string>('meta', { keyEncoding: 'utf8', valueEncoding: 'utf8' }) as TextSublevel;
    this.auth = db.sublevel<string, string>('auth', { keyEncoding: 'utf8', valueEncoding: 'utf8' }) as TextSublevel;
    this.ibc = db.sublevel<string, Uint8Array>('ibc', { keyEncoding: 'utf8', valueEncoding: 'view' }) as unknown as TextBytesSublevel;
    this.ibcTree = db.sublevel<Uint8Array, Uint8Array>('ibc-iavl', bytes) as unknown as IavlSublevel;
    this.ibcHeights = db.sublevel<Uint8Array, Uint8Array>('ibc-heights', bytes) as unknown as IavlSublevel;
  }

  async loadMeta(): Promise<AppMeta | undefined> {
    const text = await this.meta.get('app');
    if (text === undefined) return undefined;
    try {
      return JSON.parse(text) as AppMeta;
    } catch {
      throw new CorruptStoreError('meta');
    }
  }

  /** Writes `trieOps`, the block (if any) and `meta` atomically. */
  async commit(
    trieOps: { key: Uint8Array; value: Uint8Array }[],
    meta: AppMeta,
    record?: BlockRecord,
    auth: { key: string; value: string }[] = [],
    ibc: [string, Uint8Array | undefined][] = [],
    /** The IAVL trees' writes of this commit (src/store/iavl: each op names its sublevel). */
    treeOps: NodeBatch = [],
  ): Promise<void> {
    type Op = { type: 'put' | 'del'; sublevel: BytesSublevel | TextSublevel | TextBytesSublevel; key: Uint8Array | string; value?: Uint8Array | string };
    const ops: Op[] = new Array(trieOps.length);
    for (let i = 0; i < trieOps.length; i++) ops[i] = { type: 'put', sublevel: this.trie, key: trieOps[i]!.key, value: trieOps[i]!.value };
    if (record !== undefined) {
      const r = record;
      const height = u64(r.number);
      const rootAndHash = new Uint8Array(32 + r.hash.length);
      rootAndHash.set(r.stateRoot, 0);
      rootAndHash.set(r.hash, 32);
      ops.push({ type: 'put', sublevel: this.blocks, key: height, value: encodeBlockRecord(r) });
      ops.push({ type: 'put', sublevel: this.roots, key: height, value: rootAndHash });
      ops.push({ type: 'put', sublevel: this.hashes, key: r.hash, value: height });
      for (let i = 0; i < r.txs.length; i++) {
        const loc = new Uint8Array(12);
        loc.set(height, 0);
        new DataView(loc.buffer).setUint32(8, i);
        ops.push({ type: 'put', sublevel: this.txs, key: r.txs[i]!.ethHash, value: loc });
      }
    }
    for (const a of auth) ops.push({ type: 'put', sublevel: this.auth, key: a.key, value: a.value });
    for (const [key, value] of ibc) ops.push(value === undefined ? { type: 'del', sublevel: this.ibc, key } : { type: 'put', sublevel: this.ibc, key, value });
    for (const o of treeOps) ops.push({ type: o.type, sublevel: o.sublevel as unknown as BytesSublevel, key: o.key, ...(o.value ? { value: o.value } : {}) });
    ops.push({ type: 'put', sublevel: this.meta, key: 'app', value: JSON.stringify(meta) });
    const direct = directTarget(this.root);
    if (direct) {
      // In memory: into the tree at once, each key under its sublevel's prefix (string keys and
      // values UTF-8, bytes as given: the encodings these sublevels have).
      direct.writeDirect(ops.map((o) => ({ prefix: o.sublevel.prefix, key: o.key, value: o.type === 'del' ? undefined : o.value })));
    } else {
      // Straight to the root database: each key is prefixed once, in one pass (not once per level).
      await this.root.batch(ops as unknown as AbstractBatchOperation<AppLevel, unknown, unknown>[]);
    }
    if (record !== undefined) this.remember(record);
  }

  async getBlockRecord(height: number): Promise<BlockRecord | undefined> {
    const hit = this.recent.get(height);
    if (hit !== undefined) return hit;
    const bytes = await this.blocks.get(u64(height));
    if (bytes === undefined) return this.virtual?.record(height);
    const record = decodeBlockRecord(plain(bytes));
    this.remember(record);
    return record;
  }

  /**
   * The blooms of the stored blocks in [from, to], in height order, read in one pass over the
   * records without decoding them. Blocks of an empty segment (devnet mining) have no record and no
   * logs: they are not listed.
   */
  async *blooms(from: number, to: number): AsyncGenerator<[height: number, bloom: Uint8Array]> {
    if (to < from) return;
    const it = this.blocks.iterator({ gte: u64(from), lte: u64(to) });
    try {
      for (;;) {
        const chunk = await it.nextv(256);
        if (chunk.length === 0) return;
        for (const [key, value] of chunk) yield [readU64(key), blockRecordBloom(plain(value))];
      }
    } finally {
      await it.close();
    }
  }

  async heightOfHash(hash: Uint8Array): Promise<number | undefined> {
    const v = await this.hashes.get(hash);
    return v === undefined ? this.virtual?.heightOfHash(hash) : readU64(v);
  }

  async findTx(ethHash: Uint8Array): Promise<{ height: number; index: number } | undefined> {
    const v = await this.txs.get(ethHash);
    if (v === undefined) return undefined;
    return { height: readU64(v), index: new DataView(v.buffer, v.byteOffset, v.byteLength).getUint32(8) };
  }

  async rootAt(height: number): Promise<Uint8Array | undefined> {
    const v = await this.roots.get(u64(height));
    return v === undefined ? this.virtual?.rootAt(height) : plain(v).slice(0, 32);
  }

  /** Forgets the cached recent records (after devnet control rewrote the db underneath). */
  clearCache(): void {
    this.recent.clear();
    this.recentTxs = 0;
  }

  /** Block hashes of the `count` heights up to `height`, newest first (stored ones and those of empty segments). */
  async recentHashes(height: number, count: number): Promise<{ height: number; hash: Uint8Array }[]> {
    const stored = new Map<number, Uint8Array>();
    for await (const [key, value] of this.roots.iterator({ lte: u64(height), reverse: true, limit: count })) {
      stored.set(readU64(key), plain(value).slice(32));
    }
    const out: { height: number; hash: Uint8Array }[] = [];
    for (let h = height; h > height - count && h > 0; h--) {
      const hash = stored.get(h) ?? this.virtual?.hashAt(h);
      if (hash !== undefined) out.push({ height: h, hash });
    }
    return out;
  }

  private remember(record: BlockRecord): void {
    this.forget(record.number);
    this.recent.set(record.number, record);
    this.recentTxs += record.txs.length;
    while (this.recent.size > 1 && (this.recent.size > RECENT_BLOCKS || this.recentTxs > RECENT_TXS)) this.forget(this.recent.keys().next().value!);
  }

  private forget(height: number): void {
    const r = this.recent.get(height);
    if (r === undefined) return;
    this.recent.delete(height);
    this.recentTxs -= r.txs.length;
  }
}

/** Level returns Buffers; hand out plain Uint8Arrays (a view, no copy). */
function plain(b: Uint8Array): Uint8Array {
  return new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
}

function u64(n: number): Uint8Array {
  const b = new Uint8Array(8);
  new DataView(b.buffer).setBigUint64(0, BigInt(n));
  return b;
}

function readU64(b: Uint8Array): number {
  return Number(new DataView(b.buffer, b.byteOffset, b.byteLength).getBigUint64(0));
}
