/**
 * The ethereumjs `DB` that every state trie of the app (live, check-state, historical copies and
 * storage tries) reads and writes, over an abstract-level sublevel.
 *
 *   MPT ──put──> pending (Map) ──takePending()──> the app's Commit batch (one atomic write)
 *   MPT ──get──> pending → node cache → level
 *
 * Keys are trie node hashes or `c`+code hashes, so values never change for a key: nodes are kept
 * forever (no pruning; `del` is ignored) and historical roots stay readable, and one shared read
 * cache is safe for every trie. Writes stay in memory until the app's Commit, so a crash between
 * blocks leaves the db at the last committed state.
 *
 * A trie `put` writes every intermediate version of the nodes on its path (the account trie is
 * updated in one pass instead, live-state.ts, but storage tries and other state managers are not).
 * `takeReachable` keeps only the pending nodes reachable from the block's state root (descending
 * into storage tries through the account leaves) and drops the rest.
 *
 * The read cache holds the nodes read or committed last (the trie's upper levels, the accounts and
 * slots in use), at most `cacheSize` of them: a node costs its hex key (~110 bytes with its map
 * entry) besides its bytes, which an in-memory store holds anyway and a LevelDB store copies out
 * (~350 bytes more). Older nodes are read from the level again.
 */
import type { AbstractSublevel } from 'abstract-level';
import type { BatchDBOp, DB } from '@ethereumjs/util';

/** A sublevel with Uint8Array keys and values (`keyEncoding`/`valueEncoding` 'view'). */
export type BytesSublevel = AbstractSublevel<unknown, string | Uint8Array | Buffer, Uint8Array, Uint8Array>;

/** Nodes the read cache keeps by default (`[evm] trie-cache-size`). */
export const DEFAULT_TRIE_CACHE_NODES = 16_384;

export interface TrieDbOpts {
  /** Most nodes the read cache keeps (0 or less: none), in two generations of half as many each. */
  cacheSize?: number;
}

export class LevelTrieDB implements DB<string, Uint8Array> {
  private pending = new Map<string, Uint8Array>();
  private cacheNew = new Map<string, Uint8Array>();
  private cacheOld = new Map<string, Uint8Array>();
  /** Entries a generation holds before it becomes the old one. */
  private readonly generationSize: number;

  constructor(
    readonly level: BytesSublevel,
    opts: TrieDbOpts = {},
  ) {
    this.generationSize = Math.max(0, Math.floor((opts.cacheSize ?? DEFAULT_TRIE_CACHE_NODES) / 2));
  }

  async get(key: string): Promise<Uint8Array | undefined> {
    const p = this.pending.get(key) ?? this.cacheNew.get(key);
    if (p !== undefined) return p;
    const old = this.cacheOld.get(key);
    if (old !== undefined) {
      this.remember(key, old);
      return old;
    }
    const stored = await this.level.get(Buffer.from(key, 'hex'));
    if (stored === undefined) return undefined;
    const value = new Uint8Array(stored.buffer, stored.byteOffset, stored.byteLength);
    this.remember(key, value);
    return value;
  }

  async put(key: string, value: Uint8Array): Promise<void> {
    this.pending.set(key, value);
  }

  /** Ignored: nodes are content-addressed and kept so that historical state stays readable. */
  async del(_key: string): Promise<void> {}

  async batch(ops: BatchDBOp<string, Uint8Array>[]): Promise<void> {
    for (const op of ops) if (op.type === 'put') this.pending.set(op.key, op.value);
  }

  /** Every trie shares this instance (and its pending writes and cache). */
  shallowCopy(): DB<string, Uint8Array> {
    return this;
  }

  async open(): Promise<void> {}

  get pendingCount(): number {
    return this.pending.size;
  }

  /** Nodes in the read cache. */
  get cachedCount(): number {
    return this.cacheNew.size + this.cacheOld.size;
  }

  /**
   * Hands the pending writes reachable from `stateRoot` (and all pending contract code) over to the
   * caller's batch, moves them into the read cache and forgets the unreachable ones. The caller must
   * write the returned ops (they are no longer pending here).
   */
  takeReachable(stateRoot: Uint8Array): { key: Uint8Array; value: Uint8Array }[] {
    const pending = this.pending;
    this.pending = new Map();
    const ops: { key: Uint8Array; value: Uint8Array }[] = [];
    const keep = (key: string, value: Uint8Array) => {
      ops.push({ key: Buffer.from(key, 'hex'), value });
      this.remember(key, value);
    };
    // Most child references point at committed nodes: test them by a 48-bit prefix (a number key,
    // no hex string per reference) before building the full hex key.
    const prefixes = new Set<number>();
    for (const [key, value] of pending) {
      if (key.length !== 64)
        keep(key, value); // code: 'c' ‖ hash
      else prefixes.add(parseInt(key.slice(0, 12), 16));
    }
    const walk = (ref: Uint8Array, accounts: boolean) => {
      const o = ref.byteOffset;
      const b = ref.buffer as ArrayBuffer;
      const prefix = ref[0]! * 2 ** 40 + ref[1]! * 2 ** 32 + ((ref[2]! << 24) >>> 0) + (ref[3]! << 16) + (ref[4]! << 8) + ref[5]!;
      if (!prefixes.has(prefix)) return; // committed earlier (or the empty trie): its subtree is stored
      const key = Buffer.from(b, o, 32).toString('hex');
      const value = pending.get(key);
      if (value === undefined) return;
      pending.delete(key); // visit once
      keep(key, value);
      visitNode(value, accounts, walk);
    };
    walk(stateRoot, true);
    return ops;
  }

