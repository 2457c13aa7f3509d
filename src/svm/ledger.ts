/**
 * An SVM chain on LiteSVM: LiteSVM executes; this module provides what a validator adds around it
 * (REFERENCE-SVM "What LiteSVM leaves to the host"):
 *
 *   slots      advance on the wall clock (`startClock`: slot-clock.ts, closed when the ledger is
 *              read, no ticking timer) or at once (`advanceSlot`, the chain's `mine`); each slot
 *              gets a new blockhash, the Clock sysvar's slot, epoch and unix time
 *   blockhash  the last 150 are valid (`BlockhashNotFound` otherwise); LiteSVM's own check is off
 *   replay     every signature is remembered for the window (`AlreadyProcessed`)
 *   records    per tx: slot, block time, fee, pre/post balances, logs, compute units, error, and
 *              the accounts it changed; closed slots become blocks (history.ts)
 *   tokens     an owner index of SPL token accounts, kept as txs write them
 *
 * Genesis (genesis.ts): the dev mnemonic's Solana accounts (m/44'/501'/i'/0') hold SOL, and a
 * USDC-like mint with 6 decimals gives each of them tokens in its associated token account. On a
 * home, journal.ts keeps the ledger across restarts and crashes (`save`, `replay*`).
 */
import { LiteSVM } from 'litesvm';
import {
  address as toAddress,
  getBase58Codec,
  getCompiledTransactionMessageDecoder,
  getTransactionDecoder,
  lamports,
  type Address,
  type Transaction,
} from '@solana/kit';
import { ASSOCIATED_TOKEN_PROGRAM_ADDRESS, TOKEN_PROGRAM_ADDRESS } from '@solana-program/token';
import { createHash } from 'node:crypto';
import { deriveSolanaAccounts, keypairFromSeed, type SolanaKeypair } from './keys.js';
import { txErrorJson, type TxErrorJson } from './tx-errors.js';
import { SvmHistory, type SvmBlock, type SvmTxRecord } from './history.js';
import { recordFromJson, recordToJson, type SavedRecord } from './record-json.js';
import { lamportsOf, sameAccount, type AccountRead } from './account-state.js';
import { TOKEN_ACCOUNT_SIZE } from './spl.js';
import { fundGenesis } from './genesis.js';
import { SlotClock } from './slot-clock.js';

export { parseMint, parseTokenAccount } from './spl.js';

export type { SvmBlock, SvmTxRecord } from './history.js';

export const LAMPORTS_PER_SIGNATURE = 5000n;
export const BLOCKHASH_WINDOW = 150;
export const SLOTS_PER_EPOCH = 432_000n;
const SYSTEM_PROGRAM = '11111111111111111111111111111111';

const b58 = getBase58Codec();

interface CompiledMessage {
  staticAccounts: readonly string[];
  lifetimeToken: string;
  header: { numSignerAccounts: number; numReadonlySignerAccounts: number; numReadonlyNonSignerAccounts: number };
}

export class SvmTxError extends Error {
  override name = 'SvmTxError';
  constructor(
    readonly err: TxErrorJson,
    message: string,
  ) {
    super(message);
  }
}

export interface SvmLedgerOptions {
  mnemonic: string;
  accounts?: number;
  /** Lamports of each dev account (default 1 000 SOL). */
  lamportsPerAccount?: bigint;
  /** USDC-like tokens per dev account, in base units (default 1 000 000 USDC). */
  tokensPerAccount?: bigint;
  /** Wall clock (ms) for block times. */
  now?: () => number;
  /** Tx records kept for getTransaction and the address index (default 100 000). */
  maxRecords?: number;
  /** Blocks of closed slots kept for getBlock (default 100 000). */
  maxBlocks?: number;
}

export interface SvmSavedAccount {
  address: string;
  lamports: string;
  owner: string;
  executable: boolean;
  /** base64 */
  data: string;
}

/** A saved chain (JSON): accounts, slot, the blockhash window and the window's signatures. */
export interface SvmLedgerState {
  genesisHash: string;
  mint: string;
  slot: string;
  blockHeight: string;
  /** [blockhash, slot, ms] of the window, oldest first. */
  blockhashes: [string, string, number][];
  accounts: SvmSavedAccount[];
  /** [signature, slot] */
  seen: [string, string][];
  /** The kept tx records, oldest first (absent in states saved before they were kept). */
  records?: SavedRecord[];
  /** [slot, blockhash, ms, blockHeight] of the kept blocks, oldest first. */
  blocks?: [string, string, number, string][];
}

