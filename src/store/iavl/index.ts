/**
 * A versioned IAVL tree (cosmos/iavl v1's hashing, shape and ICS-23 proofs): the store a Cosmos
 * SDK module commits to, whose root is one leaf of the app hash (../multistore.ts).
 *
 * - The working state (get/set/delete/iterate) is an in-memory tree; reads are synchronous.
 * - `commit()` saves it as version `version + 1` (or `initialVersion` for the first commit, as
 *   iavl's `InitialVersion`): hashes the new nodes, hands them, the version's root and the nodes
 *   it orphaned to the node db (into the caller's batch if one is given). A later version may be
 *   named: the skipped ones read as the last committed one (what iavl's commits without writes
 *   would give). Only versions that changed the tree are recorded; any other reads as the
 *   recorded one before it (a floor search).
 * - Versions share every node they have in common (copy-on-write), so a version costs its writes'
 *   paths. The last `recentInMemory` versions stay in memory; older ones are read from the node
 *   db on demand (`getAt`, proofs: async).
 * - Pruning: `keepRecent` > 0 keeps that many versions (deleting the nodes only older ones used);
 *   0 keeps every version.
 * - An empty tree's root is sha256 of nothing (iavl), also what the SDK's multistore commits to
 *   for an empty store.
 */
import { compareBytes } from '../../crypto/encoding.js';
import { IavlMissingNodeError, IavlProofError, IavlVersionError } from './errors.js';
import { encodeCommitmentProof } from './ics23-codec.js';
import { treeGet, treeIterate, treeRemove, treeSet } from './mutate.js';
import { EMPTY_ROOT, IavlNode, hashNode } from './node.js';
import { getIn, existenceProof, nonExistenceProof, type NodeLoader } from './proof.js';
import { loadVersion, type NodeBatch, type NodeDb, type PrunedVersion } from './node-db.js';

export { memoryNodeDb, levelNodeDb, writeOps, type NodeBatch, type NodeBatchOp, type NodeDb, type IavlSublevel } from './node-db.js';
export { EMPTY_ROOT } from './node.js';
export { IavlMissingNodeError, IavlProofError, IavlVersionError } from './errors.js';
export { encodeCommitmentProof, type CommitmentProof, type ExistenceProof, type NonExistenceProof, type InnerOp, type LeafOp } from './ics23-codec.js';

export interface IavlTree {
  /** Last committed version (0 = none). */
  readonly version: number;
  /** Oldest version still kept (0 = none). */
  readonly oldestVersion: number;
  /** Working (uncommitted) state. */
  get(key: Uint8Array): Uint8Array | undefined;
  set(key: Uint8Array, value: Uint8Array): void;
  delete(key: Uint8Array): void;
  /** Number of keys in the working state. */
  readonly size: number;
  /** Drops the uncommitted writes: the working state is the last committed version again. */
  discardChanges(): void;
  /** Root of the working state: its hash as if committed as `version` (default: the next version). */
  workingRoot(version?: number): Uint8Array;
  /**
   * Saves the working state as `version` (default: the next version; never below it). Skipped
   * versions read as the last committed one, as if committed without writes (iavl gives them
   * the same root): a chain that mines empty blocks in bulk commits only the next block with writes.
   */
  commit(batch?: NodeBatch, version?: number): { version: number; root: Uint8Array };
  /** Root of a kept version, undefined for a version not kept. */
  rootAt(version: number): Uint8Array | undefined;
  hasVersion(version: number): boolean;
  /** Value at `key` in a kept version (IavlVersionError for one not kept). */
  getAt(key: Uint8Array, version: number): Promise<Uint8Array | undefined>;
  /** Entries with start <= key < end of a kept version, in key order. */
  entriesAt(version: number, start?: Uint8Array, end?: Uint8Array): Promise<[Uint8Array, Uint8Array][]>;
  /** ICS-23 `CommitmentProof` bytes (exist) of a present key (IavlProofError if absent). */
  proveExistence(key: Uint8Array, version: number): Promise<Uint8Array>;
  /** ICS-23 `CommitmentProof` bytes (nonexist) of an absent key (IavlProofError if present). */
  proveAbsence(key: Uint8Array, version: number): Promise<Uint8Array>;
  /** The value at `key` and the proof of it, existence or absence (the SDK's `getProofFromTree`). */
  prove(key: Uint8Array, version: number): Promise<{ value: Uint8Array | undefined; proof: Uint8Array }>;
  /** Working state with start <= key < end, sorted. */
  iterate(start?: Uint8Array, end?: Uint8Array): Iterable<[Uint8Array, Uint8Array]>;
  /** Resolves once every commit made without a caller's batch is stored (rejects if one failed). */
  flush(): Promise<void>;
}