  /** Puts writes back after a failed batch so that the next commit retries them. */
  restorePending(ops: { key: Uint8Array; value: Uint8Array }[]): void {
    for (const op of ops) this.pending.set(Buffer.from(op.key).toString('hex'), op.value);
  }

  private remember(key: string, value: Uint8Array): void {
    if (this.generationSize === 0) return;
    this.cacheNew.set(key, value);
    if (this.cacheNew.size >= this.generationSize) {
      this.cacheOld = this.cacheNew;
      this.cacheNew = new Map();
    }
  }
}

/** Where an RLP item's payload lies: [start, end), and whether it is a list. */
interface RlpSpan {
  start: number;
  end: number;
  list: boolean;
}

/** The items of the RLP list whose payload is b[start, end), read in place (no copies). */
function listItems(b: Uint8Array, start: number, end: number): RlpSpan[] {
  const out: RlpSpan[] = [];
  let pos = start;
  while (pos < end) {
    const span = itemAt(b, pos);
    out.push(span);
    pos = span.end;
  }
  return out;
}

function itemAt(b: Uint8Array, pos: number): RlpSpan {
  const p = b[pos]!;
  if (p < 0x80) return { start: pos, end: pos + 1, list: false };
  if (p <= 0xb7) return { start: pos + 1, end: pos + 1 + (p - 0x80), list: false };
  if (p < 0xc0) return long(b, pos, p - 0xb7, false);
  if (p <= 0xf7) return { start: pos + 1, end: pos + 1 + (p - 0xc0), list: true };
  return long(b, pos, p - 0xf7, true);
}

function long(b: Uint8Array, pos: number, lenOfLen: number, list: boolean): RlpSpan {
  let len = 0;
  for (let i = 1; i <= lenOfLen; i++) len = len * 256 + b[pos + i]!;
  const start = pos + 1 + lenOfLen;
  return { start, end: start + len, list };
}

type Walk = (ref: Uint8Array, accounts: boolean) => void;

/** Calls `walk` for every hashed child of a trie node, and for the storage root of an account leaf. */
function visitNode(node: Uint8Array, accounts: boolean, walk: Walk): void {
  const top = itemAt(node, 0);
  if (top.list) visitList(node, top.start, top.end, accounts, walk);
}

function visitList(b: Uint8Array, start: number, end: number, accounts: boolean, walk: Walk): void {
  if (visitBranchFast(b, start, end, accounts, walk)) return;
  const items = listItems(b, start, end);
  if (items.length === 17) {
    for (let i = 0; i < 16; i++) visitChild(b, items[i]!, accounts, walk);
    return;
  }
  if (items.length !== 2) return;
  const path = items[0]!;
  const isLeaf = path.end > path.start && b[path.start]! >> 4 >= 2;
  if (!isLeaf) {
    visitChild(b, items[1]!, accounts, walk);
  } else if (accounts && !items[1]!.list) {
    // Account leaf: the value is RLP([nonce, balance, storageRoot, codeHash]).
    const value = items[1]!;
    const account = itemAt(b, value.start);
    if (!account.list) return;
    const fields = listItems(b, account.start, account.end);
    const root = fields[2];
    if (root !== undefined && !root.list && root.end - root.start === 32) walk(b.subarray(root.start, root.end), false);
  }
}

/**
 * The common case, a branch whose 16 children are all hashes (0xa0 ‖ 32 bytes) or empty (0x80) and
 * whose value is empty, walked without allocating; false (nothing visited) for any other node.
 */
function visitBranchFast(b: Uint8Array, start: number, end: number, accounts: boolean, walk: Walk): boolean {
  let pos = start;
  for (let i = 0; i < 16; i++) {
    const p = b[pos];
    if (p === 0x80) pos += 1;
    else if (p === 0xa0) pos += 33;
    else return false;
  }
  if (pos !== end - 1 || b[pos] !== 0x80) return false;
  for (pos = start; pos < end - 1; pos++) {
    if (b[pos] === 0xa0) {
      walk(b.subarray(pos + 1, pos + 33), accounts);
      pos += 32;
    }
  }
  return true;
}

function visitChild(b: Uint8Array, child: RlpSpan, accounts: boolean, walk: Walk): void {
  if (child.list) {
    if (child.end > child.start) visitList(b, child.start, child.end, accounts, walk); // embedded node (< 32 bytes)
  } else if (child.end - child.start === 32) {
    walk(b.subarray(child.start, child.end), accounts);
  }
}
