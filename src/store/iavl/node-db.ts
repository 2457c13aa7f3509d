/**
 * Where an IAVL tree keeps its nodes and version roots. Nodes are content-addressed by their hash
 * (the hash covers the version a node was created in, so a node never comes back once orphaned);
 * a version's root record names its root node; a version's orphan list names the nodes that
 * committing it dropped from the tree (live up to the version before), which pruning deletes.
 *
 * Two implementations: in memory (nodes kept as objects), and over an abstract-level sublevel:
 *
 *   'n' ‖ hash           → node (node.ts `encodeNode`)
 *   'r' ‖ u64be version  → root hash, or empty for an empty tree
 *   'o' ‖ u64be version  → the hashes (32 bytes each) orphaned by committing that version
 *   'l'                  → u64be latest version
 *
 * A version whose commit changed nothing gets no root record (it reads as the version before,
 * whose root it has): a store that rarely changes costs one overwritten key per block.
 *
 * The level one adds a commit's writes to the caller's batch when it gets one (so a chain's
 * commit stays one atomic write), else writes them itself (`flush` waits for that).
 */
import type { AbstractBatchOperation, AbstractLevel, AbstractSublevel } from 'abstract-level';
import { toHex } from '../../crypto/encoding.js';
import { directTarget } from '../btree-level.js';
import { rootOf } from '../level.js';
import { IavlMissingNodeError } from './errors.js';
import { decodeNode, encodeNode, IavlNode } from './node.js';

/** A sublevel with Uint8Array keys and values (`keyEncoding`/`valueEncoding` 'view'). */
export type IavlSublevel = AbstractSublevel<unknown, string | Uint8Array | Buffer, Uint8Array, Uint8Array>;

/** One write of a commit, in the shape abstract-level's `batch([...])` takes with `sublevel`. */
export interface NodeBatchOp {
  type: 'put' | 'del';
  sublevel: IavlSublevel;
  key: Uint8Array;
  value?: Uint8Array;
  keyEncoding: 'view';
  valueEncoding: 'view';
}

/** A caller's batch: the tree appends its ops; the caller writes them with its own (one atomic write). */
export type NodeBatch = NodeBatchOp[];

/** What one commit writes. */
export interface NodeCommit {
  version: number;
  /** False for a commit without changes: only the latest version is written. */
  changed: boolean;
  /** Root node hash; undefined for an empty tree. */
  root: Uint8Array | undefined;
  /** The nodes created in this version. */
  nodes: readonly IavlNode[];
  /** Hashes of the nodes this version dropped; undefined when nobody will prune. */
  orphans: readonly Uint8Array[] | undefined;
}

/** A recorded version to delete, with the nodes orphaned by the next recorded one (live up to it). */
export interface PrunedVersion {
  version: number;
  next: number;
  orphansOfNext: readonly Uint8Array[];
}

export interface NodeDb {
  /** True when the nodes outlive the process (orphan lists are worth keeping). */
  readonly persistent: boolean;
  /** Every recorded version with its root (undefined for an empty tree), and the latest version. */
  loadRoots(): Promise<{ roots: Map<number, Uint8Array | undefined>; latest: number }>;
  getNode(hash: Uint8Array): Promise<IavlNode | undefined>;
  getNodes(hashes: readonly Uint8Array[]): Promise<(IavlNode | undefined)[]>;
  /** The nodes committing `version` orphaned (empty when none were recorded). */
  getOrphans(version: number): Promise<Uint8Array[]>;
  write(commit: NodeCommit, batch?: NodeBatch): void;
  prune(versions: readonly PrunedVersion[], batch?: NodeBatch): void;
  /** Resolves once every write made without a caller's batch is stored; rejects if one failed. */
  flush(): Promise<void>;
}

class MemoryNodeDb implements NodeDb {
  readonly persistent = false;
  private readonly nodes = new Map<string, IavlNode>();
  private readonly roots = new Map<number, Uint8Array | undefined>();
  private readonly orphans = new Map<number, readonly Uint8Array[]>();
  private latest = 0;

  async loadRoots(): Promise<{ roots: Map<number, Uint8Array | undefined>; latest: number }> {
    return { roots: new Map(this.roots), latest: this.latest };
  }

  async getNode(hash: Uint8Array): Promise<IavlNode | undefined> {
    return this.nodes.get(toHex(hash));
  }

