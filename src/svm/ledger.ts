/**
 * An SVM chain on LiteSVM: LiteSVM executes; this module provides what a validator adds around it
 * (REFERENCE-SVM "What LiteSVM leaves to the host"):
 *
 *   slots      advance on the wall clock (`startClock`: slots.ts, closed when the ledger is read,
 *              a long idle run compactly, no ticking timer) or at once (`advanceSlot`, the chain's
 *              `mine`); each slot gets a new blockhash, the Clock sysvar's slot, epoch and unix time
 *   blockhash  the last 150 are valid (`BlockhashNotFound` otherwise); LiteSVM's own check is off
 *   replay     every signature is remembered for the window (`AlreadyProcessed`)
 *   records    per tx: slot, block time, fee, pre/post balances, logs, compute units, error, and
 *              the accounts it changed (run-tx.ts); closed slots become blocks (history.ts)
 *   tokens     an owner index of SPL token accounts, kept as txs write them
 *
 * Genesis (genesis.ts): the dev mnemonic's Solana accounts (m/44'/501'/i'/0') hold SOL, and a
 * USDC-like mint with 6 decimals gives each of them tokens in its associated token account. On a
 * home, journal.ts keeps the ledger across restarts and crashes (`save`, `replay*`).
 */
import { LiteSVM } from 'litesvm';
import { getBase58Codec, type Address } from '@solana/kit';
import { ASSOCIATED_TOKEN_PROGRAM_ADDRESS, TOKEN_PROGRAM_ADDRESS } from '@solana-program/token';
import { createHash } from 'node:crypto';
import { deriveSolanaAccounts, keypairFromSeed, type SolanaKeypair } from './keys.js';
import { SvmTxError, txErrorJson, type TxErrorJson } from './tx-errors.js';
import { decodeTx } from './tx-decode.js';
import { blockFromSaved, blockToSaved, putSavedAccount, toSavedAccount, type SvmLedgerState, type SvmSavedAccount } from './saved-state.js';
import { SvmHistory, type SvmTxRecord } from './history.js';
import { recordFromJson, recordToJson } from './record-json.js';
import { TokenIndex } from './token-index.js';
import { fundGenesis } from './genesis.js';
import { SvmSlots, type SkipListener, type SlotListener } from './slots.js';
import { creditAirdrop, runTx, SYSTEM_PROGRAM } from './run-tx.js';

export { parseMint, parseTokenAccount } from './spl.js';

export type { SvmBlock, SvmTxRecord } from './history.js';
export type { SvmLedgerState, SvmSavedAccount } from './saved-state.js';
export { SvmTxError } from './tx-errors.js';

export { LAMPORTS_PER_SIGNATURE } from './run-tx.js';
export { BLOCKHASH_WINDOW, SLOTS_PER_EPOCH } from './slots.js';

const b58 = getBase58Codec();

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

export class SvmLedger {
  readonly svm: LiteSVM;
  readonly devAccounts: SolanaKeypair[];
  readonly mint: string;
  readonly genesisHash: string;
  private readonly now: () => number;
  /** The open slot, the blockhash window and the clock (read through `slot` etc., which catch the clock up). */
  private readonly slots: SvmSlots;
  /** Every account the genesis, a tx or an airdrop wrote (what `save` writes). */
  private readonly known = new Set<string>();
  /** signature → the slot it ran in, for the blockhash window (`AlreadyProcessed`). */
  private readonly seen = new Map<string, bigint>();
  private readonly hist: SvmHistory;
  private readonly tokens: TokenIndex;
  private readonly txListeners = new Set<(r: SvmTxRecord) => void>();

