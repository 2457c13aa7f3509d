/**
 * The x/auth side of an account that the EVM state does not hold: its account number and, once it
 * has signed a Cosmos tx, its public key. The balance and the sequence are the EVM account's balance
 * and nonce (one account, two faces, as on Cosmos EVM).
 *
 * Numbers are given in order of first appearance: the genesis accounts in genesis order, then at each
 * Commit the accounts the block wrote (sorted by address), and an account that a query names before
 * any block wrote it (a devnet state edit) gets the next number at once. Entries live in the app's
 * `auth/` sublevel and are written with the block that made them. They are not part of the app hash
 * (a named simplification: the app hash is the EVM state root).
 */
import type { AbstractSublevel } from 'abstract-level';
import { createHash } from 'node:crypto';

/** The fee collector module account's address (the first 20 bytes of sha256("fee_collector")), numbered at genesis. */
export const FEE_COLLECTOR = createHash('sha256').update('fee_collector').digest().subarray(0, 20);

export type PubKeyType = 'secp256k1' | 'eth_secp256k1';

export interface StoredPubKey {
  type: PubKeyType;
  /** 33-byte compressed key. */
  key: Uint8Array;
}

export interface AuthEntry {
  accountNumber: bigint;
  pubKey?: StoredPubKey;
}

type TextSublevel = AbstractSublevel<unknown, string | Uint8Array | Buffer, string, string>;

const NEXT_KEY = '#next';

interface StoredEntry {
  n: string;
  t?: PubKeyType;
  k?: string;
}

export class AuthRegistry {
  private readonly cache = new Map<string, AuthEntry>();
  private next: bigint | undefined;
  /** Entries made or changed since the last `takeWrites` (hex address → entry). */
  private readonly dirty = new Map<string, AuthEntry>();

  constructor(private readonly db: TextSublevel) {}

  /** The entry of `addrHex` (lower-case, no 0x); with `create`, a new number for an unknown one. */
  async get(addrHex: string, create = false): Promise<AuthEntry | undefined> {
    const hit = this.cache.get(addrHex) ?? (await this.load(addrHex));
    if (hit !== undefined || !create) return hit;
    return this.assign(addrHex);
  }

  /** Numbers the accounts a block (or the genesis) wrote, in the order given (one multi-get for those not cached). */
  async numberAll(addrHexes: Iterable<string>): Promise<void> {
    const list = [...addrHexes];
    const missing = list.filter((a) => !this.cache.has(a));
    if (missing.length > 0) {
      const values = await this.db.getMany(missing);
      missing.forEach((a, i) => {
        const v = values[i];
        if (v !== undefined) this.cache.set(a, decode(v));
      });
    }
    for (const a of list) if (!this.cache.has(a)) await this.assign(a);
  }

  async setPubKey(addrHex: string, pubKey: StoredPubKey): Promise<void> {
    const e = (await this.get(addrHex, true))!;
    if (e.pubKey !== undefined) return;
    const updated = { ...e, pubKey };
    this.cache.set(addrHex, updated);
    this.dirty.set(addrHex, updated);
  }

  /** The writes for the commit batch (then forgotten here). */
  takeWrites(): { key: string; value: string }[] {
    const out: { key: string; value: string }[] = [];
    for (const [addr, e] of this.dirty) {
      const v: StoredEntry = { n: e.accountNumber.toString() };
      if (e.pubKey) {
        v.t = e.pubKey.type;
        v.k = Buffer.from(e.pubKey.key).toString('hex');
      }
      out.push({ key: addr, value: JSON.stringify(v) });
    }
    if (this.dirty.size > 0 && this.next !== undefined) out.push({ key: NEXT_KEY, value: this.next.toString() });
    this.dirty.clear();
    return out;
  }

  get sublevel(): TextSublevel {
    return this.db;
  }

  /** Forgets what is cached (the db was rewritten underneath: devnet revert or state load). */
  reset(): void {
    this.cache.clear();
    this.dirty.clear();
    this.next = undefined;
  }

  /** Every numbered account, in number order (auth Accounts). */
  async all(): Promise<{ addrHex: string; entry: AuthEntry }[]> {
    const out = new Map<string, AuthEntry>();
    for await (const [k, v] of this.db.iterator()) if (k !== NEXT_KEY) out.set(k, decode(v));
    for (const [k, v] of this.dirty) out.set(k, v);
    return [...out].map(([addrHex, entry]) => ({ addrHex, entry })).sort((a, b) => (a.entry.accountNumber < b.entry.accountNumber ? -1 : 1));
  }

  private async assign(addrHex: string): Promise<AuthEntry> {
    if (this.next === undefined) {
      const stored = await this.db.get(NEXT_KEY);
      this.next = stored === undefined ? 0n : BigInt(stored);
    }
    const e: AuthEntry = { accountNumber: this.next };
    this.next += 1n;
    this.cache.set(addrHex, e);
    this.dirty.set(addrHex, e);
    return e;
  }

  private async load(addrHex: string): Promise<AuthEntry | undefined> {
    const v = await this.db.get(addrHex);
    if (v === undefined) return undefined;
    const e = decode(v);
    this.cache.set(addrHex, e);
    return e;
  }
}

function decode(v: string): AuthEntry {
  const s = JSON.parse(v) as StoredEntry;
  return { accountNumber: BigInt(s.n), ...(s.t && s.k ? { pubKey: { type: s.t, key: Uint8Array.from(Buffer.from(s.k, 'hex')) } } : {}) };
}
