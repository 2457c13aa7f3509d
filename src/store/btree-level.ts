/**
 * An in-memory abstract-level database on a copy-on-write B+ tree (`sorted-btree`): what
 * `memory-level` offers (sorted keys, snapshots and snapshot-isolated iterators that cost O(1) to
 * take), at a fraction of its cost per write.
 *
 * memory-level keeps a persistent red-black tree: every write copies the ~log2(n) nodes on the path
 * to its key, so a node's ~40 writes a height allocated and compared along 15–20-node paths. Here
 * the tree is mutated in place; a snapshot or an iterator takes `clone()`, which only marks the root
 * shared, and a write copies a node (≤ 64 entries) the first time it touches it after a clone.
 *
 * Keys are kept as binary strings (one char per byte, 0–255), which JavaScript compares in byte
 * order, as LevelDB and memory-level do; values are stored as given (Uint8Array), like memory-level.
 */
import { AbstractIterator, AbstractKeyIterator, AbstractLevel, AbstractSnapshot, AbstractValueIterator } from 'abstract-level';
import type { AbstractIteratorOptions, AbstractKeyIteratorOptions, AbstractValueIteratorOptions, AbstractOpenOptions } from 'abstract-level';
import sortedBtree from 'sorted-btree';

// A CommonJS package: Node's ESM import hands out module.exports, whose `default` is the class;
// loaders that honour `__esModule` (Vitest's) hand out the class itself.
const BTree: typeof sortedBtree.default =
  (sortedBtree as { default?: typeof sortedBtree.default }).default ?? (sortedBtree as unknown as typeof sortedBtree.default);

type Bytes = Uint8Array;
type Tree = sortedBtree.default<string, Bytes>;
/** What the iterators need of their database (abstract-level's base class does the rest). */
type Db = AbstractLevel<Bytes, unknown, unknown>;

const kTree = Symbol('tree');

/** Byte-order-preserving string of `b` (latin1: one char per byte). */
function toKey(b: Bytes): string {
  return Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('latin1');
}

function fromKey(s: string): Bytes {
  return Buffer.from(s, 'latin1');
}

const cmp = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

function newTree(): Tree {
  return new BTree<string, Bytes>(undefined, cmp);
}

interface RangeOptions {
  gt?: Bytes;
  gte?: Bytes;
  lt?: Bytes;
  lte?: Bytes;
  reverse?: boolean;
  snapshot?: unknown;
}

class BTreeSnapshot extends AbstractSnapshot {
  readonly [kTree]: Tree;
  constructor(tree: Tree, options: object) {
    super(...([options] as unknown as []));
    this[kTree] = tree;
  }
}

/** A position in a (cloned, never written) tree, walking one way within a range. */
class Cursor {
  private pair: [string, Bytes] | undefined;
  private readonly reverse: boolean;
  private readonly lo: string | undefined;
  private readonly loInclusive: boolean;
  private readonly hi: string | undefined;
  private readonly hiInclusive: boolean;

  constructor(
    private readonly tree: Tree,
    o: RangeOptions,
  ) {
    this.reverse = o.reverse === true;
    this.lo = o.gte !== undefined ? toKey(o.gte) : o.gt !== undefined ? toKey(o.gt) : undefined;
    this.loInclusive = o.gte !== undefined;
    this.hi = o.lte !== undefined ? toKey(o.lte) : o.lt !== undefined ? toKey(o.lt) : undefined;
    this.hiInclusive = o.lte !== undefined;
    this.pair = this.start();
  }

  private start(): [string, Bytes] | undefined {
    if (!this.reverse) {
      if (this.lo === undefined) return this.check(this.tree.nextHigherPair(undefined));
      return this.check(this.loInclusive ? this.tree.getPairOrNextHigher(this.lo) : this.tree.nextHigherPair(this.lo));
    }
    if (this.hi === undefined) return this.check(this.tree.nextLowerPair(undefined));
    return this.check(this.hiInclusive ? this.tree.getPairOrNextLower(this.hi) : this.tree.nextLowerPair(this.hi));
  }

  /** `pair` if it lies within the range, else undefined (the end). */
  private check(pair: [string, Bytes] | undefined): [string, Bytes] | undefined {
    if (pair === undefined) return undefined;
    return this.inRange(pair[0]) ? pair : undefined;
  }

  private inRange(k: string): boolean {
    if (this.lo !== undefined && (this.loInclusive ? k < this.lo : k <= this.lo)) return false;
    if (this.hi !== undefined && (this.hiInclusive ? k > this.hi : k >= this.hi)) return false;
    return true;
  }

  /** The current entry, then moves past it; undefined at the end. */
  take(): [string, Bytes] | undefined {
    const p = this.pair;
    if (p === undefined) return undefined;
    this.pair = this.check(this.reverse ? this.tree.nextLowerPair(p[0]) : this.tree.nextHigherPair(p[0]));
    return p;
  }

