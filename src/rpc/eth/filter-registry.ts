/**
 * Polling filters (eth_newBlockFilter, eth_newPendingTransactionFilter, eth_newFilter): each
 * filter buffers what happened since its last poll. The registry listens to new blocks and new
 * pending txs only while at least one filter exists, and a sweep (unref'd timer, also only
 * while filters exist) removes filters not polled for `filter-timeout`.
 */
import type { EvmBlock, EvmReceipt, EvmView } from '../../app/views/evm-view.js';
import type { EthFilters, EthTxPool, FilterKind } from './env.js';
import { ServerError } from './errors.js';
import type { Json } from './format.js';
import { data } from './hex.js';
import { newId } from './ids.js';
import { blockLogs, bloomTester, boundHeight, type LogCriteria } from './log-filter.js';

interface Filter {
  kind: FilterKind;
  lastPoll: number;
  /** Block hashes, tx hashes, or formatted logs since the last poll. */
  buffer: unknown[];
  criteria?: LogCriteria;
  bloomTest?: (bloom: Uint8Array) => boolean;
}

/** A filter never polled keeps at most this many entries (oldest dropped). */
const MAX_BUFFER = 10_000;

export class FilterRegistry implements EthFilters {
  private readonly filters = new Map<string, Filter>();
  private unsubscribe: (() => void)[] = [];
  private sweep: NodeJS.Timeout | undefined;

  constructor(
    private readonly view: EvmView,
    private readonly txpool: EthTxPool,
    private readonly opts: { timeoutMs: number; cap: number },
  ) {}

  install(kind: FilterKind, criteria?: LogCriteria): string {
    if (this.opts.cap > 0 && this.filters.size >= this.opts.cap) throw new ServerError(`error creating ${kind} filter: max limit reached`);
    const id = newId();
    this.filters.set(id, {
      kind,
      lastPoll: Date.now(),
      buffer: [],
      ...(criteria ? { criteria, bloomTest: bloomTester(criteria) } : {}),
    });
    this.start();
    return id;
  }

  /** The filter, marked as polled now; undefined when unknown or expired. */
  get(id: string): { kind: FilterKind; criteria?: LogCriteria } | undefined {
    return this.touch(id);
  }

  /** Everything buffered since the last poll (eth_getFilterChanges). */
  takeChanges(id: string): unknown[] | undefined {
    const f = this.touch(id);
    if (!f) return undefined;
    const out = f.buffer;
    f.buffer = [];
    return out;
  }

  uninstall(id: string): boolean {
    const ok = this.filters.delete(id.toLowerCase());
    if (this.filters.size === 0) this.stop();
    return ok;
  }

  get size(): number {
    return this.filters.size;
  }

  close(): void {
    this.filters.clear();
    this.stop();
  }

  /** A live filter, marked as polled now; one idle past the timeout is removed even before the sweep. */
  private touch(id: string): Filter | undefined {
    const key = id.toLowerCase();
    const f = this.filters.get(key);
    if (!f) return undefined;
    const now = Date.now();
    if (now - f.lastPoll > this.opts.timeoutMs) {
      this.uninstall(key);
      return undefined;
    }
    f.lastPoll = now;
    return f;
  }

  private start(): void {
    if (this.unsubscribe.length > 0) return;
    this.unsubscribe = [this.view.onBlock((b, r) => this.onBlock(b, r)), this.txpool.onNewTx((h) => this.onPendingTx(h))];
    const every = Math.max(50, Math.min(this.opts.timeoutMs, 30_000));
    this.sweep = setInterval(() => this.expire(), every);
    this.sweep.unref();
  }

  private stop(): void {
    for (const u of this.unsubscribe) u();
    this.unsubscribe = [];
    if (this.sweep) clearInterval(this.sweep);
    this.sweep = undefined;
  }

  private expire(): void {
    const deadline = Date.now() - this.opts.timeoutMs;
    for (const [id, f] of this.filters) if (f.lastPoll < deadline) this.filters.delete(id);
    if (this.filters.size === 0) this.stop();
  }

  private onBlock(block: EvmBlock, receipts: EvmReceipt[]): void {
    const hash = data(block.hash);
    for (const f of this.filters.values()) {
      if (f.kind === 'blocks') push(f, hash);
      else if (f.kind === 'logs' && f.criteria && f.bloomTest!(block.logsBloom) && inRange(f.criteria, block.number)) {
        const logs: Json[] = [];
        blockLogs(block, receipts, f.criteria, logs);
        for (const l of logs) push(f, l);
      }
    }
  }

  private onPendingTx(ethHash: Uint8Array): void {
    let hash: string | undefined;
    for (const f of this.filters.values()) {
      if (f.kind !== 'pendingTransactions') continue;
      hash ??= data(ethHash);
      push(f, hash);
    }
  }
}

function push(f: Filter, v: unknown): void {
  if (f.buffer.length >= MAX_BUFFER) f.buffer.shift();
  f.buffer.push(v);
}

/** A log filter with a numeric toBlock stops receiving after it; fromBlock in the future waits. */
function inRange(c: LogCriteria, height: number): boolean {
  if (c.blockHash) return false;
  const from = c.fromBlock?.kind === 'number' ? c.fromBlock.number : 0;
  const to = c.toBlock?.kind === 'number' ? boundHeight(c.toBlock, height) : Infinity;
  return height >= from && height <= to;
}