interface SignatureSeen {
  slot: bigint;
}

/** Writes an account in its saved form (`save()`, the journal) into a LiteSVM. */
function putSavedAccount(svm: LiteSVM, a: SvmSavedAccount): void {
  const data = Uint8Array.from(Buffer.from(a.data, 'base64'));
  svm.setAccount({
    address: a.address as Address,
    lamports: lamports(BigInt(a.lamports)),
    programAddress: a.owner as Address,
    executable: a.executable,
    space: BigInt(data.length),
    data,
  });
}

export class SvmLedger {
  readonly svm: LiteSVM;
  readonly devAccounts: SolanaKeypair[];
  readonly mint: string;
  readonly genesisHash: string;
  /** The open slot and the block height (read through `slot` / `blockHeight`, which catch the clock up). */
  private cur = 0n;
  private height = 0n;
  private readonly now: () => number;
  /** blockhash → slot, newest last; at most BLOCKHASH_WINDOW + 1. */
  private readonly blockhashes = new Map<string, bigint>();
  private latest = '';
  private readonly slotTimes = new Map<bigint, number>();
  /** Every account the genesis, a tx or an airdrop wrote (what `save` writes). */
  private readonly known = new Set<string>();
  private readonly seen = new Map<string, SignatureSeen>();
  private readonly hist: SvmHistory;
  /** owner → token account addresses. */
  private readonly tokenOwners = new Map<string, Set<string>>();
  private readonly slotListeners = new Set<(slot: bigint, more: boolean) => void>();
  /** Slot listeners that must hear of each slot as it closes (slotSubscribe): they keep the clock's timer armed. */
  private liveListeners = 0;
  private clock: SlotClock | undefined;
  private syncing = false;
  private readonly txListeners = new Set<(r: SvmTxRecord) => void>();

  private constructor(svm: LiteSVM, devAccounts: SolanaKeypair[], mint: string, o: SvmLedgerOptions, saved?: SvmLedgerState) {
    const now = o.now ?? Date.now;
    this.hist = new SvmHistory(o.maxRecords, o.maxBlocks);
    this.svm = svm;
    this.devAccounts = devAccounts;
    this.mint = mint;
    this.now = now;
    this.latest = svm.latestBlockhash();
    if (saved) {
      this.genesisHash = saved.genesisHash;
      this.cur = BigInt(saved.slot);
      this.height = BigInt(saved.blockHeight);
      for (const [h, s, t] of saved.blockhashes) {
        this.blockhashes.set(h, BigInt(s));
        this.slotTimes.set(BigInt(s), t);
      }
      this.latest = saved.blockhashes.at(-1)?.[0] ?? this.latest;
      for (const [sig, slot] of saved.seen) this.seen.set(sig, { slot: BigInt(slot) });
      for (const a of saved.accounts) {
        this.known.add(a.address);
        this.indexTokenAccount(a.address);
      }
      for (const [s, h, t, height] of saved.blocks ?? []) this.hist.closeBlock({ slot: BigInt(s), blockhash: h, timeMs: t, blockHeight: BigInt(height) });
      for (const r of saved.records ?? []) this.hist.add(recordFromJson(r));
    } else {
      this.genesisHash = b58.decode(createHash('sha256').update(`chainlet svm genesis ${this.latest}`).digest());
      this.blockhashes.set(this.latest, 0n);
      this.slotTimes.set(0n, now());
    }
    this.setClock();
  }

  /**
   * Restores a ledger saved with `save()`: a fresh LiteSVM (its built-in programs) with every account
   * the chain ever wrote put back, the slot, the blockhash window and the signatures of the window.
   */
  static restore(saved: SvmLedgerState, o: SvmLedgerOptions): SvmLedger {
    const svm = new LiteSVM().withBlockhashCheck(false);
    for (const a of saved.accounts) putSavedAccount(svm, a);
    const devAccounts = deriveSolanaAccounts(o.mnemonic, o.accounts ?? 10);
    return new SvmLedger(svm, devAccounts, saved.mint, o, saved);
  }