  seek(target: Bytes): void {
    const k = toKey(target);
    if (!this.inRange(k)) {
      this.pair = undefined;
      return;
    }
    this.pair = this.check(this.reverse ? this.tree.getPairOrNextLower(k) : this.tree.getPairOrNextHigher(k));
  }
}

type Shape<T> = (p: [string, Bytes]) => T;
const entryOf: Shape<[Bytes, Bytes]> = (p) => [fromKey(p[0]), p[1]];
const keyOf: Shape<Bytes> = (p) => fromKey(p[0]);
const valueOf: Shape<Bytes> = (p) => p[1];

/** The three iterator kinds share one body; only what they hand out differs. */
function drain<T>(cursor: Cursor, shape: Shape<T>, size: number): T[] {
  const out: T[] = [];
  while (out.length < size) {
    const p = cursor.take();
    if (p === undefined) break;
    out.push(shape(p));
  }
  return out;
}

class EntryIterator extends AbstractIterator<Db, Bytes, Bytes> {
  private readonly cursor: Cursor;
  constructor(db: Db, tree: Tree, options: AbstractIteratorOptions<Bytes, Bytes>) {
    super(db, options);
    this.cursor = new Cursor(tree, options as RangeOptions);
  }
  async _next(): Promise<[Bytes, Bytes] | undefined> {
    const p = this.cursor.take();
    return p === undefined ? undefined : entryOf(p);
  }
  async _nextv(size: number): Promise<[Bytes, Bytes][]> {
    return drain(this.cursor, entryOf, size);
  }
  async _all(): Promise<[Bytes, Bytes][]> {
    return drain(this.cursor, entryOf, this.limit - this.count);
  }
  _seek(target: Bytes): void {
    this.cursor.seek(target);
  }
}

class KeyIterator extends AbstractKeyIterator<Db, Bytes> {
  private readonly cursor: Cursor;
  constructor(db: Db, tree: Tree, options: AbstractKeyIteratorOptions<Bytes>) {
    super(db, options);
    this.cursor = new Cursor(tree, options as RangeOptions);
  }
  async _next(): Promise<Bytes | undefined> {
    const p = this.cursor.take();
    return p === undefined ? undefined : keyOf(p);
  }
  async _nextv(size: number): Promise<Bytes[]> {
    return drain(this.cursor, keyOf, size);
  }
  async _all(): Promise<Bytes[]> {
    return drain(this.cursor, keyOf, this.limit - this.count);
  }
  _seek(target: Bytes): void {
    this.cursor.seek(target);
  }
}

class ValueIterator extends AbstractValueIterator<Db, Bytes, Bytes> {
  private readonly cursor: Cursor;
  constructor(db: Db, tree: Tree, options: AbstractValueIteratorOptions<Bytes, Bytes>) {
    super(db, options);
    this.cursor = new Cursor(tree, options as RangeOptions);
  }
  async _next(): Promise<Bytes | undefined> {
    const p = this.cursor.take();
    return p === undefined ? undefined : valueOf(p);
  }
  async _nextv(size: number): Promise<Bytes[]> {
    return drain(this.cursor, valueOf, size);
  }
  async _all(): Promise<Bytes[]> {
    return drain(this.cursor, valueOf, this.limit - this.count);
  }
  _seek(target: Bytes): void {
    this.cursor.seek(target);
  }
}

/**
 * One write of `writeDirect`: the key under a sublevel's global `prefix` ('' for the root), a
 * string key as UTF-8 and a byte key as its bytes; a string value as UTF-8, bytes as given, and
 * `undefined` a delete. These are the bytes abstract-level's batch stores for a 'utf8' or 'view'
 * key and value encoding.
 */
export interface DirectWrite {
  prefix: string;
  key: string | Uint8Array;
  value: Uint8Array | string | undefined;
}

const utf8Encoder = new TextEncoder();
const ASCII = /^[\x00-\x7f]*$/;

/** The tree key (latin1, one char a byte) of `key` under `prefix` (ASCII, as sublevel names are). */
function directKey(prefix: string, key: string | Uint8Array): string {
  if (typeof key !== 'string') return prefix + toKey(key);
  return prefix + (ASCII.test(key) ? key : Buffer.from(key, 'utf8').toString('latin1'));
}

/**
 * The BTreeLevel under `db` (a root or a sublevel) when a write may skip abstract-level's batch:
 * open, no prewrite hook, no 'write' listener. Its batch spreads, validates, encodes and prefixes
 * each operation (12–15 µs an operation in a microbenchmark, against 1.5–2 µs for the tree
 * itself), and a height writes some thirty keys.
 */
