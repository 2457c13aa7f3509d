/**
 * The registry behind /v2/tx/status: every tx accepted by /submit or /track, under each hash it is
 * known by (CometBFT sha256 and Ethereum keccak). A status request re-observes the chain and runs
 * the pure state machine of tx-status.ts. Bounded: past `maxRecords` the oldest records go first.
 * It lives in memory: a tx committed before it was made (a home restarted, its registry gone) is
 * registered when a status asks for it (`recall`), as if tracked again.
 */
import { toHex } from '../../crypto/encoding.js';
import type { RoutingChain, RoutingEnv } from './env.js';
import { advance, initialStatus, isTerminal, type Observation, type StatusTimeouts, type TrackedStatus } from './tx-status.js';

export const DEFAULT_MAX_TRACKED = 10_000;

export interface TrackedTx {
  /** The chain it was submitted to or tracked on. */
  readonly chain: Pick<RoutingChain, 'findTx'>;
  /** Lower-case hex of every hash the tx is known by. */
  readonly hashes: Set<string>;
  status: TrackedStatus;
}

export class TxTracker {
  private readonly byHash = new Map<string, TrackedTx>();
  /** Insertion order = age, for eviction. */
  private readonly records = new Set<TrackedTx>();
  /** The height of each chain (that gives one) when the registry was made. */
  private readonly startHeights = new Map<Pick<RoutingChain, 'findTx'>, number>();

  constructor(
    private readonly env: Pick<RoutingEnv, 'now'> & Partial<Pick<RoutingEnv, 'chains'>>,
    private readonly timeouts: StatusTimeouts,
    private readonly maxRecords = DEFAULT_MAX_TRACKED,
  ) {
    for (const c of env.chains ?? []) {
      const h = c.height?.();
      if (h !== undefined) this.startHeights.set(c, h);
    }
  }

  get size(): number {
    return this.records.size;
  }

  get(hash: Uint8Array): TrackedTx | undefined {
    return this.byHash.get(toHex(hash));
  }

  /** Registers a tx of `chain` under `hashes`; an already tracked tx keeps its record (and its clock). */
  register(chain: Pick<RoutingChain, 'findTx'>, hashes: Uint8Array[]): TrackedTx {
    const keys = hashes.map(toHex);
    let rec: TrackedTx | undefined;
    for (const k of keys) rec ??= this.byHash.get(k);
    if (!rec) {
      rec = { chain, hashes: new Set(), status: initialStatus(this.env.now()) };
      this.records.add(rec);
      this.evict();
    }
    this.index(rec, keys);
    return rec;
  }

  /**
   * Registers a tx of `chain` committed at or below the chain's height when the registry was made
   * (it may have been submitted or tracked before a restart); undefined for any other.
   */
  async recall(chain: Pick<RoutingChain, 'findTx'>, hash: Uint8Array): Promise<TrackedTx | undefined> {
    const start = this.startHeights.get(chain);
    if (start === undefined) return undefined;
    const found = await chain.findTx(hash);
    if (!found || found.height > start) return undefined;
    return this.register(chain, [found.cometHash, found.ethHash]);
  }

  private index(rec: TrackedTx, keys: string[]): void {
    for (const k of keys) {
      rec.hashes.add(k);
      this.byHash.set(k, rec);
    }
  }

  private evict(): void {
    for (const old of this.records) {
      if (this.records.size <= this.maxRecords) break;
      this.records.delete(old);
      for (const k of old.hashes) if (this.byHash.get(k) === old) this.byHash.delete(k);
    }
  }

  /** Looks at the chain again (unless the tx is settled) and returns the current status. */
  async refresh(rec: TrackedTx): Promise<TrackedStatus> {
    if (isTerminal(rec.status.state)) return rec.status;
    const obs = await this.observe(rec);
    rec.status = advance(rec.status, obs, this.env.now(), this.timeouts);
    return rec.status;
  }

  private async observe(rec: TrackedTx): Promise<Observation> {
    for (const k of [...rec.hashes]) {
      const found = await rec.chain.findTx(Uint8Array.from(Buffer.from(k, 'hex')));
      if (!found) continue;
      this.index(rec, [toHex(found.cometHash), toHex(found.ethHash)]);
      return { kind: 'included', height: found.height, outcome: found.outcome };
    }
    return { kind: 'unseen' };
  }
}