  /** The chain's state as JSON-friendly values (LiteSVM 1.4 has no snapshot of its own). */
  save(): SvmLedgerState {
    this.sync();
    const blockhashes: [string, string, number][] = [...this.blockhashes].map(([h, s]) => [h, s.toString(), this.slotTimes.get(s) ?? this.now()]);
    const accounts: SvmSavedAccount[] = [];
    for (const address of this.known) {
      const a = this.account(address);
      if (a && !a.executable)
        accounts.push({ address, lamports: a.lamports.toString(), owner: a.owner, executable: a.executable, data: Buffer.from(a.data).toString('base64') });
    }
    const seen: [string, string][] = [...this.seen].map(([sig, v]) => [sig, v.slot.toString()]);
    const records = [...this.history.all()].map(recordToJson);
    const blocks: [string, string, number, string][] = [...this.history.allBlocks()].map((b) => [
      b.slot.toString(),
      b.blockhash,
      b.timeMs,
      b.blockHeight.toString(),
    ]);
    return {
      genesisHash: this.genesisHash,
      mint: this.mint,
      slot: this.slot.toString(),
      blockHeight: this.blockHeight.toString(),
      blockhashes,
      accounts,
      seen,
      records,
      blocks,
    };
  }

  /** The saved form of one account (undefined for a program account: those are built in). */
  savedAccount(address: string): SvmSavedAccount | undefined {
    const a = this.account(address);
    if (!a) return { address, lamports: '0', owner: SYSTEM_PROGRAM, executable: false, data: '' };
    if (a.executable) return undefined;
    return { address, lamports: a.lamports.toString(), owner: a.owner, executable: a.executable, data: Buffer.from(a.data).toString('base64') };
  }

  // ── replay of a journal (journal.ts): each call redoes what one entry recorded ──

  replayAccount(a: SvmSavedAccount): void {
    putSavedAccount(this.svm, a);
    this.adopt(a.address);
  }

  replayRecord(rec: SvmTxRecord): void {
    if (rec.wire.length > 0) this.seen.set(rec.signature, { slot: rec.slot });
    this.hist.add(rec);
  }

  replaySlot(slot: bigint, blockhash: string, timeMs: number): void {
    if (slot !== this.cur + 1n) throw new Error(`svm journal: slot ${slot} does not follow slot ${this.cur}`);
    this.enterSlot(blockhash, timeMs);
    this.setClock();
  }

  static async create(o: SvmLedgerOptions): Promise<SvmLedger> {
    const svm = new LiteSVM().withBlockhashCheck(false);
    const devAccounts = deriveSolanaAccounts(o.mnemonic, o.accounts ?? 10);
    const mintKey = keypairFromSeed(createHash('sha256').update('chainlet usdc mint').digest());
    const ledger = new SvmLedger(svm, devAccounts, mintKey.address, o);
    for (const address of await fundGenesis(svm, devAccounts, mintKey, o)) ledger.adopt(address);
    return ledger;
  }

  /** Counts an account written outside a tx (genesis) among the chain's accounts. */
  private adopt(address: string): void {
    this.known.add(address);
    this.indexTokenAccount(address);
  }

  // ── slots and blockhashes ──

  /** The open slot (the clock's due slots closed first). */
  get slot(): bigint {
    this.sync();
    return this.cur;
  }

  get blockHeight(): bigint {
    this.sync();
    return this.height;
  }

  /** Blocks and tx records, up to the slots due by now. */
  get history(): SvmHistory {
    this.sync();
    return this.hist;
  }

  /**
   * Slots follow the wall clock from now on, one every `slotMs`: closed when the ledger is next read
   * (or by the clock's one-shot timer while a live slot listener or an open slot's txs wait for it).
   */
  startClock(slotMs: number): void {
    this.clock?.stop();
    this.clock = new SlotClock(slotMs, this.now, () => {
      this.sync();
      this.armIfWanted();
    });
    this.armIfWanted();
  }

  stopClock(): void {
    this.sync();
    this.clock?.stop();
    this.clock = undefined;
  }

  /** Whether the clock's timer is armed (tests: an idle chain runs none). */
  get clockArmed(): boolean {
    return this.clock?.armed ?? false;
  }

