/**
 * geth's `prestateTracer`: the accounts (balance, nonce, code, storage slots) a tx touched, as
 * they were before it. With `diffMode`, `{ pre, post }` of only what changed: `pre` keeps the old
 * values of modified accounts and slots, `post` the new ones (a zeroed slot is left out of post).
 *
 * Touched = sender, recipient (or created address), coinbase, and what opcodes name: SLOAD/SSTORE
 * slots, BALANCE/EXTCODE*, call targets, CREATE/CREATE2 addresses, SELFDESTRUCT beneficiaries.
 * Each is read the first time it is seen, before the opcode runs, so the value is the pre-state.
 * Options: diffMode, disableCode, disableStorage, includeEmpty (keep accounts that did not exist).
 */
import type { StateManagerInterface } from '@ethereumjs/common';
import { Address, KECCAK256_NULL, bytesToHex, createContractAddress, createContractAddress2, equalsBytes } from '@ethereumjs/util';
import { readMemory } from './attach-tracer.js';
import { addressHex, bigIntToWord, bytesHex, hashHex, quantity, wordToBigInt } from './json.js';
import type { OpcodeEvent, PrestateAccount, PrestateResult, Tracer, TxEndEvent, TxStartEvent } from './types.js';

export interface PrestateTracerConfig {
  diffMode?: boolean;
  disableCode?: boolean;
  disableStorage?: boolean;
  includeEmpty?: boolean;
}

interface AccountState {
  address: Address;
  balance: bigint;
  nonce: bigint;
  code: Uint8Array;
  codeHash: Uint8Array;
  storage: Map<bigint, bigint>;
  /** Did not exist before the tx (no balance, nonce, code). */
  empty: boolean;
}

const SLOAD = 0x54;
const SSTORE = 0x55;
const ADDRESS_OPS = new Set([0x31, 0x3b, 0x3c, 0x3f, 0xff]); // BALANCE, EXTCODESIZE, EXTCODECOPY, EXTCODEHASH, SELFDESTRUCT
const CALL_OPS = new Set([0xf1, 0xf2, 0xf4, 0xfa]);
const CREATE = 0xf0;
const CREATE2 = 0xf5;

export class PrestateTracer implements Tracer {
  private readonly pre = new Map<string, AccountState>();
  private readonly post = new Map<string, PrestateAccount>();
  private readonly created = new Set<string>();

  constructor(private readonly cfg: PrestateTracerConfig = {}) {}

  async onTxStart(e: TxStartEvent): Promise<void> {
    await this.lookup(e.state, e.from);
    await this.lookup(e.state, e.to);
    await this.lookup(e.state, e.coinbase);
    if (e.isCreate) this.created.add(addressHex(e.to));
  }

  onOpcode(e: OpcodeEvent): Promise<void> | void {
    const st = e.stack;
    const n = st.length;
    const op = e.op;
    if ((op === SLOAD || op === SSTORE) && n >= 1) return this.lookupSlot(e.state, e.address, st[n - 1]!);
    if (ADDRESS_OPS.has(op) && n >= 1) return this.lookup(e.state, addressOf(st[n - 1]!));
    if (CALL_OPS.has(op) && n >= 5) return this.lookup(e.state, addressOf(st[n - 2]!));
    if (op === CREATE) return this.lookupCreated(e.state, createContractAddress(e.address, e.contract.nonce));
    if (op === CREATE2 && n >= 4) {
      const init = readMemory(e.memory, st[n - 2]!, st[n - 3]!);
      return this.lookupCreated(e.state, createContractAddress2(e.address, bigIntToWord(st[n - 4]!), init));
    }
  }

  async onTxEnd(e: TxEndEvent): Promise<void> {
    if (this.cfg.diffMode) await this.diff(e.state);
    for (const a of this.created) if (this.pre.get(a)?.empty) this.pre.delete(a);
    if (!this.cfg.includeEmpty && !this.cfg.diffMode) for (const [a, s] of this.pre) if (s.empty) this.pre.delete(a);
  }