export function directTarget(db: object): BTreeLevel<unknown, unknown> | undefined {
  const root = ((db as { parent?: unknown }).parent ? (db as { db: object }).db : db) as BTreeLevel<unknown, unknown>;
  if (!(root instanceof BTreeLevel) || root.status !== 'open') return undefined;
  if (!(root.hooks.prewrite as { noop?: boolean }).noop || root.listenerCount('write') > 0) return undefined;
  return root;
}

export interface BTreeLevelOptions {
  keyEncoding?: string;
  valueEncoding?: string;
}

export class BTreeLevel<K = string, V = Uint8Array> extends AbstractLevel<Bytes, K, V> {
  private tree: Tree = newTree();

  constructor(options: BTreeLevelOptions = {}) {
    super(
      {
        seek: true,
        explicitSnapshots: true,
        permanence: false,
        createIfMissing: false,
        errorIfExists: false,
        has: true,
        getSync: true,
        encodings: { view: true },
        signals: { iterators: false },
      } as never,
      options as never,
    );
  }

  /** The tree a read sees: the snapshot's, or the live one. */
  private treeFor(options: { snapshot?: unknown }): Tree {
    return (options.snapshot as BTreeSnapshot | undefined)?.[kTree] ?? this.tree;
  }

  async _open(_options: AbstractOpenOptions): Promise<void> {}

  async _put(key: Bytes, value: Bytes): Promise<void> {
    this.tree.set(toKey(key), value);
  }

  async _get(key: Bytes, options: { snapshot?: unknown }): Promise<Bytes | undefined> {
    return this.treeFor(options).get(toKey(key));
  }

  _getSync(key: Bytes, options: { snapshot?: unknown }): Bytes | undefined {
    return this.treeFor(options).get(toKey(key));
  }

  async _getMany(keys: Bytes[], options: { snapshot?: unknown }): Promise<(Bytes | undefined)[]> {
    const tree = this.treeFor(options);
    return keys.map((k) => tree.get(toKey(k)));
  }

  async _has(key: Bytes, options: { snapshot?: unknown }): Promise<boolean> {
    return this.treeFor(options).has(toKey(key));
  }

  async _hasMany(keys: Bytes[], options: { snapshot?: unknown }): Promise<boolean[]> {
    const tree = this.treeFor(options);
    return keys.map((k) => tree.has(toKey(k)));
  }

  async _del(key: Bytes): Promise<void> {
    this.tree.delete(toKey(key));
  }

  /** Applies `writes` at once, as one batch would (see directTarget for when that is allowed). */
  writeDirect(writes: readonly DirectWrite[]): void {
    const tree = this.tree;
    for (const w of writes) {
      const k = directKey(w.prefix, w.key);
      if (w.value === undefined) tree.delete(k);
      else tree.set(k, typeof w.value === 'string' ? utf8Encoder.encode(w.value) : w.value);
    }
  }

  async _batch(operations: { type: 'put' | 'del'; key: Bytes; value?: Bytes }[]): Promise<void> {
    const tree = this.tree;
    for (const op of operations) {
      if (op.type === 'put') tree.set(toKey(op.key), op.value!);
      else tree.delete(toKey(op.key));
    }
  }

  async _clear(options: RangeOptions & { limit: number }): Promise<void> {
    const ranged = options.gt !== undefined || options.gte !== undefined || options.lt !== undefined || options.lte !== undefined;
    if (options.limit === -1 && !ranged && options.snapshot == null) {
      this.tree = newTree();
      return;
    }
    // The keys to delete come from the snapshot (or a clone of the live tree); deletes go to the live tree.
    const cursor = new Cursor(this.treeFor(options).clone(), options);
    let n = 0;
    for (let p = cursor.take(); p !== undefined && (options.limit === -1 || n < options.limit); p = cursor.take(), n++) this.tree.delete(p[0]);
  }

  _iterator(options: AbstractIteratorOptions<Bytes, Bytes>): EntryIterator {
    return new EntryIterator(this as unknown as Db, this.treeFor(options).clone(), options);
  }

  _keys(options: AbstractKeyIteratorOptions<Bytes>): KeyIterator {
    return new KeyIterator(this as unknown as Db, this.treeFor(options).clone(), options);
  }

  _values(options: AbstractValueIteratorOptions<Bytes, Bytes>): ValueIterator {
    return new ValueIterator(this as unknown as Db, this.treeFor(options).clone(), options);
  }

  _snapshot(options: object): BTreeSnapshot {
    return new BTreeSnapshot(this.tree.clone(), options);
  }

  /**
   * Makes the live content `snapshot`'s (a BTreeLevel snapshot) in one step: its tree is cloned,
   * copy-on-write, as taking it was. Nothing is written through abstract-level (no hooks, no
   * 'write' events: see directTarget). False for any other snapshot.
   */
  restoreSnapshot(snapshot: object): boolean {
    if (!(snapshot instanceof BTreeSnapshot)) return false;
    this.tree = snapshot[kTree].clone();
    return true;
  }
}