  /** Closes the current slot now (after any the clock has due): a new blockhash, the clock moves on. */
  advanceSlot(): void {
    this.sync();
    // As in `sync`: a listener's read must not close the next slot in the middle of this one
    // (the journal would write the later slot first, and refuse to replay it).
    this.syncing = true;
    try {
      this.closeSlot(this.now(), false);
    } finally {
      this.syncing = false;
    }
    this.setClock();
    this.armIfWanted();
  }

  /** Closes the slots the clock has due; listeners (and a journal's sync) run per slot, in order. */
  private sync(): void {
    if (!this.clock || this.syncing) return;
    this.syncing = true;
    try {
      if (this.clock.catchUp((t, more) => this.closeSlot(t, more)) > 0) this.setClock();
    } finally {
      this.syncing = false;
    }
  }

  private closeSlot(timeMs: number, more: boolean): void {
    this.svm.expireBlockhash();
    this.enterSlot(this.svm.latestBlockhash(), timeMs);
    for (const l of this.slotListeners) l(this.cur, more);
  }

  /** The timer runs only while someone waits for a slot to close as it happens. */
  private armIfWanted(): void {
    if (this.clock && (this.liveListeners > 0 || this.hist.txCount(this.cur) > 0)) this.clock.arm();
  }

  /** The current slot's block is closed (history); slot `slot + 1` starts with `blockhash`. */
  private enterSlot(blockhash: string, timeMs: number): void {
    this.hist.closeBlock({ slot: this.cur, blockhash: this.latest, timeMs: this.slotTimes.get(this.cur) ?? timeMs, blockHeight: this.height });
    this.cur += 1n;
    this.height += 1n;
    this.latest = blockhash;
    this.blockhashes.set(this.latest, this.cur);
    this.slotTimes.set(this.cur, timeMs);
    while (this.blockhashes.size > BLOCKHASH_WINDOW + 1) this.blockhashes.delete(this.blockhashes.keys().next().value!);
    while (this.slotTimes.size > BLOCKHASH_WINDOW + 1) this.slotTimes.delete(this.slotTimes.keys().next().value!);
    const oldest = this.cur - BigInt(BLOCKHASH_WINDOW) - 1n;
    for (const [sig, s] of this.seen) {
      if (s.slot >= oldest) break;
      this.seen.delete(sig);
    }
  }

  /** The blockhash and start time (ms) of slot `slot`, while it is in the window. */
  slotInfo(slot: bigint): { blockhash: string; timeMs: number; txs: number } | undefined {
    this.sync();
    for (const [h, s] of this.blockhashes)
      if (s === slot) return { blockhash: h, timeMs: this.slotTimes.get(slot) ?? this.now(), txs: this.hist.txCount(slot) };
    return undefined;
  }

  latestBlockhash(): { blockhash: string; lastValidBlockHeight: bigint } {
    this.sync();
    return { blockhash: this.latest, lastValidBlockHeight: this.blockHeight + BigInt(BLOCKHASH_WINDOW) };
  }

  /** Valid while fewer than 150 newer blockhashes exist (as on Solana). */
  isBlockhashValid(blockhash: string): boolean {
    this.sync();
    const s = this.blockhashes.get(blockhash);
    return s !== undefined && this.slot - s <= BigInt(BLOCKHASH_WINDOW);
  }

  /**
   * `l` hears of each slot closed, in order (`more`: further slots close in the same catch-up). A
   * `live` listener hears of it as it closes (a timer runs while one exists); others may hear of a
   * run of slots at the next read.
   */
  onSlot(l: (slot: bigint, more: boolean) => void, opts: { live?: boolean } = {}): () => void {
    // Each registration is its own entry (one function may be added twice, live or not).
    const entry = (slot: bigint, more: boolean) => l(slot, more);
    this.slotListeners.add(entry);
    if (opts.live) {
      this.liveListeners++;
      this.armIfWanted();
    }
    let on = true;
    return () => {
      if (!on) return;
      on = false;
      this.slotListeners.delete(entry);
      if (opts.live) this.liveListeners--;
    };
  }

  onTransaction(l: (r: SvmTxRecord) => void): () => void {
    this.txListeners.add(l);
    return () => this.txListeners.delete(l);
  }

  // ── transactions ──