  private constructor(svm: LiteSVM, devAccounts: SolanaKeypair[], mint: string, o: SvmLedgerOptions, saved?: SvmLedgerState) {
    const now = o.now ?? Date.now;
    this.hist = new SvmHistory(o.maxRecords, o.maxBlocks);
    this.svm = svm;
    this.tokens = new TokenIndex(svm);
    this.devAccounts = devAccounts;
    this.mint = mint;
    this.now = now;
    const genesis = svm.latestBlockhash();
    this.genesisHash = saved?.genesisHash ?? b58.decode(createHash('sha256').update(`chainlet svm genesis ${genesis}`).digest());
    const host = { svm, hist: this.hist, now, genesisHash: this.genesisHash, pruneSeen: (oldest: bigint) => this.pruneSeen(oldest) };
    this.slots = new SvmSlots(host, genesis, saved);
    if (saved) {
      for (const [sig, slot] of saved.seen) this.seen.set(sig, BigInt(slot));
      for (const a of saved.accounts) {
        this.known.add(a.address);
        this.tokens.index(a.address);
      }
      for (const b of saved.blocks ?? []) this.hist.closeBlock(blockFromSaved(b));
      for (const r of saved.records ?? []) this.hist.add(recordFromJson(r));
    }
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
    const { slot, blockHeight, blockhashes } = this.slots.save();
    const accounts: SvmSavedAccount[] = [];
    for (const address of this.known) {
      const a = this.account(address);
      if (a && !a.executable) accounts.push(toSavedAccount(address, a));
    }
    const seen: [string, string][] = [...this.seen].map(([sig, s]) => [sig, s.toString()]);
    const records = [...this.hist.all()].map(recordToJson);
    const blocks = [...this.hist.allBlocks()].map(blockToSaved);
    return { genesisHash: this.genesisHash, mint: this.mint, slot, blockHeight, blockhashes, accounts, seen, records, blocks };
  }

  /** The saved form of one account (undefined for a program account: those are built in). */
  savedAccount(address: string): SvmSavedAccount | undefined {
    const a = this.account(address);
    if (!a) return { address, lamports: '0', owner: SYSTEM_PROGRAM, executable: false, data: '' };
    return a.executable ? undefined : toSavedAccount(address, a);
  }

  // ── replay of a journal (journal.ts): each call redoes what one entry recorded ──

  replayAccount(a: SvmSavedAccount): void {
    putSavedAccount(this.svm, a);
    this.adopt(a.address);
  }

  replayRecord(rec: SvmTxRecord): void {
    if (rec.wire.length > 0) this.seen.set(rec.signature, rec.slot);
    this.hist.add(rec);
  }

  replaySlot(slot: bigint, blockhash: string, timeMs: number): void {
    this.slots.replaySlot(slot, blockhash, timeMs);
  }

  /** A run of empty slots closed in one step (`onSkip`). */
  replaySkip(from: bigint, to: bigint, timeMs: number): void {
    this.slots.replaySkip(from, to, timeMs);
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
    this.tokens.index(address);
  }

  // ── slots and blockhashes (slots.ts) ──

  /** The open slot (the clock's due slots closed first). */
  get slot(): bigint {
    return this.slots.slot;
  }

  get blockHeight(): bigint {
    return this.slots.blockHeight;
  }

  /** Blocks and tx records, up to the slots due by now. */
  get history(): SvmHistory {
    this.slots.sync();
    return this.hist;
  }

  /**
   * Slots follow the wall clock from now on, one every `slotMs`: closed when the ledger is next read
   * (or by the clock's one-shot timer while a live slot listener or an open slot's txs wait for it).
   */
  startClock(slotMs: number): void {
    this.slots.startClock(slotMs);
  }

  stopClock(): void {
    this.slots.stopClock();
  }

  /** Whether the clock's timer is armed (tests: an idle chain runs none). */
  get clockArmed(): boolean {
    return this.slots.clockArmed;
  }

  /** Closes the current slot now (after any the clock has due): a new blockhash, the clock moves on. */
  advanceSlot(): void {
    this.slots.advanceSlot();
  }

  /** The blockhash and start time (ms) of slot `slot`, while it is in the window. */
  slotInfo(slot: bigint): { blockhash: string; timeMs: number; txs: number } | undefined {
    return this.slots.slotInfo(slot);
  }

