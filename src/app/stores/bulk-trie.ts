/**
 * Applies many writes to a Merkle Patricia trie in one pass, for the account trie at the end of a
 * block: the same root as one `put`/`del` per key (the trie is canonical: its root depends only on
 * the key/value set), with every changed node built, encoded and hashed once.
 *
 * One `put` per account walks the path from the root (decoding each node again) and re-hashes the
 * whole path; a block of 1000 transfers touches ~2000 accounts, so the root and the first levels
 * are re-hashed ~2000 times and ~9500 intermediate nodes are written, of which ~4000 survive. Here
 * the sorted keys are split at each branch and each node on the union of their paths is visited
 * once.
 *
 *   update(ref, depth, ops)   empty → build · leaf → rebuild with its entry · extension → follow
 *                             or split · branch → per-nibble groups; then normalise (collapse a
 *                             branch with one child, merge extension/leaf paths)
 *   commit(node)              children first; nodes of < 32 encoded bytes are embedded in their
 *                             parent, others stored under their keccak (the root always)
 *
 * Only tries whose keys all have the same length (hashed keys) are handled; a branch holding a value
 * throws UnsupportedTrieShape, and the caller falls back to one `put` per key.
 */
import { rlpEncode, type RlpItem } from '../views/rlp-encode.js';
import { rlpDecodeView } from '../views/rlp-view.js';

/** Reads and writes trie nodes by hash. */
export interface TrieNodeStore {
  get(hash: Uint8Array): Promise<Uint8Array | undefined>;
  putMany(nodes: { key: Uint8Array; value: Uint8Array }[]): Promise<void>;
}

/** One write: the (hashed) key's nibbles and the new value, or undefined to delete. */
export interface TrieWrite {
  nibbles: Uint8Array;
  value: Uint8Array | undefined;
}

export class UnsupportedTrieShape extends Error {
  constructor(what: string) {
    super(`bulk trie update: ${what}`);
    this.name = 'UnsupportedTrieShape';
  }
}

export class MissingTrieNode extends Error {
  constructor(readonly hash: Uint8Array) {
    super(`Missing node in DB: ${Buffer.from(hash).toString('hex')}`);
    this.name = 'MissingTrieNode';
  }
}

interface Branch {
  kind: 'branch';
  children: Ref[];
}
interface Extension {
  kind: 'ext';
  path: Uint8Array;
  child: Ref;
}
interface Leaf {
  kind: 'leaf';
  path: Uint8Array;
  value: Uint8Array;
}
type TrieNode = Branch | Extension | Leaf;
/** A child: none, a stored node by hash (32 bytes), or a node in memory (new, changed or embedded). */
type Ref = null | Uint8Array | TrieNode;

const EMPTY = new Uint8Array(0);

export function bytesToNibbles(bytes: Uint8Array): Uint8Array {
  const out = new Uint8Array(bytes.length * 2);
  for (let i = 0; i < bytes.length; i++) {
    out[2 * i] = bytes[i]! >> 4;
    out[2 * i + 1] = bytes[i]! & 0x0f;
  }
  return out;
}

/** Orders writes by key (nibble-wise = byte-wise order of the hashed keys). */
export function compareNibbles(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return a.length - b.length;
}

/**
 * The root after `writes` (sorted by key, one per key) on the trie at `root`. New nodes are written
 * to `store` (in one call) before the root is returned.
 */
export async function bulkUpdate(
  root: Uint8Array,
  emptyRoot: Uint8Array,
  writes: readonly TrieWrite[],
  store: TrieNodeStore,
  keccak: (data: Uint8Array) => Uint8Array,
): Promise<Uint8Array> {
  const keyLength = writes[0]?.nibbles.length ?? 0;
  for (const w of writes) if (w.nibbles.length !== keyLength) throw new UnsupportedTrieShape('keys of different lengths');
  const t = new BulkTrie(store, keccak, keyLength);
  const start: Ref = bytesEqual(root, emptyRoot) ? null : root;
  const next = await t.update(start, 0, writes, 0, writes.length);
  if (next === null) return emptyRoot;
  const hash = t.commitRoot(next);
  await store.putMany(t.written);
  return hash;
}