export interface IavlTreeOptions {
  /** Versions to keep; 0 (the default) keeps all. */
  keepRecent?: number;
  /** Version of the first commit of an empty db (iavl `InitialVersion`); default 1. */
  initialVersion?: number;
  /** Versions whose nodes stay in memory for historical reads; default 100. */
  recentInMemory?: number;
}

const DEFAULT_RECENT_IN_MEMORY = 100;

function checkCount(name: string, v: number | undefined, min: number): number | undefined {
  if (v === undefined) return undefined;
  if (!Number.isSafeInteger(v) || v < min) throw new RangeError(`iavl: ${name} must be an integer >= ${min}, got ${v}`);
  return v;
}

class Tree implements IavlTree {
  private working: IavlNode | undefined;
  /** Versions whose commit changed the tree, ascending; any other version reads as the one before it. */
  private readonly recorded: number[];
  /** The last committed version. */
  private latest: number;
  /** In-memory roots of the latest recorded versions, oldest first (the last one is `committed`). */
  private readonly recent = new Map<number, IavlNode | undefined>();
  /** Orphans of each recorded version, for pruning (kept only when `keepRecent` > 0). */
  private readonly orphanLists = new Map<number, readonly Uint8Array[]>();
  /** The version the working tree's new nodes were hashed as (`workingRoot`), if they were. */
  private hashedAs: number | undefined = undefined;
  private readonly keepRecent: number;
  private readonly recentInMemory: number;
  private readonly initialVersion: number;
  private readonly load: NodeLoader;

  constructor(
    private readonly db: NodeDb,
    opts: IavlTreeOptions,
    /** Recorded versions → root node hash (undefined: empty tree). */
    private readonly roots: Map<number, Uint8Array | undefined>,
    private committed: IavlNode | undefined,
    latest: number,
  ) {
    this.keepRecent = checkCount('keepRecent', opts.keepRecent, 0) ?? 0;
    this.recentInMemory = checkCount('recentInMemory', opts.recentInMemory, 1) ?? DEFAULT_RECENT_IN_MEMORY;
    this.initialVersion = checkCount('initialVersion', opts.initialVersion, 1) ?? 1;
    this.recorded = [...roots.keys()].sort((a, b) => a - b);
    this.latest = Math.max(latest, this.recorded[this.recorded.length - 1] ?? 0);
    this.working = committed;
    if (this.recorded.length > 0) this.recent.set(this.recorded[this.recorded.length - 1]!, committed);
    this.load = async (hash) => {
      const n = await db.getNode(hash);
      if (n === undefined) throw new IavlMissingNodeError(hash);
      return n;
    };
  }

  get version(): number {
    return this.latest;
  }

  get oldestVersion(): number {
    return this.recorded[0] ?? 0;
  }

  get size(): number {
    return this.working?.size ?? 0;
  }

  get(key: Uint8Array): Uint8Array | undefined {
    return treeGet(this.working, key);
  }

  set(key: Uint8Array, value: Uint8Array): void {
    if (key.length === 0) throw new RangeError('iavl: key is empty');
    this.working = treeSet(this.working, key, value).node;
  }

  delete(key: Uint8Array): void {
    this.working = treeRemove(this.working, key).node;
  }

  discardChanges(): void {
    this.working = this.committed;
    this.hashedAs = undefined;
  }

  /** The version a commit makes: `version` if given (not below the next one), else the next. */
  private target(version: number | undefined): number {
    const next = this.version === 0 ? this.initialVersion : this.version + 1;
    if (version === undefined) return next;
    if (!Number.isSafeInteger(version) || version < next) throw new RangeError(`iavl: cannot commit version ${version}: the next version is ${next}`);
    return version;
  }

