/**
 * The mempool: CometBFT's check/commit semantics with geth's per-sender nonce ordering.
 *
 *   checkTx(tx) ──lock──> full (and nothing queued)? ─> too large? ─> seen cache? ─> app.checkTx{New}
 *                              │ code ≠ 0: returned, tx leaves the cache
 *                              └ ok: insert by sender/nonce (same nonce: price-bump replacement)
 *                                    full: an executable tx evicts queued ones, a queued tx is refused
 *                                    queued: over accountQueue / globalQueue the furthest-future goes
 *                                    ─> onNewTx, onTxsAvailable (first pending tx this height)
 *
 *   executor: lock() ─> app.commit() ─> update(height, txs, results) ─> release
 *      update: committed txs → cache, out of the pool, sender nonces advance;
 *              recheck{Recheck} the rest in admission order, dropping failures;
 *              onTxsAvailable if pending txs remain.
 *
 *   reapMaxBytesMaxGas: pending txs only, by priority across senders, by nonce within one.
 */
import type { Logger } from 'pino';
import { silentLogger } from '../util/logger.js';
import type { AppConnMempool } from '../abci/application.js';
import { CheckTxType, CodeTypeOK, type ExecTxResult, type ResponseCheckTx } from '../abci/types.js';
import { createTxCache, type TxCache } from './cache.js';
import {
  CODE_REPLACEMENT_UNDERPRICED,
  MEMPOOL_CODESPACE,
  MempoolNotLockedError,
  REPLACEMENT_UNDERPRICED_LOG,
  TxInCacheError,
  TxTooLargeError,
} from './errors.js';
import { txHash } from '../types/txs.js';
import { AsyncMutex } from './mutex.js';
import { Listeners } from './listeners.js';
import { hexKey, TxPool } from './pool.js';
import { PoolRoom } from './pool-room.js';
import { reapPending } from './reap.js';
import { meetsPriceBump } from './replacement.js';
import { isEvmSender, NON_EVM_SENDER_PREFIX, type MempoolConfig, type MempoolContent, type MempoolTx } from './types.js';

export { DEFAULT_MEMPOOL_CONFIG, type MempoolConfig, type MempoolContent, type MempoolTx } from './types.js';

export interface MempoolOptions {
  logger?: Logger;
}

/** What a first-time check produced: the app's (or the mempool's) answer, and the admitted tx. */
interface CheckOutcome {
  res: ResponseCheckTx;
  admitted?: MempoolTx;
}

export class Mempool {
  private readonly config: Required<MempoolConfig>;
  private readonly log: Logger;
  private readonly pool = new TxPool();
  private readonly cache: TxCache;
  private readonly room: PoolRoom;
  private readonly mutex = new AsyncMutex();
  private readonly txsAvailable: Listeners<[]>;
  private readonly newTx: Listeners<[MempoolTx]>;
  /** Every CheckTx outcome (new txs and rechecks): metrics. */
  private readonly checked: Listeners<[ResponseCheckTx, number, CheckTxType]>;
  private height = 0;
  private nextSeq = 0;
  /** CometBFT's notifiedTxsAvailable: at most one TxsAvailable per height. */
  private notifiedTxsAvailable = false;

  constructor(
    private readonly app: AppConnMempool,
    config: MempoolConfig,
    opts: MempoolOptions = {},
  ) {
    this.config = { keepInvalidTxsInCache: false, accountQueue: 64, globalQueue: 1024, ...config };
    this.cache = createTxCache(config.cacheSize);
    this.log = opts.logger ?? silentLogger();
    this.room = new PoolRoom(this.pool, this.cache, this.config, this.log);
    this.txsAvailable = new Listeners(this.log, 'txs-available');
    this.newTx = new Listeners(this.log, 'new-tx');
    this.checked = new Listeners(this.log, 'checked');
  }

  // ── admission ────────────────────────────────────────────────────────────────────────────

