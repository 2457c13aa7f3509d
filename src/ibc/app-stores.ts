/**
 * A Cosmos-side app's commit multistore, as the SDK's rootmulti keeps it: named IAVL stores (the
 * IBC store, the hub's bank and accounts), plus stores whose root the app gives (the EVM chain's
 * `evm`: the Ethereum state root, as Cosmos EVM commits its EVM store). The app hash is the commit
 * info root over every store's root. Tree versions count commits; a height index maps each height to its version.
 *
 *   workingHash(given)          the app hash of the working state (FinalizeBlock)
 *   commit(height, batch)       every tree saves its next version for block `height` (Commit),
 *                               nodes and the height → version record into the app's batch
 *   query(store, key, h, prove) the value at committed height h, and with `prove` the ProofOps
 *                               `ics23:iavl` (key in its store) then `ics23:simple` (store in the
 *                               app hash): what `abci_query` answers on `/store/<store>/key`
 *
 * A FinalizeBlock that is not followed by its Commit (an abandoned round) leaves writes in the
 * working trees: `resetWorking` drops them.
 */
import { EMPTY_ROOT, openIavlTree, type IavlSublevel, type IavlTree, type NodeBatch, type NodeDb } from '../store/iavl/index.js';
import { commitInfoRoot, proofOps, proveStoreRoot } from '../store/multistore.js';
import type { ProofOp, RequestQuery, ResponseQuery } from '../abci/types.js';
import { bytesEqual } from '../crypto/encoding.js';
import { IBC_STORE_KEY } from './keys.js';

const utf8 = new TextEncoder();

export interface StoreQueryResult {
  value: Uint8Array | undefined;
  proofOps: ProofOp[] | null;
}

/** A tree read by block height instead of tree version. */
export interface HeightVersionedTree {
  hasVersion(height: number): boolean;
  getAt(key: Uint8Array, height: number): Promise<Uint8Array | undefined>;
  entriesAt(height: number, start?: Uint8Array, end?: Uint8Array): Promise<[Uint8Array, Uint8Array][]>;
}

export class StoreQueryError extends Error {
  override name = 'StoreQueryError';
}

export class AppStores {
  /**
   * Runs of consecutive commits: from `height`, version `version`, one version per height, until
   * the next run (a height with no commit of its own, as a devnet's mined empty blocks, starts the
   * next run later). Few: only such gaps add one. Kept whole in memory, so a height's version is a
   * synchronous lookup.
   */
  private readonly runs: { height: number; version: number }[] = [];

  private constructor(
    private readonly trees: Map<string, IavlTree>,
    /** u64be height → u64be version: where each run of commits starts. */
    private readonly heights: IavlSublevel,
    /** The given (non-tree) stores' roots at a committed height (the EVM state root). */
    private readonly givenRootsAt: (height: number) => Promise<ReadonlyMap<string, Uint8Array> | undefined>,
  ) {}

  /**
   * Opens each named tree at its latest version; `heights` records which tree version each
   * committed height has (heights with no commit of their own, such as a devnet's mined empty
   * blocks, read the version before them), as the starts of runs of consecutive commits.
   */
  static async open(
    dbs: ReadonlyMap<string, NodeDb>,
    heights: IavlSublevel,
    givenRootsAt: (height: number) => Promise<ReadonlyMap<string, Uint8Array> | undefined> = async () => new Map(),
    opts: { keepRecent?: number } = {},
  ): Promise<AppStores> {
    const trees = new Map<string, IavlTree>();
    for (const [name, db] of dbs) trees.set(name, await openIavlTree(db, opts));
    const stores = new AppStores(trees, heights, givenRootsAt);
    for await (const [k, v] of heights.iterator({ keyEncoding: 'view', valueEncoding: 'view' } as never) as AsyncIterable<[Uint8Array, Uint8Array]>)
      stores.runs.push({ height: readU64(k), version: readU64(v) });
    return stores;
  }

  tree(name: string): IavlTree {
    const t = this.trees.get(name);
    if (t === undefined) throw new Error(`no store ${name}`);
    return t;
  }

  /** Writes `entries` (undefined: delete; a text key as its UTF-8 bytes) into store `name`'s working tree. */
  apply(name: string, entries: Iterable<[string | Uint8Array, Uint8Array | undefined]>): void {
    const t = this.tree(name);
    for (const [k, v] of entries) {
      const key = typeof k === 'string' ? utf8.encode(k) : k;
      // A key written and then reverted (a failed message) holds its old value: not a write, as in the SDK's cache store.
      const now = t.get(key);
      if (v === undefined ? now === undefined : now !== undefined && bytesEqual(now, v)) continue;
      if (v === undefined) t.delete(key);
      else t.set(key, v);
    }
  }

  /** Drops every uncommitted write (an abandoned FinalizeBlock, or a devnet move of the head). */
  resetWorking(): void {
    for (const t of this.trees.values()) t.discardChanges();
  }

  /** The working roots of the trees with the given ones. */
  private workingRoots(given: ReadonlyMap<string, Uint8Array>): Map<string, Uint8Array> {
    const roots = new Map(given);
    for (const [name, t] of this.trees) roots.set(name, t.workingRoot());
    return roots;
  }

  /** The app hash of the working state: the commit info root over every store. */
  workingHash(given: ReadonlyMap<string, Uint8Array> = new Map()): Uint8Array {
    return commitInfoRoot(this.workingRoots(given));
  }

