/**
 * The IBC module's key-value state on a chain: ibc-go's host keys (clients, connections, channels,
 * sequences, packet commitments, receipts, acknowledgements), the transfer app's denoms and escrow
 * totals, and the bank balances of every denom but the chain's native one (vouchers).
 *
 * A sorted-key SHA-256 root commits to every entry (a named simplification: not an IAVL root, and
 * no membership proofs are made from it). Checkpoints nest as the SDK's cache contexts do: a failed
 * message reverts what it wrote. The app keeps a committed store and a working copy per block.
 */
import { createHash } from 'node:crypto';

const utf8 = new TextEncoder();
const text = new TextDecoder();

export class IbcStore {
  private stack: Map<string, Uint8Array | undefined>[] = [];
  private cachedRoot: Uint8Array | undefined;
  /** Keys written since the store was made or last `takeWrites()` (for persistence). */
  private written = new Set<string>();

  constructor(private map: Map<string, Uint8Array> = new Map()) {}

  get size(): number {
    return this.map.size;
  }

  get(key: string): Uint8Array | undefined {
    return this.map.get(key);
  }

  getText(key: string): string | undefined {
    const v = this.map.get(key);
    return v === undefined ? undefined : text.decode(v);
  }

  getJson<T>(key: string): T | undefined {
    const t = this.getText(key);
    return t === undefined ? undefined : (JSON.parse(t) as T);
  }

  has(key: string): boolean {
    return this.map.has(key);
  }

  set(key: string, value: Uint8Array | string): void {
    this.record(key);
    this.map.set(key, typeof value === 'string' ? utf8.encode(value) : value);
  }

  setJson(key: string, value: unknown): void {
    this.set(key, JSON.stringify(value));
  }

  delete(key: string): void {
    if (!this.map.has(key)) return;
    this.record(key);
    this.map.delete(key);
  }

  /** Entries whose key starts with `prefix`, in key order. */
  entries(prefix: string): [string, Uint8Array][] {
    const out: [string, Uint8Array][] = [];
    for (const [k, v] of this.map) if (k.startsWith(prefix)) out.push([k, v]);
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
    for (const [k, v] of top) {
      if (v === undefined) this.map.delete(k);
      else this.map.set(k, v);
    }
    this.cachedRoot = undefined;
  }

  copy(): IbcStore {
    const c = new IbcStore(new Map(this.map));
    // Same entries, same root: a block that writes nothing to IBC does not rehash the store.
    c.cachedRoot = this.cachedRoot;
    return c;
  }

  /** The keys written since the last call, with their current values (undefined: deleted). */
  takeWrites(): [string, Uint8Array | undefined][] {
    const out = [...this.written].sort().map((k): [string, Uint8Array | undefined] => [k, this.map.get(k)]);
    this.written.clear();
    return out;
  }

  /** SHA-256 over the sorted entries; empty when the store is empty (the app hash is then unchanged). */
  root(): Uint8Array {
    if (this.map.size === 0) return new Uint8Array(0);
    if (this.cachedRoot) return this.cachedRoot;
    const h = createHash('sha256');
    for (const k of [...this.map.keys()].sort()) {
      const v = this.map.get(k)!;
      const kb = utf8.encode(k);
      h.update(lenPrefix(kb.length)).update(kb).update(lenPrefix(v.length)).update(v);
    }
    this.cachedRoot = h.digest();
    return this.cachedRoot;
  }

  private record(key: string): void {
    this.cachedRoot = undefined;
    this.written.add(key);
    const top = this.stack[this.stack.length - 1];
    if (top && !top.has(key)) top.set(key, this.map.get(key));
  }
}

function lenPrefix(n: number): Uint8Array {
  const b = new Uint8Array(4);
  new DataView(b.buffer).setUint32(0, n);
  return b;
}

/** An app hash that commits to the app's own state and, once it has any, the IBC store. */
export function appHashWithIbc(appRoot: Uint8Array, ibcRoot: Uint8Array): Uint8Array {
  if (ibcRoot.length === 0) return appRoot;
  return createHash('sha256').update(appRoot).update(ibcRoot).digest();
}