  /**
   * Checks `tx` and admits it if the app accepts it. Throws the pre-check errors
   * (MempoolFullError, TxTooLargeError, TxInCacheError); an app rejection or an underpriced
   * replacement comes back as a response with a non-zero code.
   */
  async checkTx(tx: Uint8Array): Promise<ResponseCheckTx> {
    const release = await this.mutex.acquire();
    let outcome: CheckOutcome;
    try {
      outcome = await this.checkNewTx(tx);
    } finally {
      release();
    }
    // Listeners run after the lock is released, so one may start a block right away.
    this.checked.emit(outcome.res, tx.length, CheckTxType.New);
    if (outcome.admitted) {
      this.newTx.emit(outcome.admitted);
      this.notifyTxsAvailable();
    }
    return outcome.res;
  }

  private async checkNewTx(tx: Uint8Array): Promise<CheckOutcome> {
    // Cheap checks first, in CometBFT's order: full, too large, seen. A full pool that holds queued
    // txs may still take an executable one, which only the app's answer tells.
    if (this.room.isFull(tx.length) && !this.hasQueued()) throw this.room.fullError();
    if (tx.length > this.config.maxTxBytes) {
      throw new TxTooLargeError({ max: this.config.maxTxBytes, actual: tx.length });
    }
    const hash = txHash(tx);
    const key = hexKey(hash);
    if (!this.cache.push(key)) throw new TxInCacheError();

    let res: ResponseCheckTx;
    try {
      res = await this.app.checkTx({ tx, type: CheckTxType.New });
    } catch (err) {
      this.cache.remove(key);
      throw err;
    }
    if (res.code !== CodeTypeOK) {
      this.uncacheInvalid(key);
      this.log.debug({ tx: key, code: res.code, log: res.log }, 'rejected invalid transaction');
      return { res };
    }
    if (this.pool.hasKey(key)) {
      // Only reachable with the cache disabled; CometBFT also answers OK and keeps one copy.
      this.log.debug({ tx: key }, 'transaction already in mempool, not adding it again');
      return { res };
    }
    return this.insert(tx, hash, key, res);
  }

  /** The pool entry for an accepted tx; a tx without sender/nonce becomes its own FIFO sender. */
  private toEntry(tx: Uint8Array, hash: Uint8Array, key: string, res: ResponseCheckTx): MempoolTx {
    const evm = res.sender !== undefined && res.nonce !== undefined;
    return {
      tx,
      hash,
      ...(res.ethHash ? { ethHash: res.ethHash } : {}),
      sender: evm ? res.sender!.toLowerCase() : NON_EVM_SENDER_PREFIX + key,
      nonce: evm ? res.nonce! : 0n,
      priority: res.priority ?? 0n,
      maxFeePerGas: res.maxFeePerGas ?? 0n,
      gasWanted: res.gasWanted,
      addedAt: Date.now(),
      seq: this.nextSeq++,
    };
  }

  private insert(tx: Uint8Array, hash: Uint8Array, key: string, res: ResponseCheckTx): CheckOutcome {
    const entry = this.toEntry(tx, hash, key, res);
    const { sender, nonce } = entry;
    const queue = this.pool.queue(sender);
    if (queue && res.senderStateNonce !== undefined) {
      this.drop(queue.setStateNonce(res.senderStateNonce), 'nonce too low');
    }
    const stateNonce = res.senderStateNonce ?? queue?.stateNonce ?? nonce;
    if (nonce < stateNonce) {
      // The app should have refused it; admitting it would block the sender's queue forever.
      this.log.warn({ tx: key, sender, nonce: String(nonce), stateNonce: String(stateNonce) }, 'app accepted a tx below the sender nonce; not admitted');
      this.pool.pruneSender(sender);
      return { res };
    }

    const existing = queue?.get(nonce);
    if (existing) {
      if (!meetsPriceBump(existing, entry)) {
        this.uncacheInvalid(key);
        this.log.debug({ tx: key, sender, nonce: String(nonce) }, REPLACEMENT_UNDERPRICED_LOG);
        const log = REPLACEMENT_UNDERPRICED_LOG;
        return { res: { ...res, code: CODE_REPLACEMENT_UNDERPRICED, codespace: MEMPOOL_CODESPACE, log } };
      }
    }
    // Executable: extends (or replaces within) the sender's pending run; later nonces wait as queued.
    const executable = !isEvmSender(sender) || nonce <= (queue?.nextNonce() ?? stateNonce);
    if (!this.room.makeRoom(entry, existing, executable)) {
      this.cache.remove(key); // the pool may have room later
      this.pool.pruneSender(sender);
      throw this.room.fullError();
    }

    const replaced = this.pool.add(entry, stateNonce);
    if (!executable && !replaced) {
      const refused = this.room.trimAccount(this.pool.queue(sender)!, entry) ?? this.room.trimGlobal(entry);
      if (refused) {
        this.cache.remove(key); // refused for room, not as invalid: it may be sent again later
        this.log.debug({ tx: key, sender, nonce: String(nonce) }, `refused queued transaction: ${refused.log}`);
        return { res: { ...res, ...refused, codespace: MEMPOOL_CODESPACE } };
      }
    }
    if (replaced) this.log.debug({ old: hexKey(replaced.hash), tx: key, sender }, 'replaced transaction');
    else this.log.debug({ tx: key, sender, height: this.height, total: this.pool.count }, 'added valid transaction');
    return { res, admitted: entry };
  }