  /** Checks and executes signed wire bytes; a tx that fails on chain is recorded (it paid its fee). */
  send(wire: Uint8Array): SvmTxRecord {
    this.sync();
    const { tx, signature, blockhash, accountKeys, writable } = this.decode(wire);
    if (this.seen.has(signature) || this.hist.get(signature))
      throw new SvmTxError('AlreadyProcessed', 'Transaction simulation failed: This transaction has already been processed');
    if (!this.isBlockhashValid(blockhash)) throw new SvmTxError('BlockhashNotFound', 'Transaction simulation failed: Blockhash not found');
    // Only writable accounts can change: read-only ones (program code included) are not copied twice.
    const snapshot = (): AccountRead[] => accountKeys.map((k, i) => (writable[i] ? this.svm.getAccount(k as Address) : this.balance(k)));
    const before = snapshot();
    const result = this.svm.sendTransaction(tx);
    const failed = 'err' in result;
    if (failed) {
      const err = txErrorJson(result.err());
      // Errors before execution (signature, fee payer funds) charge nothing and are not recorded.
      if (typeof err === 'string' && err !== 'InsufficientFundsForRent') throw new SvmTxError(err, `Transaction simulation failed: ${err}`);
    }
    const meta = failed ? result.meta() : result;
    const after = snapshot();
    const pre = before.map(lamportsOf);
    const post = after.map(lamportsOf);
    const signatures = Object.keys(tx.signatures).length;
    const rec: SvmTxRecord = {
      signature,
      slot: this.slot,
      blockTime: BigInt(Math.floor(this.now() / 1000)),
      wire,
      fee: LAMPORTS_PER_SIGNATURE * BigInt(signatures),
      accountKeys,
      preBalances: pre,
      postBalances: post,
      logs: meta.logs(),
      computeUnits: meta.computeUnitsConsumed(),
      err: failed ? txErrorJson(result.err()) : null,
      // Only real changes: a failed tx that merely named an account writable leaves it as it was.
      changed: accountKeys.filter((_, i) => !sameAccount(before[i]!, after[i]!)),
    };
    // The fee is what the fee payer paid beyond what the tx moved (priority fees included).
    const payerDelta = pre[0]! - post[0]!;
    if (payerDelta >= rec.fee && failed) rec.fee = payerDelta;
    this.seen.set(signature, { slot: this.slot });
    this.remember(rec);
    for (const k of accountKeys) {
      this.indexTokenAccount(k);
      this.known.add(k);
    }
    for (const l of this.txListeners) l(rec);
    return rec;
  }

  /** Runs without committing (simulateTransaction); `sigVerify` false skips signature checks. */
  simulate(wire: Uint8Array): { err: TxErrorJson | null; logs: string[]; unitsConsumed: bigint } {
    this.sync();
    const { tx, blockhash } = this.decode(wire);
    if (!this.isBlockhashValid(blockhash)) return { err: 'BlockhashNotFound', logs: [], unitsConsumed: 0n };
    const r = this.svm.simulateTransaction(tx);
    if ('err' in r) return { err: txErrorJson(r.err()), logs: r.meta().logs(), unitsConsumed: r.meta().computeUnitsConsumed() };
    const m = r.meta();
    return { err: null, logs: m.logs(), unitsConsumed: m.computeUnitsConsumed() };
  }

  airdrop(to: string, amount: bigint): string {
    this.sync();
    const before = this.balance(to);
    const acct = this.svm.getAccount(toAddress(to));
    this.svm.setAccount({
      address: to as Address,
      lamports: lamports(before + amount),
      programAddress: (acct.exists ? acct.programAddress : SYSTEM_PROGRAM) as Address,
      executable: acct.exists ? acct.executable : false,
      space: acct.exists ? BigInt(acct.data.length) : 0n,
      data: acct.exists ? acct.data : new Uint8Array(0),
    });
    this.known.add(to);
    // A faucet credit has no transaction of its own here: its "signature" names the credit.
    const signature = b58.decode(createHash('sha512').update(`airdrop ${to} ${amount} ${this.slot} ${this.hist.size} ${this.now()}`).digest());
    const rec: SvmTxRecord = {
      signature,
      slot: this.slot,
      blockTime: BigInt(Math.floor(this.now() / 1000)),
      wire: new Uint8Array(0),
      fee: 0n,
      accountKeys: [to],
      preBalances: [before],
      postBalances: [before + amount],
      logs: [],
      computeUnits: 0n,
      err: null,
      changed: amount > 0n ? [to] : [],
    };
    this.remember(rec);
    for (const l of this.txListeners) l(rec);
    return signature;
  }

