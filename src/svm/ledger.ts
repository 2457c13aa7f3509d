/**
 * An SVM chain on LiteSVM: LiteSVM executes; this module provides what a validator adds around it
 * (REFERENCE-SVM "What LiteSVM leaves to the host"):
 *
 *   slots      advance on the network's clock (`advanceSlot`, a timer in svm-chain.ts, or `mine`);
 *              each slot gets a new blockhash, the Clock sysvar's slot, epoch and unix time
 *   blockhash  the last 150 are valid (`BlockhashNotFound` otherwise); LiteSVM's own check is off
 *   replay     every signature is remembered for the window (`AlreadyProcessed`)
 *   records    per tx: slot, block time, fee, pre/post balances, logs, compute units, error
 *   tokens     an owner index of SPL token accounts, kept as txs write them
 *
 * Genesis: the dev mnemonic's Solana accounts (m/44'/501'/i'/0') hold SOL, and a USDC-like mint with
 * 6 decimals gives each of them tokens in its associated token account.
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
import { ASSOCIATED_TOKEN_PROGRAM_ADDRESS, findAssociatedTokenPda, TOKEN_PROGRAM_ADDRESS } from '@solana-program/token';
import { createHash } from 'node:crypto';
import { deriveSolanaAccounts, keypairFromSeed, type SolanaKeypair } from './keys.js';
import { txErrorJson, type TxErrorJson } from './tx-errors.js';

export const LAMPORTS_PER_SIGNATURE = 5000n;
export const BLOCKHASH_WINDOW = 150;
export const SLOTS_PER_EPOCH = 432_000n;
const SYSTEM_PROGRAM = '11111111111111111111111111111111';
const TOKEN_ACCOUNT_SIZE = 165;
const MINT_SIZE = 82;

const b58 = getBase58Codec();

export class SvmTxError extends Error {
  override name = 'SvmTxError';
  constructor(
    readonly err: TxErrorJson,
    message: string,
  ) {
    super(message);
  }
}

export interface SvmTxRecord {
  signature: string;
  slot: bigint;
  blockTime: bigint;
  wire: Uint8Array;
  fee: bigint;
  accountKeys: string[];
  preBalances: bigint[];
  postBalances: bigint[];
  logs: string[];
  computeUnits: bigint;
  err: TxErrorJson | null;
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
}

interface SignatureSeen {
  slot: bigint;
}

export class SvmLedger {
  readonly svm: LiteSVM;
  readonly devAccounts: SolanaKeypair[];
  readonly mint: string;
  readonly genesisHash: string;
  slot = 0n;
  blockHeight = 0n;
  private readonly now: () => number;
  /** blockhash → slot, newest last; at most BLOCKHASH_WINDOW + 1. */
  private readonly blockhashes = new Map<string, bigint>();
  private latest = '';
  private readonly slotTimes = new Map<bigint, number>();
  private readonly slotTxs = new Map<bigint, number>();
  /** Every account the genesis, a tx or an airdrop wrote (what `save` writes). */
  private readonly known = new Set<string>();
  private readonly seen = new Map<string, SignatureSeen>();
  private readonly records = new Map<string, SvmTxRecord>();
  private readonly maxRecords = 100_000;
  /** owner → token account addresses. */
  private readonly tokenOwners = new Map<string, Set<string>>();
  private readonly slotListeners = new Set<(slot: bigint) => void>();
  private readonly txListeners = new Set<(r: SvmTxRecord) => void>();

  private constructor(svm: LiteSVM, devAccounts: SolanaKeypair[], mint: string, now: () => number, saved?: SvmLedgerState) {
    this.svm = svm;
    this.devAccounts = devAccounts;
    this.mint = mint;
    this.now = now;
    this.latest = svm.latestBlockhash();
    if (saved) {
      this.genesisHash = saved.genesisHash;
      this.slot = BigInt(saved.slot);
      this.blockHeight = BigInt(saved.blockHeight);
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
    for (const a of saved.accounts) {
      const data = Uint8Array.from(Buffer.from(a.data, 'base64'));
      svm.setAccount({ address: a.address as Address, lamports: lamports(BigInt(a.lamports)), programAddress: a.owner as Address, executable: a.executable, space: BigInt(data.length), data });
    }
    const devAccounts = deriveSolanaAccounts(o.mnemonic, o.accounts ?? 10);
    return new SvmLedger(svm, devAccounts, saved.mint, o.now ?? Date.now, saved);
  }

  /** The chain's state as JSON-friendly values (LiteSVM 1.4 has no snapshot of its own). */
  save(): SvmLedgerState {
    const blockhashes: [string, string, number][] = [...this.blockhashes].map(([h, s]) => [h, s.toString(), this.slotTimes.get(s) ?? this.now()]);
    const accounts: SvmSavedAccount[] = [];
    for (const address of this.known) {
      const a = this.account(address);
      if (a && !a.executable) accounts.push({ address, lamports: a.lamports.toString(), owner: a.owner, executable: a.executable, data: Buffer.from(a.data).toString('base64') });
    }
    const seen: [string, string][] = [...this.seen].map(([sig, v]) => [sig, v.slot.toString()]);
    return { genesisHash: this.genesisHash, mint: this.mint, slot: this.slot.toString(), blockHeight: this.blockHeight.toString(), blockhashes, accounts, seen };
  }

  static async create(o: SvmLedgerOptions): Promise<SvmLedger> {
    const svm = new LiteSVM().withBlockhashCheck(false);
    const devAccounts = deriveSolanaAccounts(o.mnemonic, o.accounts ?? 10);
    const mintKey = keypairFromSeed(createHash('sha256').update('chainlet usdc mint').digest());
    const ledger = new SvmLedger(svm, devAccounts, mintKey.address, o.now ?? Date.now);
    const sol = o.lamportsPerAccount ?? 1000n * 1_000_000_000n;
    const tokens = o.tokensPerAccount ?? 1_000_000n * 1_000_000n;
    for (const a of devAccounts) {
      svm.setAccount({ address: a.address as Address, lamports: lamports(sol), programAddress: SYSTEM_PROGRAM as Address, executable: false, space: 0n, data: new Uint8Array(0) });
      ledger.known.add(a.address);
    }
    // The mint: authority = dev account 0, supply = what the dev accounts hold.
    const mint = new Uint8Array(MINT_SIZE);
    const dv = new DataView(mint.buffer);
    dv.setUint32(0, 1, true);
    mint.set(devAccounts[0]!.publicKey, 4);
    dv.setBigUint64(36, tokens * BigInt(devAccounts.length), true);
    mint[44] = 6;
    mint[45] = 1;
    svm.setAccount({ address: mintKey.address as Address, lamports: lamports(svm.minimumBalanceForRentExemption(BigInt(MINT_SIZE))), programAddress: TOKEN_PROGRAM_ADDRESS, executable: false, space: BigInt(MINT_SIZE), data: mint });
    ledger.known.add(mintKey.address);
    for (const a of devAccounts) {
      const [ata] = await findAssociatedTokenPda({ mint: mintKey.address as Address, owner: a.address as Address, tokenProgram: TOKEN_PROGRAM_ADDRESS });
      const acct = new Uint8Array(TOKEN_ACCOUNT_SIZE);
      acct.set(mintKey.publicKey, 0);
      acct.set(a.publicKey, 32);
      new DataView(acct.buffer).setBigUint64(64, tokens, true);
      acct[108] = 1; // AccountState::Initialized
      svm.setAccount({ address: ata, lamports: lamports(svm.minimumBalanceForRentExemption(BigInt(TOKEN_ACCOUNT_SIZE))), programAddress: TOKEN_PROGRAM_ADDRESS, executable: false, space: BigInt(TOKEN_ACCOUNT_SIZE), data: acct });
      ledger.indexTokenAccount(ata);
      ledger.known.add(ata);
    }
    return ledger;
  }

  // ── slots and blockhashes ──

  /** Closes the current slot: a new blockhash (the oldest leaves the window), the clock moves on. */
  advanceSlot(): void {
    this.slot += 1n;
    this.blockHeight += 1n;
    this.svm.expireBlockhash();
    this.latest = this.svm.latestBlockhash();
    this.blockhashes.set(this.latest, this.slot);
    this.slotTimes.set(this.slot, this.now());
    while (this.blockhashes.size > BLOCKHASH_WINDOW + 1) this.blockhashes.delete(this.blockhashes.keys().next().value!);
    while (this.slotTimes.size > BLOCKHASH_WINDOW + 1) this.slotTimes.delete(this.slotTimes.keys().next().value!);
    for (const k of this.slotTxs.keys()) if (k < this.slot - BigInt(BLOCKHASH_WINDOW)) this.slotTxs.delete(k);
    const oldest = this.slot - BigInt(BLOCKHASH_WINDOW) - 1n;
    for (const [sig, s] of this.seen) {
      if (s.slot >= oldest) break;
      this.seen.delete(sig);
    }
    this.setClock();
    for (const l of this.slotListeners) l(this.slot);
  }

  /** The blockhash and start time (ms) of slot `slot`, while it is in the window. */
  slotInfo(slot: bigint): { blockhash: string; timeMs: number; txs: number } | undefined {
    for (const [h, s] of this.blockhashes) if (s === slot) return { blockhash: h, timeMs: this.slotTimes.get(slot) ?? this.now(), txs: this.slotTxs.get(slot) ?? 0 };
    return undefined;
  }

  latestBlockhash(): { blockhash: string; lastValidBlockHeight: bigint } {
    return { blockhash: this.latest, lastValidBlockHeight: this.blockHeight + BigInt(BLOCKHASH_WINDOW) };
  }

  /** Valid while fewer than 150 newer blockhashes exist (as on Solana). */
  isBlockhashValid(blockhash: string): boolean {
    const s = this.blockhashes.get(blockhash);
    return s !== undefined && this.slot - s <= BigInt(BLOCKHASH_WINDOW);
  }

  onSlot(l: (slot: bigint) => void): () => void {
    this.slotListeners.add(l);
    return () => this.slotListeners.delete(l);
  }

  onTransaction(l: (r: SvmTxRecord) => void): () => void {
    this.txListeners.add(l);
    return () => this.txListeners.delete(l);
  }

  // ── transactions ──

  /** Checks and executes signed wire bytes; a tx that fails on chain is recorded (it paid its fee). */
  send(wire: Uint8Array): SvmTxRecord {
    const { tx, signature, blockhash, accountKeys } = this.decode(wire);
    if (this.seen.has(signature) || this.records.has(signature)) throw new SvmTxError('AlreadyProcessed', 'Transaction simulation failed: This transaction has already been processed');
    if (!this.isBlockhashValid(blockhash)) throw new SvmTxError('BlockhashNotFound', 'Transaction simulation failed: Blockhash not found');
    const pre = accountKeys.map((k) => this.balance(k));
    const result = this.svm.sendTransaction(tx);
    const failed = 'err' in result;
    if (failed) {
      const err = txErrorJson(result.err());
      // Errors before execution (signature, fee payer funds) charge nothing and are not recorded.
      if (typeof err === 'string' && err !== 'InsufficientFundsForRent') throw new SvmTxError(err, `Transaction simulation failed: ${err}`);
    }
    const meta = failed ? result.meta() : result;
    const post = accountKeys.map((k) => this.balance(k));
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
    const { tx, blockhash } = this.decode(wire);
    if (!this.isBlockhashValid(blockhash)) return { err: 'BlockhashNotFound', logs: [], unitsConsumed: 0n };
    const r = this.svm.simulateTransaction(tx);
    if ('err' in r) return { err: txErrorJson(r.err()), logs: r.meta().logs(), unitsConsumed: r.meta().computeUnitsConsumed() };
    const m = r.meta();
    return { err: null, logs: m.logs(), unitsConsumed: m.computeUnitsConsumed() };
  }

  airdrop(to: string, amount: bigint): string {
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
    const signature = b58.decode(createHash('sha512').update(`airdrop ${to} ${amount} ${this.slot} ${this.records.size}`).digest());
    const rec: SvmTxRecord = { signature, slot: this.slot, blockTime: BigInt(Math.floor(this.now() / 1000)), wire: new Uint8Array(0), fee: 0n, accountKeys: [to], preBalances: [before], postBalances: [before + amount], logs: [], computeUnits: 0n, err: null };
    this.remember(rec);
    for (const l of this.txListeners) l(rec);
    return signature;
  }

  transaction(signature: string): SvmTxRecord | undefined {
    return this.records.get(signature);
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

  private decode(wire: Uint8Array): { tx: Transaction; signature: string; blockhash: string; accountKeys: string[] } {
    let tx: Transaction;
    let msg: { staticAccounts: readonly string[]; lifetimeToken: string };
    try {
      tx = getTransactionDecoder().decode(wire);
      msg = getCompiledTransactionMessageDecoder().decode(tx.messageBytes) as unknown as { staticAccounts: readonly string[]; lifetimeToken: string };
    } catch (e) {
      throw new SvmTxError('SanitizeFailure', `failed to deserialize the transaction: ${(e as Error).message}`);
    }
    const first = Object.values(tx.signatures)[0];
    if (!first) throw new SvmTxError('MissingSignatureForFee', 'Transaction simulation failed: Transaction did not pass signature verification');
    return { tx, signature: b58.decode(first), blockhash: msg.lifetimeToken, accountKeys: [...msg.staticAccounts] };
  }

  private remember(rec: SvmTxRecord): void {
    this.records.set(rec.signature, rec);
    this.slotTxs.set(rec.slot, (this.slotTxs.get(rec.slot) ?? 0) + 1);
    if (this.records.size > this.maxRecords) this.records.delete(this.records.keys().next().value!);
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
    c.slot = this.slot;
    c.epoch = this.slot / SLOTS_PER_EPOCH;
    c.unixTimestamp = unix;
    this.svm.setClock(c);
  }
}

/** SPL token account fields (jsonParsed). */
export function parseTokenAccount(data: Uint8Array): { mint: string; owner: string; amount: bigint; state: number; isNative: boolean } | undefined {
  if (data.length !== TOKEN_ACCOUNT_SIZE) return undefined;
  const dv = new DataView(data.buffer, data.byteOffset, data.byteLength);
  return { mint: b58.decode(data.subarray(0, 32)), owner: b58.decode(data.subarray(32, 64)), amount: dv.getBigUint64(64, true), state: data[108]!, isNative: dv.getUint32(109, true) === 1 };
}

export function parseMint(data: Uint8Array): { supply: bigint; decimals: number; mintAuthority: string | null; freezeAuthority: string | null; isInitialized: boolean } | undefined {
  if (data.length !== MINT_SIZE) return undefined;
  const dv = new DataView(data.buffer, data.byteOffset, data.byteLength);
  return {
    mintAuthority: dv.getUint32(0, true) === 1 ? b58.decode(data.subarray(4, 36)) : null,
    supply: dv.getBigUint64(36, true),
    decimals: data[44]!,
    isInitialized: data[45] === 1,
    freezeAuthority: dv.getUint32(46, true) === 1 ? b58.decode(data.subarray(50, 82)) : null,
  };
}