  // ── block execution side ─────────────────────────────────────────────────────────────────

  /** The mempool lock; the executor holds it over app Commit + update(). */
  lock(): Promise<() => void> {
    return this.mutex.acquire();
  }

  /**
   * After a block is committed (caller holds lock()): committed txs go to the cache and leave the
   * pool, their senders' nonces advance, then the remaining txs are rechecked in admission order.
   */
  async update(height: number, txs: Uint8Array[], results: ExecTxResult[]): Promise<void> {
    if (!this.mutex.locked) throw new MempoolNotLockedError();
    if (results.length !== txs.length) {
      throw new RangeError(`update: ${txs.length} txs but ${results.length} results`);
    }
    this.height = height;
    this.notifiedTxsAvailable = false;

    txs.forEach((tx, i) => {
      const key = hexKey(txHash(tx));
      const ok = results[i]!.code === CodeTypeOK;
      if (ok) this.cache.push(key);
      else this.uncacheInvalid(key);
      const removed = this.pool.removeByKey(key);
      if (!removed || !ok || !isEvmSender(removed.sender)) return;
      const queue = this.pool.queue(removed.sender);
      if (queue) {
        this.drop(queue.advanceStateNonce(removed.nonce + 1n), 'nonce too low');
        this.pool.pruneSender(removed.sender);
      }
    });

    if (this.config.recheck) await this.recheckTxs();
    // A tx dropped from a pending run turns the sender's later txs into queued ones.
    for (const q of [...this.pool.queues()]) this.room.trimAccount(q);
    this.room.trimGlobal();
    this.log.debug({ height, size: this.pool.count }, 'mempool updated');
    this.notifyTxsAvailable();
  }

  private async recheckTxs(): Promise<void> {
    for (const t of this.pool.bySeq()) {
      const key = hexKey(t.hash);
      let res: ResponseCheckTx | undefined;
      try {
        res = await this.app.checkTx({ tx: t.tx, type: CheckTxType.Recheck });
      } catch (err) {
        this.log.error({ err, tx: key }, 'recheck failed; dropping tx');
      }
      if (res !== undefined) this.checked.emit(res, t.tx.length, CheckTxType.Recheck);
      if (this.pool.find(t.hash) !== t) continue; // dropped meanwhile (stale nonce, removeTx, flush)
      if (res === undefined || res.code !== CodeTypeOK) {
        this.pool.removeByKey(key);
        this.uncacheInvalid(key);
        this.log.debug({ tx: key, code: res?.code, log: res?.log }, 'tx is no longer valid');
        continue;
      }
      t.priority = res.priority ?? t.priority;
      t.maxFeePerGas = res.maxFeePerGas ?? t.maxFeePerGas;
      t.gasWanted = res.gasWanted;
      const queue = this.pool.queue(t.sender);
      if (queue && res.senderStateNonce !== undefined && isEvmSender(t.sender)) {
        this.drop(queue.setStateNonce(res.senderStateNonce), 'nonce too low');
        this.pool.pruneSender(t.sender);
      }
    }
  }

  // ── reads ────────────────────────────────────────────────────────────────────────────────