  transaction(signature: string): SvmTxRecord | undefined {
    return this.hist.get(signature);
  }

  // ── accounts ──

  balance(addr: string): bigint {
    return this.svm.getBalance(addr as Address) ?? 0n;
  }

  account(addr: string): { lamports: bigint; owner: string; executable: boolean; data: Uint8Array; space: bigint } | undefined {
    const a = this.svm.getAccount(addr as Address);
    if (!a.exists) return undefined;
    return { lamports: a.lamports, owner: a.programAddress, executable: a.executable, data: Uint8Array.from(a.data), space: BigInt(a.data.length) };
  }

  /** Every account `program` owns (LiteSVM's scan of its accounts). */
  programAccounts(program: string): { address: string; lamports: bigint; owner: string; executable: boolean; data: Uint8Array }[] {
    return this.svm
      .getProgramAccounts(program as Address)
      .map((a) => ({ address: a.address, lamports: a.lamports, owner: a.programAddress, executable: a.executable, data: a.data as Uint8Array }));
  }

  /** Lamports of every account the chain wrote (genesis, txs, airdrops): getSupply's total. */
  totalLamports(): bigint {
    let sum = 0n;
    for (const k of this.known) sum += this.balance(k);
    return sum;
  }

  tokenAccountsOf(owner: string): string[] {
    return [...(this.tokenOwners.get(owner) ?? [])].filter((k) => this.account(k)?.owner === TOKEN_PROGRAM_ADDRESS);
  }

  rentExempt(dataLen: bigint): bigint {
    return this.svm.minimumBalanceForRentExemption(dataLen);
  }

  get tokenProgram(): string {
    return TOKEN_PROGRAM_ADDRESS;
  }

  get associatedTokenProgram(): string {
    return ASSOCIATED_TOKEN_PROGRAM_ADDRESS;
  }

  // ── internals ──

  private decode(wire: Uint8Array): { tx: Transaction; signature: string; blockhash: string; accountKeys: string[]; writable: boolean[] } {
    let tx: Transaction;
    let msg: CompiledMessage;
    try {
      tx = getTransactionDecoder().decode(wire);
      msg = getCompiledTransactionMessageDecoder().decode(tx.messageBytes) as unknown as CompiledMessage;
    } catch (e) {
      throw new SvmTxError('SanitizeFailure', `failed to deserialize the transaction: ${(e as Error).message}`);
    }
    const first = Object.values(tx.signatures)[0];
    if (!first) throw new SvmTxError('MissingSignatureForFee', 'Transaction simulation failed: Transaction did not pass signature verification');
    const h = msg.header;
    const n = msg.staticAccounts.length;
    // The header's ranges: writable signers, read-only signers, writable non-signers, read-only non-signers.
    const writable = msg.staticAccounts.map((_, i) =>
      i < h.numSignerAccounts ? i < h.numSignerAccounts - h.numReadonlySignerAccounts : i < n - h.numReadonlyNonSignerAccounts,
    );
    return { tx, signature: b58.decode(first), blockhash: msg.lifetimeToken, accountKeys: [...msg.staticAccounts], writable };
  }

  private remember(rec: SvmTxRecord): void {
    this.hist.add(rec);
    // The open slot now holds a tx: its block closes on time.
    this.armIfWanted();
  }

  private indexTokenAccount(addr: string): void {
    const a = this.svm.getAccount(addr as Address);
    if (!a.exists || a.programAddress !== TOKEN_PROGRAM_ADDRESS || a.data.length !== TOKEN_ACCOUNT_SIZE) return;
    const owner = b58.decode(a.data.subarray(32, 64));
    let set = this.tokenOwners.get(owner);
    if (!set) this.tokenOwners.set(owner, (set = new Set()));
    set.add(addr);
  }

  private setClock(): void {
    const c = this.svm.getClock();
    const unix = BigInt(Math.floor(this.now() / 1000));
    c.slot = this.cur;
    c.epoch = this.cur / SLOTS_PER_EPOCH;
    c.unixTimestamp = unix;
    this.svm.setClock(c);
  }
}
