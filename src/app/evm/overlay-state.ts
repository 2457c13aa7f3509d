/**
 * The state an eth_call / eth_estimateGas / eth_simulateV1 runs on: private writes over a shared
 * StateReader. Creating one costs a few empty Maps, so every call gets its own and concurrent
 * calls never see each other. Checkpoints are an undo log (one entry per write inside a
 * checkpoint), so a reverted frame costs what it wrote, not a copy of the state.
 *
 * "Original" storage (EIP-2200 gas) is the value at the last `beginTx()`: the first write of a
 * slot in a tx remembers what it replaced.
 */
import type { AccountFields, StateManagerInterface } from '@ethereumjs/common';
import { Account, KECCAK256_NULL, bytesToUnprefixedHex, type Address } from '@ethereumjs/util';
import { keccak256 } from '../../crypto/keccak.js';
import { copyAccount, type StateReader } from './state-reader.js';

const EMPTY = new Uint8Array(0);

type Undo =
  | { kind: 'account'; key: string; prev: Account | null | undefined }
  | { kind: 'code'; key: string; prev: Uint8Array | undefined }
  | { kind: 'slot'; key: string; slot: string; prev: Uint8Array | undefined }
  | { kind: 'clear'; key: string; prevSlots: Map<string, Uint8Array> | undefined; prevCleared: boolean };

export class OverlayState implements StateManagerInterface {
  /** null = deleted in this overlay. */
  private readonly accounts = new Map<string, Account | null>();
  private readonly codes = new Map<string, Uint8Array>();
  private readonly slots = new Map<string, Map<string, Uint8Array>>();
  /** Addresses whose base storage is gone (deleted, cleared, or replaced by an override). */
  private readonly cleared = new Set<string>();
  private readonly undo: Undo[] = [];
  private readonly marks: number[] = [];
  private txOriginal = new Map<string, Uint8Array>();

  readonly originalStorageCache = {
    get: (address: Address, key: Uint8Array): Promise<Uint8Array> => {
      const v = this.txOriginal.get(bytesToUnprefixedHex(address.bytes) + bytesToUnprefixedHex(key));
      return v !== undefined ? Promise.resolve(v) : this.getStorage(address, key);
    },
    clear: (): void => {
      this.txOriginal.clear();
    },
  };

  constructor(private readonly base: StateReader) {}

  /** Open checkpoints (the block executor unwinds what a throwing runTx left open). */
  get checkpointDepth(): number {
    return this.marks.length;
  }

  /** Starts a new tx: original storage values are taken from here on. */
  beginTx(): void {
    this.txOriginal = new Map();
  }

  // ── accounts ────────────────────────────────────────────────────────────────────────────

  async getAccount(address: Address): Promise<Account | undefined> {
    const key = bytesToUnprefixedHex(address.bytes);
    const own = this.accounts.get(key);
    if (own !== undefined) return own === null ? undefined : copyAccount(own);
    const a = await this.base.account(address, key);
    return a === undefined ? undefined : copyAccount(a);
  }

  async putAccount(address: Address, account?: Account): Promise<void> {
    if (account === undefined) return this.deleteAccount(address);
    this.setAccount(bytesToUnprefixedHex(address.bytes), copyAccount(account));
  }

  async deleteAccount(address: Address): Promise<void> {
    const key = bytesToUnprefixedHex(address.bytes);
    this.setAccount(key, null);
    this.setCode(key, EMPTY);
    this.clearSlots(key);
  }

  async modifyAccountFields(address: Address, fields: AccountFields): Promise<void> {
    const a = (await this.getAccount(address)) ?? new Account();
    if (fields.nonce !== undefined) a.nonce = fields.nonce;
    if (fields.balance !== undefined) a.balance = fields.balance;
    if (fields.storageRoot !== undefined) a.storageRoot = fields.storageRoot;
    if (fields.codeHash !== undefined) a.codeHash = fields.codeHash;
    await this.putAccount(address, a);
  }

  // ── code ────────────────────────────────────────────────────────────────────────────────

  async putCode(address: Address, value: Uint8Array): Promise<void> {
    const key = bytesToUnprefixedHex(address.bytes);
    this.setCode(key, value);
    const a = (await this.getAccount(address)) ?? new Account();
    a.codeHash = value.length === 0 ? KECCAK256_NULL : keccak256(value);
    this.setAccount(key, a);
  }

  async getCode(address: Address): Promise<Uint8Array> {
    const key = bytesToUnprefixedHex(address.bytes);
    const own = this.codes.get(key);
    if (own !== undefined) return own;
    if (this.accounts.get(key) === null) return EMPTY;
    return this.base.code(address, key);
  }