  /** Executable txs for a proposal, within the block's byte and gas budget (-1 = no limit). */
  reapMaxBytesMaxGas(maxBytes: number, maxGas: number): Uint8Array[] {
    return reapPending(this.pool.queues(), maxBytes, maxGas).map((t) => t.tx);
  }

  /** Up to `max` txs (-1 = all): pending in block order, then queued. */
  reapMaxTxs(max: number): Uint8Array[] {
    const all = [...reapPending(this.pool.queues()), ...this.pool.queued()];
    return (max < 0 ? all : all.slice(0, max)).map((t) => t.tx);
  }

  size(): number {
    return this.pool.count;
  }

  sizeBytes(): number {
    return this.pool.totalBytes;
  }

  /** By sha256 hash or EVM hash. */
  has(hash: Uint8Array): boolean {
    return this.pool.find(hash) !== undefined;
  }

  /** By sha256 hash or EVM hash. */
  get(hash: Uint8Array): MempoolTx | undefined {
    return this.pool.find(hash);
  }

  content(): MempoolContent {
    return this.pool.content();
  }

  /** Whether any tx is executable now; cheap (no reaping, no copies), for block producers. */
  hasPending(): boolean {
    return this.pool.hasPending();
  }

  /** Whether any tx waits behind a nonce gap: a full pool still takes an executable tx then. */
  hasQueued(): boolean {
    for (const q of this.pool.queues()) if (q.queuedCount() > 0) return true;
    return false;
  }

  /** The nonce after `sender`'s executable txs (lower-case 0x); undefined when it has none. */
  pendingNonce(sender: string): bigint | undefined {
    const q = this.pool.queue(sender);
    const n = q?.pendingCount() ?? 0;
    return n === 0 ? undefined : q!.all()[n - 1]!.nonce + 1n;
  }

  // ── control ──────────────────────────────────────────────────────────────────────────────

  /** unsafe_flush_mempool: empties the pool and the cache. */
  flush(): void {
    this.pool.clear();
    this.cache.reset();
    this.notifiedTxsAvailable = false; // the next executable tx is the first again
  }

  /** anvil_dropTransaction: removes a tx by sha256 or EVM hash; it may then be sent again. */
  removeTx(hashOrEthHash: Uint8Array): boolean {
    const t = this.pool.find(hashOrEthHash);
    if (!t) return false;
    const key = hexKey(t.hash);
    this.pool.removeByKey(key);
    this.cache.remove(key);
    if (!this.pool.hasPending()) this.notifiedTxsAvailable = false; // the next executable tx is the first again
    return true;
  }

  /**
   * CometBFT's TxsAvailable, used by automine: at most once per height, when the pool first has an
   * executable tx, and after update() if executable txs remain.
   */
  onTxsAvailable(listener: () => void): () => void {
    return this.txsAvailable.add(listener);
  }

  /** Called after each CheckTx (new or recheck) with the app's answer and the tx size. */
  onChecked(listener: (res: ResponseCheckTx, size: number, type: CheckTxType) => void): () => void {
    return this.checked.add(listener);
  }

  /** Every admitted tx, queued ones included (eth newPendingTransactions). */
  onNewTx(listener: (t: MempoolTx) => void): () => void {
    return this.newTx.add(listener);
  }

  // ── helpers ──────────────────────────────────────────────────────────────────────────────

  /** A tx the app (or the replacement rule) refused may be tried again, unless configured not to. */
  private uncacheInvalid(key: string): void {
    if (!this.config.keepInvalidTxsInCache) this.cache.remove(key);
  }

  /** Forgets txs already cut from their sender queue (their nonce fell below the state nonce). */
  private drop(dropped: MempoolTx[], reason: string): void {
    if (dropped.length === 0) return;
    this.pool.forget(dropped);
    for (const t of dropped) {
      const key = hexKey(t.hash);
      this.uncacheInvalid(key);
      this.log.debug({ tx: key, sender: t.sender, nonce: String(t.nonce) }, `dropped tx: ${reason}`);
    }
  }

  private notifyTxsAvailable(): void {
    if (this.notifiedTxsAvailable || !this.pool.hasPending()) return;
    this.notifiedTxsAvailable = true;
    this.txsAvailable.emit();
  }
}