  /**
   * Saves every tree as its next version, for block `height`, the nodes and the height's record
   * into `batch`. Trees that never held anything are not committed (an EVM chain IBC never reached
   * writes nothing here).
   */
  commit(height: number, batch: NodeBatch): void {
    const trees = [...this.trees.values()];
    if (this.runs.length === 0 && trees.every((t) => t.version === 0 && t.size === 0)) return;
    let version = 0;
    for (const t of trees) version = Math.max(version, t.commit(batch).version);
    const run = this.runs[this.runs.length - 1];
    if (run !== undefined && height - run.height === version - run.version) return; // the run goes on
    this.runs.push({ height, version });
    batch.push({ type: 'put', sublevel: this.heights, key: u64(height), value: u64(version), keyEncoding: 'view', valueEncoding: 'view' });
  }

  /** The trees' version at committed `height` (undefined: none committed by then). */
  versionAt(height: number): number | undefined {
    const runs = this.runs;
    let lo = 0;
    let hi = runs.length - 1;
    let at = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (runs[mid]!.height <= height) {
        at = mid;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    if (at < 0) return undefined;
    const run = runs[at]!;
    const end = at + 1 < runs.length ? runs[at + 1]!.version - 1 : this.latestVersion();
    return Math.min(run.version + (height - run.height), end);
  }

  private latestVersion(): number {
    let v = 0;
    for (const t of this.trees.values()) v = Math.max(v, t.version);
    return v;
  }

  /**
   * Store `name` as a tree versioned by height (what the IBC gRPC queries read at a past height):
   * a height before the store's first commit reads as an empty store.
   */
  byHeight(name: string): HeightVersionedTree {
    const t = this.tree(name);
    return {
      hasVersion: (h) => {
        const v = this.versionAt(h);
        return v === undefined || t.hasVersion(v);
      },
      getAt: async (key, h) => {
        const v = this.versionAt(h);
        return v === undefined ? undefined : t.getAt(key, v);
      },
      entriesAt: async (h, start, end) => {
        const v = this.versionAt(h);
        return v === undefined ? [] : t.entriesAt(v, start, end);
      },
    };
  }

  /** Every store's root at committed `height`; undefined when one is not kept. */
  async rootsAt(height: number): Promise<Map<string, Uint8Array> | undefined> {
    const given = await this.givenRootsAt(height);
    if (given === undefined) return undefined;
    const version = this.versionAt(height);
    const roots = new Map(given);
    for (const [name, t] of this.trees) {
      const r = version === undefined ? EMPTY_ROOT : t.rootAt(version);
      if (r === undefined) return undefined;
      roots.set(name, r);
    }
    return roots;
  }

  /** The value of `key` in store `name` at committed `height`, with its proof when `prove`. */
  async query(name: string, key: Uint8Array, height: number, prove: boolean): Promise<StoreQueryResult> {
    const t = this.trees.get(name);
    if (t === undefined) throw new StoreQueryError(`no such store: ${name}`);
    const version = this.versionAt(height);
    if (version === undefined || !t.hasVersion(version)) throw new StoreQueryError(`version does not exist: ${height}`);
    if (!prove) return { value: await t.getAt(key, version), proofOps: null };
    const roots = await this.rootsAt(height);
    if (roots === undefined) throw new StoreQueryError(`version does not exist: ${height}`);
    const { value, proof } = await t.prove(key, version);
    return { value, proofOps: proofOps(proof, key, name, proveStoreRoot(roots, name)) };
  }
}

function u64(n: number): Uint8Array {
  const b = new Uint8Array(8);
  new DataView(b.buffer).setBigUint64(0, BigInt(n));
  return b;
}

function readU64(b: Uint8Array): number {
  return Number(new DataView(b.buffer, b.byteOffset, 8).getBigUint64(0));
}

/**
 * ABCI Query of `/store/<name>/key` (data = the key), as the SDK's baseapp answers it: the value at
 * `height` (0: the latest), the key echoed, ProofOps when `prove` (not below height 2, as the SDK).
 */
export async function queryStore(stores: AppStores, req: RequestQuery, latest: number): Promise<ResponseQuery> {
  const height = req.height === 0 ? latest : req.height;
  const fail = (code: number, log: string): ResponseQuery => ({
    code,
    log,
    info: '',
    index: 0,
    key: null,
    value: null,
    proofOps: null,
    height,
    codespace: 'sdk',
  });
  const m = /^\/store\/([^/]+)\/key$/.exec(req.path);
  if (!m) return fail(6, `unknown query path: ${req.path}: unknown request`);
  if (req.height < 0 || height > latest) return fail(26, 'cannot query with height in the future; please provide a valid height: invalid height');
  if (req.prove && height <= 1) return fail(18, 'cannot query with proof when height <= 1; please provide a valid height: invalid request');
  try {
    const r = await stores.query(m[1]!, req.data, height, req.prove);
    return { code: 0, log: '', info: '', index: 0, key: req.data, value: r.value ?? null, proofOps: r.proofOps, height, codespace: '' };
  } catch (e) {
    if (e instanceof StoreQueryError)
      return fail(
        e.message.startsWith('no such store') ? 6 : 26,
        `${e.message}: ${e.message.startsWith('no such store') ? 'unknown request' : 'invalid height'}`,
      );
    throw e;
  }
}

/** The EVM chain's multistore names: `evm` (the Ethereum state root, as Cosmos EVM commits it) and `ibc`. */
export const EVM_STORE = 'evm';

/**
 * The EVM chain's app hash, as Cosmos EVM commits it: the commit info root over `evm` (the
 * Ethereum state root as that store's value) and `ibc` (the IBC tree's root; an IBC store nothing
 * was written to has the empty tree's root), from genesis on.
 */
export function evmAppHash(stateRoot: Uint8Array, ibcRoot: Uint8Array | undefined): Uint8Array {
  return commitInfoRoot(
    new Map([
      [EVM_STORE, stateRoot],
      [IBC_STORE_KEY, ibcRoot === undefined || ibcRoot.length === 0 ? EMPTY_ROOT : ibcRoot],
    ]),
  );
}