  /** Hashes the working tree as created in `version`, first forgetting hashes made for another version. */
  private hashWorking(version: number): Uint8Array | undefined {
    const root = this.working;
    if (root === undefined) return undefined;
    if (this.hashedAs !== undefined && this.hashedAs !== version) {
      const stack: IavlNode[] = [root];
      while (stack.length > 0) {
        const n = stack.pop()!;
        if (n.saved) continue;
        n.hash = undefined;
        n.version = 0;
        if (!n.isLeaf) stack.push(n.left!, n.right!);
      }
    }
    this.hashedAs = version;
    return hashNode(root, version);
  }

  workingRoot(version?: number): Uint8Array {
    return this.hashWorking(this.target(version)) ?? EMPTY_ROOT;
  }

  commit(batch?: NodeBatch, version?: number): { version: number; root: Uint8Array } {
    const v = this.target(version);
    const root = this.working;
    const rootHash = this.hashWorking(v);

    // The new nodes, and the saved subtrees they keep from the last version.
    const fresh: IavlNode[] = [];
    const kept = new Set<IavlNode>();
    const stack: IavlNode[] = root === undefined ? [] : [root];
    while (stack.length > 0) {
      const n = stack.pop()!;
      if (n.saved) {
        kept.add(n);
        continue;
      }
      fresh.push(n);
      if (!n.isLeaf) stack.push(n.left!, n.right!);
    }
    this.latest = v;
    this.hashedAs = undefined;
    // Nothing new (the same root node): iavl saves the version with the same root; a version
    // without a record reads as the one before, so only the latest version is written.
    const changed = this.recorded.length === 0 || root !== this.committed;
    if (!changed) {
      this.db.write({ version: v, changed, root: rootHash, nodes: [], orphans: undefined }, batch);
      if (this.keepRecent > 0) this.db.prune(this.takePrunable(), batch);
      return { version: v, root: rootHash ?? EMPTY_ROOT };
    }
    const orphans = this.keepRecent > 0 || this.db.persistent ? this.orphansOf(kept) : undefined;
    for (const n of fresh) n.saved = true;
    this.db.write({ version: v, changed, root: rootHash, nodes: fresh, orphans }, batch);

    this.roots.set(v, rootHash);
    this.recorded.push(v);
    this.committed = root;
    this.recent.set(v, root);
    if (this.recent.size > this.recentInMemory) this.recent.delete(this.recent.keys().next().value!);
    if (this.keepRecent > 0) {
      this.orphanLists.set(v, orphans ?? []);
      this.db.prune(this.takePrunable(), batch);
    }
    return { version: v, root: rootHash ?? EMPTY_ROOT };
  }

  /** The last version's nodes that are not in `kept` subtrees: the ones this commit drops. */
  private orphansOf(kept: Set<IavlNode>): Uint8Array[] {
    const out: Uint8Array[] = [];
    const stack: IavlNode[] = this.committed === undefined ? [] : [this.committed];
    while (stack.length > 0) {
      const n = stack.pop()!;
      if (kept.has(n)) continue;
      out.push(n.hash!);
      if (!n.isLeaf) stack.push(n.left!, n.right!);
    }
    return out;
  }

  /**
   * Recorded versions whose every version (up to the next recorded one) is older than the
   * `keepRecent` newest, removed from the tree's own records.
   */
  private takePrunable(): PrunedVersion[] {
    const out: PrunedVersion[] = [];
    const last = this.version - this.keepRecent;
    while (this.recorded.length >= 2 && this.recorded[1]! - 1 <= last) {
      const v = this.recorded.shift()!;
      const next = this.recorded[0]!;
      out.push({ version: v, next, orphansOfNext: this.orphanLists.get(next) ?? [] });
      this.roots.delete(v);
      this.recent.delete(v);
      this.orphanLists.delete(v);
      this.orphanLists.delete(next);
    }
    return out;
  }

  /** Prunes what an earlier run with a larger `keepRecent` left; loads the orphan lists pruning will need. */
  async pruneOnOpen(): Promise<void> {
    if (this.keepRecent === 0 || this.version === 0) return;
    for (const v of this.recorded.slice(1)) this.orphanLists.set(v, await this.db.getOrphans(v));
    this.db.prune(this.takePrunable());
    await this.db.flush();
  }