  async getCodeSize(address: Address): Promise<number> {
    return (await this.getCode(address)).length;
  }

  // ── storage ─────────────────────────────────────────────────────────────────────────────

  async getStorage(address: Address, slot: Uint8Array): Promise<Uint8Array> {
    const key = bytesToUnprefixedHex(address.bytes);
    const slotKey = bytesToUnprefixedHex(slot);
    const own = this.slots.get(key)?.get(slotKey);
    if (own !== undefined) return own;
    if (this.cleared.has(key)) return EMPTY;
    return this.base.storage(address, key, slot, slotKey);
  }

  async putStorage(address: Address, slot: Uint8Array, value: Uint8Array): Promise<void> {
    const key = bytesToUnprefixedHex(address.bytes);
    const slotKey = bytesToUnprefixedHex(slot);
    const origKey = key + slotKey;
    if (!this.txOriginal.has(origKey)) this.txOriginal.set(origKey, await this.getStorage(address, slot));
    let m = this.slots.get(key);
    if (m === undefined) {
      m = new Map();
      this.slots.set(key, m);
    }
    if (this.marks.length > 0) this.undo.push({ kind: 'slot', key, slot: slotKey, prev: m.get(slotKey) });
    m.set(slotKey, value);
  }

  async clearStorage(address: Address): Promise<void> {
    this.clearSlots(bytesToUnprefixedHex(address.bytes));
  }

  // ── checkpoints ─────────────────────────────────────────────────────────────────────────

  async checkpoint(): Promise<void> {
    this.marks.push(this.undo.length);
  }

  async commit(): Promise<void> {
    this.marks.pop();
    // With no checkpoint left, nothing can be reverted: drop the log.
    if (this.marks.length === 0) this.undo.length = 0;
  }

  async revert(): Promise<void> {
    const mark = this.marks.pop() ?? 0;
    for (let i = this.undo.length - 1; i >= mark; i--) this.restore(this.undo[i]!);
    this.undo.length = mark;
  }

  // ── not meaningful for an overlay ───────────────────────────────────────────────────────

  async getStateRoot(): Promise<Uint8Array> {
    throw new Error('state root of a call overlay is not computed');
  }
  async setStateRoot(): Promise<void> {
    throw new Error('a call overlay cannot change its root');
  }
  async hasStateRoot(): Promise<boolean> {
    return false;
  }
  clearCaches(): void {}

  shallowCopy(): OverlayState {
    const c = new OverlayState(this.base);
    for (const [k, v] of this.accounts) c.accounts.set(k, v === null ? null : copyAccount(v));
    for (const [k, v] of this.codes) c.codes.set(k, v);
    for (const [k, v] of this.slots) c.slots.set(k, new Map(v));
    for (const k of this.cleared) c.cleared.add(k);
    return c;
  }

  /** Addresses written in this overlay (eth_simulateV1 and access lists read them). */
  touchedAccounts(): string[] {
    return [...this.accounts.keys()];
  }

  // ── internals ───────────────────────────────────────────────────────────────────────────

  private setAccount(key: string, value: Account | null): void {
    if (this.marks.length > 0) this.undo.push({ kind: 'account', key, prev: this.accounts.get(key) });
    this.accounts.set(key, value);
  }

  private setCode(key: string, value: Uint8Array): void {
    if (this.marks.length > 0) this.undo.push({ kind: 'code', key, prev: this.codes.get(key) });
    this.codes.set(key, value);
  }

  private clearSlots(key: string): void {
    if (this.marks.length > 0) this.undo.push({ kind: 'clear', key, prevSlots: this.slots.get(key), prevCleared: this.cleared.has(key) });
    this.slots.delete(key);
    this.cleared.add(key);
  }

  private restore(u: Undo): void {
    switch (u.kind) {
      case 'account':
        if (u.prev === undefined) this.accounts.delete(u.key);
        else this.accounts.set(u.key, u.prev);
        return;
      case 'code':
        if (u.prev === undefined) this.codes.delete(u.key);
        else this.codes.set(u.key, u.prev);
        return;
      case 'slot': {
        const m = this.slots.get(u.key);
        if (m === undefined) return;
        if (u.prev === undefined) m.delete(u.slot);
        else m.set(u.slot, u.prev);
        return;
      }
      case 'clear':
        if (u.prevSlots === undefined) this.slots.delete(u.key);
        else this.slots.set(u.key, u.prevSlots);
        if (!u.prevCleared) this.cleared.delete(u.key);
        return;
    }
  }
}