  async getNodes(hashes: readonly Uint8Array[]): Promise<(IavlNode | undefined)[]> {
    return hashes.map((h) => this.nodes.get(toHex(h)));
  }

  async getOrphans(version: number): Promise<Uint8Array[]> {
    return [...(this.orphans.get(version) ?? [])];
  }

  write(c: NodeCommit): void {
    this.latest = c.version;
    if (!c.changed) return;
    for (const n of c.nodes) this.nodes.set(toHex(n.hash!), n);
    this.roots.set(c.version, c.root);
    if (c.orphans !== undefined && c.orphans.length > 0) this.orphans.set(c.version, c.orphans);
  }

  prune(versions: readonly PrunedVersion[]): void {
    for (const p of versions) {
      this.roots.delete(p.version);
      this.orphans.delete(p.next);
      for (const h of p.orphansOfNext) this.nodes.delete(toHex(h));
    }
  }

  async flush(): Promise<void> {}
}

export function memoryNodeDb(): NodeDb {
  return new MemoryNodeDb();
}

const NODE = 0x6e; // 'n'
const ROOT = 0x72; // 'r'
const ORPHANS = 0x6f; // 'o'
const LATEST = Uint8Array.of(0x6c); // 'l'
const HASH_LEN = 32;
const BYTES = { keyEncoding: 'view', valueEncoding: 'view' } as const;

function nodeKey(hash: Uint8Array): Uint8Array {
  const k = new Uint8Array(1 + hash.length);
  k[0] = NODE;
  k.set(hash, 1);
  return k;
}

function versionKey(prefix: number, version: number): Uint8Array {
  const k = new Uint8Array(9);
  k[0] = prefix;
  new DataView(k.buffer).setBigUint64(1, BigInt(version));
  return k;
}

function readU64(b: Uint8Array, at: number): number {
  return Number(new DataView(b.buffer, b.byteOffset, b.byteLength).getBigUint64(at));
}

/** A copy of a value read from level (a Buffer from some databases) as a plain Uint8Array. */
function copyOut(v: Uint8Array, start = 0, end = v.byteLength): Uint8Array {
  return new Uint8Array(v.buffer, v.byteOffset, v.byteLength).slice(start, end);
}

function concatHashes(hashes: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(hashes.length * HASH_LEN);
  hashes.forEach((h, i) => out.set(h, i * HASH_LEN));
  return out;
}

type RootLevel = AbstractLevel<string | Uint8Array | Buffer, unknown, unknown>;

class LevelNodeDb implements NodeDb {
  readonly persistent = true;
  private pending: Promise<void> = Promise.resolve();
  private failure: unknown = undefined;

  constructor(private readonly level: IavlSublevel) {}

  async loadRoots(): Promise<{ roots: Map<number, Uint8Array | undefined>; latest: number }> {
    const roots = new Map<number, Uint8Array | undefined>();
    for await (const [k, v] of this.level.iterator({ gte: versionKey(ROOT, 0), lt: Uint8Array.of(ROOT + 1), ...BYTES })) {
      roots.set(readU64(k, 1), v.length === 0 ? undefined : copyOut(v));
    }
    const l = await this.level.get(LATEST, BYTES);
    return { roots, latest: l === undefined || l.length !== 8 ? 0 : readU64(l, 0) };
  }

  async getNode(hash: Uint8Array): Promise<IavlNode | undefined> {
    const v = await this.level.get(nodeKey(hash), BYTES);
    return v === undefined ? undefined : decodeNode(hash, v);
  }

  async getNodes(hashes: readonly Uint8Array[]): Promise<(IavlNode | undefined)[]> {
    if (hashes.length === 0) return [];
    const vs = await this.level.getMany(hashes.map(nodeKey), BYTES);
    return vs.map((v, i) => (v === undefined ? undefined : decodeNode(hashes[i]!, v)));
  }

  async getOrphans(version: number): Promise<Uint8Array[]> {
    const v = await this.level.get(versionKey(ORPHANS, version), BYTES);
    if (v === undefined) return [];
    const out: Uint8Array[] = [];
    for (let i = 0; i + HASH_LEN <= v.length; i += HASH_LEN) out.push(copyOut(v, i, i + HASH_LEN));
    return out;
  }