  result(): PrestateResult {
    const pre: Record<string, PrestateAccount> = {};
    for (const [a, s] of this.pre) pre[a] = this.encode(s);
    if (!this.cfg.diffMode) return pre;
    return { post: Object.fromEntries(this.post), pre };
  }

  private async lookup(state: StateManagerInterface, address: Address): Promise<void> {
    const key = addressHex(address);
    if (this.pre.has(key)) return;
    const acc = await state.getAccount(address);
    const code = acc === undefined ? new Uint8Array(0) : await state.getCode(address);
    const balance = acc?.balance ?? 0n;
    const nonce = acc?.nonce ?? 0n;
    this.pre.set(key, {
      address,
      balance,
      nonce,
      code,
      codeHash: acc?.codeHash ?? KECCAK256_NULL,
      storage: new Map(),
      empty: balance === 0n && nonce === 0n && code.length === 0,
    });
  }

  private async lookupCreated(state: StateManagerInterface, address: Address): Promise<void> {
    this.created.add(addressHex(address));
    await this.lookup(state, address);
  }

  private async lookupSlot(state: StateManagerInterface, address: Address, slot: bigint): Promise<void> {
    await this.lookup(state, address);
    const acc = this.pre.get(addressHex(address))!;
    if (this.cfg.disableStorage || acc.storage.has(slot)) return;
    acc.storage.set(slot, wordToBigInt(await state.getStorage(address, bigIntToWord(slot))));
  }

  /** Keeps in `pre` only what changed, and puts the new values in `post`. */
  private async diff(state: StateManagerInterface): Promise<void> {
    for (const [key, before] of this.pre) {
      const address = before.address;
      const acc = await state.getAccount(address);
      if (acc === undefined && !before.empty) continue; // destroyed: its pre-state stays, no post
      const post: PrestateAccount = {};
      let modified = false;
      const balance = acc?.balance ?? 0n;
      const nonce = acc?.nonce ?? 0n;
      if (balance !== before.balance) {
        modified = true;
        post.balance = quantity(balance);
      }
      if (nonce !== before.nonce) {
        modified = true;
        post.nonce = Number(nonce);
      }
      const codeHash = acc?.codeHash ?? KECCAK256_NULL;
      if (!equalsBytes(codeHash, before.codeHash)) {
        modified = true;
        if (!equalsBytes(codeHash, KECCAK256_NULL)) post.codeHash = bytesToHex(codeHash);
        if (!this.cfg.disableCode) post.code = bytesHex(await state.getCode(address));
      }
      const slots: Record<string, string> = {};
      for (const [slot, value] of before.storage) {
        const now = wordToBigInt(await state.getStorage(address, bigIntToWord(slot)));
        if (now === value) {
          before.storage.delete(slot);
          continue;
        }
        modified = true;
        if (value === 0n) before.storage.delete(slot);
        if (now !== 0n) slots[hashHex(slot)] = hashHex(now);
      }
      if (Object.keys(slots).length > 0) post.storage = slots;
      if (modified) this.post.set(key, post);
      else this.pre.delete(key);
    }
  }

  private encode(s: AccountState): PrestateAccount {
    const out: PrestateAccount = { balance: quantity(s.balance) };
    if (s.code.length > 0 && !this.cfg.disableCode) out.code = bytesHex(s.code);
    if (s.code.length > 0) out.codeHash = bytesToHex(s.codeHash);
    if (s.nonce > 0n) out.nonce = Number(s.nonce);
    if (!this.cfg.disableStorage && s.storage.size > 0) {
      out.storage = {};
      for (const [slot, value] of s.storage) out.storage[hashHex(slot)] = hashHex(value);
    }
    return out;
  }
}

function addressOf(word: bigint): Address {
  return new Address(bigIntToWord(word).subarray(12));
}