/**
 * The value under `nibbles` in the trie at `root` (a copy), or null: one walk down the path, each
 * node read from `store` and decoded as bulkUpdate decodes it. (MerklePatriciaTrie.get walks with a
 * WalkController: a promise, a task queue and a node object each step.) Throws UnsupportedTrieShape
 * for a node decodeNode does not take (a branch holding a value), MissingTrieNode for a node the
 * store lacks.
 */
export async function readTrie(store: Pick<TrieNodeStore, 'get'>, root: Uint8Array, emptyRoot: Uint8Array, nibbles: Uint8Array): Promise<Uint8Array | null> {
  let ref: Ref = bytesEqual(root, emptyRoot) ? null : root;
  let depth = 0;
  for (;;) {
    if (ref === null) return null;
    let node: TrieNode;
    if (ref instanceof Uint8Array) {
      const bytes = await store.get(ref);
      if (bytes === undefined) throw new MissingTrieNode(ref);
      node = decodeNode(rlpDecodeView(bytes));
    } else {
      node = ref; // embedded in its parent
    }
    switch (node.kind) {
      case 'branch':
        if (depth >= nibbles.length) return null;
        ref = node.children[nibbles[depth]!]!;
        depth++;
        break;
      case 'ext':
        if (!startsWith(nibbles, node.path, depth)) return null;
        depth += node.path.length;
        ref = node.child;
        break;
      case 'leaf':
        // A copy: the node's decoded items are views into the stored bytes.
        return depth + node.path.length === nibbles.length && startsWith(nibbles, node.path, depth) ? node.value.slice() : null;
    }
  }
}

class BulkTrie {
  readonly written: { key: Uint8Array; value: Uint8Array }[] = [];

  constructor(
    private readonly store: TrieNodeStore,
    private readonly keccak: (data: Uint8Array) => Uint8Array,
    private readonly keyLength: number,
  ) {}

  /** The subtrie `ref` (whose path so far is `depth` nibbles) after writes[lo, hi). */
  async update(ref: Ref, depth: number, writes: readonly TrieWrite[], lo: number, hi: number): Promise<Ref> {
    if (lo === hi) return ref;
    const node = await this.load(ref);
    if (node === null) return this.build(depth, this.puts(writes, lo, hi));
    switch (node.kind) {
      case 'leaf':
        return this.build(depth, this.withLeaf(node, depth, writes, lo, hi));
      case 'ext': {
        const p = node.path;
        if (startsWith(writes[lo]!.nibbles, p, depth) && startsWith(writes[hi - 1]!.nibbles, p, depth)) {
          // Sorted: the first and the last follow the path, so all of them do.
          return this.joinPath(p, await this.update(node.child, depth + p.length, writes, lo, hi));
        }
        // Some leave the path: split it at its first nibble and continue as a branch.
        const children: Ref[] = new Array(16).fill(null);
        children[p[0]!] = p.length > 1 ? { kind: 'ext', path: p.subarray(1), child: node.child } : node.child;
        return this.updateBranch(children, depth, writes, lo, hi);
      }
      case 'branch':
        return this.updateBranch(node.children.slice(), depth, writes, lo, hi);
    }
  }

  private async updateBranch(children: Ref[], depth: number, writes: readonly TrieWrite[], lo: number, hi: number): Promise<Ref> {
    if (depth >= this.keyLength) throw new UnsupportedTrieShape('a key ends at a branch');
    for (let i = lo; i < hi;) {
      const nibble = writes[i]!.nibbles[depth]!;
      let j = i + 1;
      while (j < hi && writes[j]!.nibbles[depth] === nibble) j++;
      children[nibble] = await this.update(children[nibble]!, depth + 1, writes, i, j);
      i = j;
    }
    let count = 0;
    let only = 0;
    for (let n = 0; n < 16; n++) {
      if (children[n] !== null) {
        count++;
        only = n;
      }
    }
    if (count === 0) return null;
    if (count > 1) return { kind: 'branch', children };
    // One child left: the branch becomes a path to it.
    return this.joinPath(Uint8Array.of(only), children[only]!);
  }

