/**
 * The IBC module's key-value state on a chain: ibc-go's host keys (clients, connections, channels,
 * sequences, packet commitments, receipts, acknowledgements), the transfer app's denoms and escrow
 * totals, and the bank balances of every denom but the chain's native one (vouchers).
 *
 * This is the store's read and write cache: checkpoints nest as the SDK's cache contexts do (a
 * failed message reverts what it wrote), and the app keeps a committed store and a working copy per
 * block: a fork over the committed store (O(1) to make, as the copy an eth_call runs on), merged
 * into a new committed store at Commit only when the block wrote IBC state. What the app hash
 * commits to and proofs are made from is the same entries as an IAVL tree (app-stores.ts): the
 * block's writes (`takeWrites`) go into it at FinalizeBlock.
 */

const utf8 = new TextEncoder();
const text = new TextDecoder();

export class IbcStore {
  /** This store's entries over `base`'s: a value, or undefined for a key this store deleted. */
  private readonly own: Map<string, Uint8Array | undefined>;
  private count: number;
  /** Per open checkpoint: each key's entry in `own` before its first write under the checkpoint. */
  private stack: Map<string, { had: boolean; value: Uint8Array | undefined }>[] = [];
  /** Keys written since the store was made or last `takeWrites()` (for persistence). */
  private written = new Set<string>();
  /** Set once a fork reads through this store: from then on it must not change. */
  private forked = false;

  /** A store holding `entries`; with `base`, a fork: `entries` start empty and reads fall through. */
  constructor(
    entries: Map<string, Uint8Array> = new Map(),
    private readonly base?: IbcStore,
  ) {
    this.own = entries;
    this.count = (base?.size ?? 0) + entries.size;
  }

  get size(): number {
    return this.count;
  }

  get(key: string): Uint8Array | undefined {
    const v = this.own.get(key);
    if (v !== undefined || this.base === undefined || this.own.has(key)) return v;
    return this.base.get(key);
  }

  getText(key: string): string | undefined {
    const v = this.get(key);
    return v === undefined ? undefined : text.decode(v);
  }

  getJson<T>(key: string): T | undefined {
    const t = this.getText(key);
    return t === undefined ? undefined : (JSON.parse(t) as T);
  }

  has(key: string): boolean {
    return this.get(key) !== undefined;
  }

  set(key: string, value: Uint8Array | string): void {
    this.write(key, typeof value === 'string' ? utf8.encode(value) : value);
  }

  setJson(key: string, value: unknown): void {
    this.set(key, JSON.stringify(value));
  }

  delete(key: string): void {
    if (this.has(key)) this.write(key, undefined);
  }

  /** Entries whose key starts with `prefix`, in key order. */
  entries(prefix: string): [string, Uint8Array][] {
    const out: [string, Uint8Array][] = [];
    for (const [k, v] of this.all()) if (k.startsWith(prefix)) out.push([k, v]);
    return out.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  }

  checkpoint(): void {
    this.stack.push(new Map());
  }

  commit(): void {
    const top = this.stack.pop();
    const below = this.stack[this.stack.length - 1];
    if (top && below) for (const [k, v] of top) if (!below.has(k)) below.set(k, v);
  }

  revert(): void {
    const top = this.stack.pop();
    if (!top) return;
    for (const [k, { had, value }] of top) {
      const existed = this.has(k);
      if (had) this.own.set(k, value);
      else this.own.delete(k);
      this.count += (this.has(k) ? 1 : 0) - (existed ? 1 : 0);
    }
  }

  /**
   * A working copy in O(1): a fork that reads through this store and keeps its own writes. This
   * store must not change while forks of it are in use (a committed store never does).
   */
  copy(): IbcStore {
    this.forked = true;
    return new IbcStore(new Map(), this);
  }

  /**
   * This store as a standalone one, to become the committed store: the base itself when this fork
   * wrote nothing, else one map of the merged entries (O(entries), only on blocks that wrote IBC state).
   */
  flatten(): IbcStore {
    if (this.base === undefined) return this;
    if (this.own.size === 0) return this.base.flatten();
    return new IbcStore(new Map(this.all()));
  }

  /** The keys written since the last call, with their current values (undefined: deleted). */
  takeWrites(): [string, Uint8Array | undefined][] {
    const out = [...this.written].sort().map((k): [string, Uint8Array | undefined] => [k, this.get(k)]);
    this.written.clear();
    return out;
  }

  /** Every entry (this store's over its base's), unordered. */
  private *all(): Generator<[string, Uint8Array]> {
    if (this.base !== undefined) for (const e of this.base.all()) if (!this.own.has(e[0])) yield e;
    for (const [k, v] of this.own) if (v !== undefined) yield [k, v];
  }

  private write(key: string, value: Uint8Array | undefined): void {
    if (this.forked) throw new Error(`IbcStore: ${key} written in a store that was forked (a committed store is read only)`);
    this.written.add(key);
    const top = this.stack[this.stack.length - 1];
    if (top && !top.has(key)) top.set(key, { had: this.own.has(key), value: this.own.get(key) });
    const existed = this.has(key);
    if (value === undefined && this.base === undefined) this.own.delete(key);
    else this.own.set(key, value);
    this.count += (value !== undefined ? 1 : 0) - (existed ? 1 : 0);
  }
}