  /** The recorded version `version` reads as, if it is kept. */
  private recordedFor(version: number): number | undefined {
    if (!Number.isSafeInteger(version) || version < this.oldestVersion || version > this.version || this.recorded.length === 0) return undefined;
    let lo = 0;
    let hi = this.recorded.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.recorded[mid]! <= version) lo = mid;
      else hi = mid - 1;
    }
    return this.recorded[lo];
  }

  rootAt(version: number): Uint8Array | undefined {
    const r = this.recordedFor(version);
    return r === undefined ? undefined : (this.roots.get(r) ?? EMPTY_ROOT);
  }

  hasVersion(version: number): boolean {
    return this.recordedFor(version) !== undefined;
  }

  private async rootNode(version: number): Promise<IavlNode | undefined> {
    const r = this.recordedFor(version);
    if (r === undefined) throw new IavlVersionError(version, this.version);
    if (this.recent.has(r)) return this.recent.get(r);
    const hash = this.roots.get(r);
    return hash === undefined ? undefined : this.load(hash);
  }

  async getAt(key: Uint8Array, version: number): Promise<Uint8Array | undefined> {
    return getIn(await this.rootNode(version), key, this.load);
  }

  async entriesAt(version: number, start?: Uint8Array, end?: Uint8Array): Promise<[Uint8Array, Uint8Array][]> {
    const root = await this.rootNode(version);
    const out: [Uint8Array, Uint8Array][] = [];
    if (root === undefined) return out;
    const stack: IavlNode[] = [root];
    while (stack.length > 0) {
      const n = stack.pop()!;
      if (n.isLeaf) {
        if ((start === undefined || compareBytes(n.key, start) >= 0) && (end === undefined || compareBytes(n.key, end) < 0)) out.push([n.key, n.value!]);
        continue;
      }
      if (end === undefined || compareBytes(n.key, end) < 0) stack.push(n.right ?? (await this.load(n.rightHash!)));
      if (start === undefined || compareBytes(start, n.key) < 0) stack.push(n.left ?? (await this.load(n.leftHash!)));
    }
    return out;
  }

  async proveExistence(key: Uint8Array, version: number): Promise<Uint8Array> {
    const exist = await existenceProof(await this.rootNode(version), key, this.load);
    if (exist === undefined) throw new IavlProofError(`iavl: cannot prove existence of an absent key at version ${version}`);
    return encodeCommitmentProof({ exist });
  }

  async proveAbsence(key: Uint8Array, version: number): Promise<Uint8Array> {
    const nonexist = await nonExistenceProof(await this.rootNode(version), key, this.load);
    if (nonexist === undefined) throw new IavlProofError(`iavl: cannot prove absence of a present key at version ${version}`);
    return encodeCommitmentProof({ nonexist });
  }

  async prove(key: Uint8Array, version: number): Promise<{ value: Uint8Array | undefined; proof: Uint8Array }> {
    const root = await this.rootNode(version);
    const value = await getIn(root, key, this.load);
    if (value !== undefined) {
      const exist = await existenceProof(root, key, this.load);
      return { value, proof: encodeCommitmentProof({ exist: exist! }) };
    }
    const nonexist = await nonExistenceProof(root, key, this.load);
    return { value, proof: encodeCommitmentProof({ nonexist: nonexist! }) };
  }

  iterate(start?: Uint8Array, end?: Uint8Array): Iterable<[Uint8Array, Uint8Array]> {
    return treeIterate(this.working, start, end);
  }

  flush(): Promise<void> {
    return this.db.flush();
  }
}

/** Opens the tree at the latest version in `db` (an empty tree at version 0 for an empty db). */
export async function openIavlTree(db: NodeDb, opts: IavlTreeOptions = {}): Promise<IavlTree> {
  const { roots, latest } = await db.loadRoots();
  let last = 0;
  for (const v of roots.keys()) last = Math.max(last, v);
  const rootHash = last > 0 ? roots.get(last) : undefined;
  const root = rootHash === undefined ? undefined : await loadVersion(db, rootHash);
  const tree = new Tree(db, opts, roots, root, latest);
  await tree.pruneOnOpen();
  return tree;
}