  /** `path` followed by `ref`, in canonical form (paths of extensions and leaves merged). */
  private async joinPath(path: Uint8Array, ref: Ref): Promise<Ref> {
    if (ref === null) return null;
    const child = await this.load(ref);
    if (child === null) return null;
    if (child.kind === 'leaf') return { kind: 'leaf', path: concat(path, child.path), value: child.value };
    if (child.kind === 'ext') return { kind: 'ext', path: concat(path, child.path), child: child.child };
    return { kind: 'ext', path, child: ref };
  }

  /** A new subtrie holding `puts` (sorted, distinct keys that agree on the first `depth` nibbles). */
  private build(depth: number, puts: readonly TrieWrite[]): Ref {
    if (puts.length === 0) return null;
    const first = puts[0]!.nibbles;
    if (puts.length === 1) return { kind: 'leaf', path: first.subarray(depth), value: puts[0]!.value! };
    const last = puts[puts.length - 1]!.nibbles;
    let common = depth;
    while (common < this.keyLength && first[common] === last[common]) common++;
    if (common === this.keyLength) throw new UnsupportedTrieShape('duplicate keys');
    const children: Ref[] = new Array(16).fill(null);
    for (let i = 0; i < puts.length;) {
      const nibble = puts[i]!.nibbles[common]!;
      let j = i + 1;
      while (j < puts.length && puts[j]!.nibbles[common] === nibble) j++;
      children[nibble] = this.build(common + 1, puts.slice(i, j));
      i = j;
    }
    const branch: Branch = { kind: 'branch', children };
    return common > depth ? { kind: 'ext', path: first.subarray(depth, common), child: branch } : branch;
  }

  private puts(writes: readonly TrieWrite[], lo: number, hi: number): TrieWrite[] {
    const out: TrieWrite[] = [];
    for (let i = lo; i < hi; i++) if (isPut(writes[i]!)) out.push(writes[i]!);
    return out;
  }

  /** writes[lo, hi) plus the existing leaf's entry (unless a write replaces it), puts only, sorted. */
  private withLeaf(leaf: Leaf, depth: number, writes: readonly TrieWrite[], lo: number, hi: number): TrieWrite[] {
    if (depth + leaf.path.length !== this.keyLength) throw new UnsupportedTrieShape('a leaf of another key length');
    const key = new Uint8Array(this.keyLength);
    key.set(writes[lo]!.nibbles.subarray(0, depth), 0);
    key.set(leaf.path, depth);
    const out: TrieWrite[] = [];
    let placed = false;
    for (let i = lo; i < hi; i++) {
      const w = writes[i]!;
      if (!placed) {
        const c = compareNibbles(key, w.nibbles);
        if (c < 0) {
          out.push({ nibbles: key, value: leaf.value });
          placed = true;
        } else if (c === 0) {
          placed = true; // replaced or deleted by this write
        }
      }
      if (isPut(w)) out.push(w);
    }
    if (!placed) out.push({ nibbles: key, value: leaf.value });
    return out;
  }

  private async load(ref: Ref): Promise<TrieNode | null> {
    if (ref === null || !(ref instanceof Uint8Array)) return ref;
    const bytes = await this.store.get(ref);
    if (bytes === undefined) throw new MissingTrieNode(ref);
    return decodeNode(rlpDecodeView(bytes));
  }

  /** Encodes and stores the root (always by hash); returns its hash. */
  commitRoot(ref: Ref): Uint8Array {
    if (ref instanceof Uint8Array) return ref;
    const encoded = rlpEncode(this.raw(ref!));
    return this.store_(encoded);
  }