  write(c: NodeCommit, batch?: NodeBatch): void {
    const ops: NodeBatch = batch ?? [];
    this.put(ops, LATEST, versionKey(ROOT, c.version).subarray(1));
    if (!c.changed) {
      if (batch === undefined) this.writeOwn(ops);
      return;
    }
    for (const n of c.nodes) this.put(ops, nodeKey(n.hash!), encodeNode(n));
    this.put(ops, versionKey(ROOT, c.version), c.root ?? new Uint8Array(0));
    if (c.orphans !== undefined && c.orphans.length > 0) this.put(ops, versionKey(ORPHANS, c.version), concatHashes(c.orphans));
    if (batch === undefined) this.writeOwn(ops);
  }

  prune(versions: readonly PrunedVersion[], batch?: NodeBatch): void {
    if (versions.length === 0) return;
    const ops: NodeBatch = batch ?? [];
    for (const p of versions) {
      this.del(ops, versionKey(ROOT, p.version));
      this.del(ops, versionKey(ORPHANS, p.next));
      for (const h of p.orphansOfNext) this.del(ops, nodeKey(h));
    }
    if (batch === undefined) this.writeOwn(ops);
  }

  private put(ops: NodeBatch, key: Uint8Array, value: Uint8Array): void {
    ops.push({ type: 'put', sublevel: this.level, key, value, ...BYTES });
  }

  private del(ops: NodeBatch, key: Uint8Array): void {
    ops.push({ type: 'del', sublevel: this.level, key, ...BYTES });
  }

  /** Writes without a caller's batch: in order, one batch each; `flush` reports a failure. */
  private writeOwn(ops: NodeBatch): void {
    const sublevel = this.level;
    this.pending = this.pending.then(() =>
      writeOps(sublevel, ops).catch((err: unknown) => {
        this.failure ??= err;
      }),
    );
  }

  async flush(): Promise<void> {
    await this.pending;
    if (this.failure !== undefined) throw this.failure;
  }
}

/** Writes `ops` to the root database in one batch (the in-memory one: straight into its tree). */
export async function writeOps(sublevel: IavlSublevel, ops: NodeBatch): Promise<void> {
  if (ops.length === 0) return;
  const direct = directTarget(sublevel);
  if (direct) {
    direct.writeDirect(ops.map((o) => ({ prefix: o.sublevel.prefix, key: o.key, value: o.type === 'del' ? undefined : o.value })));
    return;
  }
  const root = rootOf(sublevel as unknown as RootLevel);
  await root.batch(ops as unknown as AbstractBatchOperation<RootLevel, unknown, unknown>[]);
}

/**
 * A node db in `sublevel` (created with `keyEncoding: 'view', valueEncoding: 'view'`; every call
 * here names those encodings too).
 */
export function levelNodeDb(sublevel: IavlSublevel): NodeDb {
  return new LevelNodeDb(sublevel);
}

/** Nodes asked of the db per round trip when loading a whole version. */
const LOAD_CHUNK = 4096;

/** Loads a whole version into memory, level by level (one db round trip per tree level and chunk). */
export async function loadVersion(db: NodeDb, rootHash: Uint8Array): Promise<IavlNode> {
  const top = await db.getNode(rootHash);
  if (top === undefined) throw new IavlMissingNodeError(rootHash);
  if (top.isLeaf || top.left !== undefined) return top; // already linked (the in-memory db)
  const levels: IavlNode[][] = [[top]];
  for (;;) {
    const hashes: Uint8Array[] = [];
    for (const n of levels[levels.length - 1]!) if (!n.isLeaf) hashes.push(n.leftHash!, n.rightHash!);
    if (hashes.length === 0) break;
    const next: IavlNode[] = [];
    for (let i = 0; i < hashes.length; i += LOAD_CHUNK) {
      const chunk = hashes.slice(i, i + LOAD_CHUNK);
      const got = await db.getNodes(chunk);
      got.forEach((n, j) => {
        if (n === undefined) throw new IavlMissingNodeError(chunk[j]!);
        next.push(n);
      });
    }
    levels.push(next);
  }
  // Link bottom-up: each level's inner nodes take the next level's nodes two by two, in order.
  let below: IavlNode[] = [];
  for (let d = levels.length - 1; d >= 0; d--) {
    let j = 0;
    below = levels[d]!.map((n) => {
      if (n.isLeaf) return n;
      const linked = new IavlNode(n.key, undefined, n.height, n.size, below[j]!, below[j + 1]!, n.leftHash, n.rightHash);
      j += 2;
      linked.version = n.version;
      linked.hash = n.hash;
      linked.saved = true;
      return linked;
    });
  }
  return below[0]!;
}