  latestBlockhash(): { blockhash: string; lastValidBlockHeight: bigint } {
    return this.slots.latestBlockhash();
  }

  /** Valid while fewer than 150 newer blockhashes exist (as on Solana). */
  isBlockhashValid(blockhash: string): boolean {
    return this.slots.isBlockhashValid(blockhash);
  }

  /**
   * `l` hears of each slot closed, in order (`more`: further slots close in the same catch-up). A
   * `live` listener hears of it as it closes (a timer runs while one exists); others may hear of a
   * run of slots at the next read, and of the empty slots of a long run only through `onSkip`.
   */
  onSlot(l: SlotListener, opts: { live?: boolean } = {}): () => void {
    return this.slots.onSlot(l, opts);
  }

  /** `l` hears of a run of empty slots closed in one step (a long idle stretch; slots.ts). */
  onSkip(l: SkipListener): () => void {
    return this.slots.onSkip(l);
  }

  onTransaction(l: (r: SvmTxRecord) => void): () => void {
    this.txListeners.add(l);
    return () => this.txListeners.delete(l);
  }

  // ── transactions ──

  /**
   * Checks and executes signed wire bytes (run-tx.ts); a tx that fails on chain is recorded (it paid its fee).
   * No slot closes meanwhile: the tx is recorded in the slot whose blockhash and Clock it ran with.
   */
  send(wire: Uint8Array): SvmTxRecord {
    return this.slots.hold((slot) => this.sendIn(wire, slot));
  }

  private sendIn(wire: Uint8Array, slot: bigint): SvmTxRecord {
    const decoded = decodeTx(wire);
    const { signature, blockhash, accountKeys } = decoded;
    if (this.seen.has(signature) || this.hist.get(signature))
      throw new SvmTxError('AlreadyProcessed', 'Transaction simulation failed: This transaction has already been processed');
    if (!this.isBlockhashValid(blockhash)) throw new SvmTxError('BlockhashNotFound', 'Transaction simulation failed: Blockhash not found');
    const rec = runTx(this.svm, decoded, wire, slot, this.now);
    this.seen.set(signature, slot);
    this.remember(rec);
    for (const k of accountKeys) {
      this.tokens.index(k);
      this.known.add(k);
    }
    for (const l of this.txListeners) l(rec);
    return rec;
  }

  /** Runs without committing (simulateTransaction); `sigVerify` false skips signature checks. */
  simulate(wire: Uint8Array): { err: TxErrorJson | null; logs: string[]; unitsConsumed: bigint } {
    const { tx, blockhash } = decodeTx(wire);
    if (!this.isBlockhashValid(blockhash)) return { err: 'BlockhashNotFound', logs: [], unitsConsumed: 0n };
    const r = this.svm.simulateTransaction(tx);
    if ('err' in r) return { err: txErrorJson(r.err()), logs: r.meta().logs(), unitsConsumed: r.meta().computeUnitsConsumed() };
    const m = r.meta();
    return { err: null, logs: m.logs(), unitsConsumed: m.computeUnitsConsumed() };
  }

  /** Credits `to` (requestAirdrop), recorded in the open slot as `send` records a tx. */
  airdrop(to: string, amount: bigint): string {
    return this.slots.hold((slot) => this.airdropIn(to, amount, slot));
  }
  private airdropIn(to: string, amount: bigint, slot: bigint): string {
    const rec = creditAirdrop(this.svm, to, amount, slot, this.hist.size, this.now);
    this.known.add(to);
    this.remember(rec);
    for (const l of this.txListeners) l(rec);
    return rec.signature;
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
    return this.tokens.accountsOf(owner);
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

  private remember(rec: SvmTxRecord): void {
    this.hist.add(rec);
    // The open slot now holds a tx: its block closes on time.
    this.slots.armIfWanted();
  }

  /** Forgets the signatures older than the replay window (they are checked by blockhash from then on). */
  private pruneSeen(oldest: bigint): void {
    for (const [sig, s] of this.seen) {
      if (s >= oldest) break;
      this.seen.delete(sig);
    }
  }
}