  /** How a parent refers to `ref`: a hash, the embedded node (< 32 bytes encoded) or empty. */
  private refItem(ref: Ref): RlpItem {
    if (ref === null) return EMPTY;
    if (ref instanceof Uint8Array) return ref;
    const raw = this.raw(ref);
    const encoded = rlpEncode(raw);
    return encoded.length < 32 ? raw : this.store_(encoded);
  }

  private raw(node: TrieNode): RlpItem[] {
    switch (node.kind) {
      case 'branch': {
        const items: RlpItem[] = new Array(17);
        for (let n = 0; n < 16; n++) items[n] = this.refItem(node.children[n]!);
        items[16] = EMPTY;
        return items;
      }
      case 'ext':
        return [hexPrefix(node.path, false), this.refItem(node.child)];
      case 'leaf':
        return [hexPrefix(node.path, true), node.value];
    }
  }

  private store_(encoded: Uint8Array): Uint8Array {
    const hash = this.keccak(encoded);
    this.written.push({ key: hash, value: encoded });
    return hash;
  }
}

function decodeNode(raw: RlpItem): TrieNode {
  if (!Array.isArray(raw)) throw new UnsupportedTrieShape('a node that is not a list');
  if (raw.length === 17) {
    const value = raw[16];
    if (!(value instanceof Uint8Array) || value.length !== 0) throw new UnsupportedTrieShape('a branch with a value');
    const children: Ref[] = new Array(16);
    for (let n = 0; n < 16; n++) children[n] = decodeRef(raw[n]!);
    return { kind: 'branch', children };
  }
  if (raw.length !== 2 || !(raw[0] instanceof Uint8Array)) throw new UnsupportedTrieShape('a node of unknown shape');
  const { path, leaf } = decodeHexPrefix(raw[0]);
  if (leaf) {
    if (!(raw[1] instanceof Uint8Array)) throw new UnsupportedTrieShape('a leaf without a byte value');
    return { kind: 'leaf', path, value: raw[1] };
  }
  const child = decodeRef(raw[1]!);
  if (child === null) throw new UnsupportedTrieShape('an extension without a child');
  return { kind: 'ext', path, child };
}

function decodeRef(item: RlpItem): Ref {
  if (Array.isArray(item)) return decodeNode(item); // embedded
  const bytes = item as Uint8Array;
  if (bytes.length === 0) return null;
  if (bytes.length === 32) return bytes;
  throw new UnsupportedTrieShape('a child reference that is neither a hash nor a node');
}

/** Compact ("hex prefix") encoding of a path: flag nibble (leaf 2, odd 1), then the nibbles. */
function hexPrefix(path: Uint8Array, leaf: boolean): Uint8Array {
  const odd = path.length % 2;
  const out = new Uint8Array(1 + (path.length >> 1));
  const flag = (leaf ? 2 : 0) + odd;
  let i = 0;
  if (odd === 1) {
    out[0] = (flag << 4) | path[0]!;
    i = 1;
  } else {
    out[0] = flag << 4;
  }
  for (let b = 1; i < path.length; i += 2, b++) out[b] = (path[i]! << 4) | path[i + 1]!;
  return out;
}

function decodeHexPrefix(bytes: Uint8Array): { path: Uint8Array; leaf: boolean } {
  const flag = bytes[0]! >> 4;
  const odd = flag & 1;
  const path = new Uint8Array((bytes.length - 1) * 2 + odd);
  let i = 0;
  if (odd === 1) path[i++] = bytes[0]! & 0x0f;
  for (let b = 1; b < bytes.length; b++) {
    path[i++] = bytes[b]! >> 4;
    path[i++] = bytes[b]! & 0x0f;
  }
  return { path, leaf: (flag & 2) !== 0 };
}

function isPut(w: TrieWrite): boolean {
  return w.value !== undefined && w.value.length > 0; // an empty value deletes, as in MerklePatriciaTrie.put
}

function startsWith(key: Uint8Array, path: Uint8Array, at: number): boolean {
  for (let i = 0; i < path.length; i++) if (key[at + i] !== path[i]) return false;
  return true;
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a, 0);
  out.set(b, a.length);
  return out;
}

function bytesEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
