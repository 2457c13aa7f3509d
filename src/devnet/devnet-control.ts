/**
 * Devnet control: what the evm_* / anvil_* / hardhat_* and miner_* methods do to a node, as one
 * object the node builds at start (node.ts) and the RPC reaches through a narrow interface.
 * Every operation that touches the chain runs between heights (`consensus.exclusive`).
 *
 *   mining      mine(n) (one empty segment for the empty blocks), automine / interval, miner start/stop
 *   time        increaseTime, setNextBlockTimestamp
 *   snapshots   snapshot / revert (Hardhat semantics)
 *   surgery     setBalance / setCode / setNonce / setStorageAt on the latest state, coinbase,
 *               minimum gas price, block gas limit
 *   accounts    impersonation (marker-signed txs accepted for the impersonated senders)
 *   mempool     dropTransaction, dropAllTransactions
 *   state       dumpState / loadState (the whole db; blocks, receipts and logs included)
 *
 * It depends only on the consensus engine's and the EVM app's admin interfaces
 * (consensus/admin.ts, app/abci/app-admin.ts), the mempool and the root database's snapshots.
 */
import type { RelayerControl } from '../rpc/eth/namespaces/services.js';
import type { Address } from '@ethereumjs/util';
import type { AccountEdit } from '../app/abci/app-admin.js';
import type { AppMeta } from '../app/stores/app-store.js';
import type { ChainState } from '../store/chain-state.js';
import { impersonationTransform, ImpersonationSet } from '../app/execution/impersonation.js';
import { evmAppHash } from '../ibc/app-stores.js';
import { fromHex } from '../crypto/encoding.js';
import { timestampFromMs } from '../types/time.js';
import { DevnetError, DevnetStoppedError, InvalidStateDumpError } from './errors.js';
import { randomBytes } from 'node:crypto';
import { checkTimestamp, mineBlocks, MiningMode, type MineOptions } from './mining.js';
import { reloadFromDb, type DevnetParts } from './parts.js';
import { SnapshotManager } from './snapshots.js';
import { dumpDb, loadDb, readDump } from './state-dump.js';
import { startProgress } from '../util/progress.js';

/** A state dump of at least this many entries logs its loading progress. */
const LOAD_PROGRESS_MIN = 1000;

export interface DevnetControlOptions {
  /** The configured interval of `interval` mode (consensus timeout_commit). */
  intervalMs: number;
  /** Most blocks one mine call may mine (`[evm] max-mine-blocks`); undefined or 0: no cap. */
  maxMineBlocks?: number;
}

/**
 * What changed underneath readers that cache by height: `reset` = the chain went back or was
 * replaced (revert, loadState: a height may now hold another block); `state` = the latest state
 * or the next block's parameters were edited in place (surgery, gas price / limit).
 */
export interface DevnetChange {
  kind: 'reset' | 'state';
  height: number;
}

type ChangeListener = (change: DevnetChange) => void;

export class DevnetControl {
  readonly impersonated = new ImpersonationSet();
  readonly mining: MiningMode;
  private readonly snapshots: SnapshotManager;
  private readonly changeListeners = new Set<ChangeListener>();
  private closed = false;
  private instance = newInstanceId();
  private timestampIntervalSet = false;
  private readonly loggingListeners = new Set<(on: boolean) => void>();
  /** anvil_setLoggingEnabled. */
  loggingEnabled = true;
  private readonly maxMineBlocks: number | undefined;

  constructor(
    private readonly parts: DevnetParts,
    opts: DevnetControlOptions,
  ) {
    this.mining = new MiningMode(parts, opts.intervalMs);
    this.maxMineBlocks = opts.maxMineBlocks !== undefined && opts.maxMineBlocks > 0 ? opts.maxMineBlocks : undefined;
    this.snapshots = new SnapshotManager(parts);
    parts.app.setSenderOverride(impersonationTransform(this.impersonated));
  }

  get height(): number {
    return this.parts.consensus.height;
  }

  /** Random id of this run of the chain (hardhat_metadata, anvil_metadata): new at each start and each reset. */
  get instanceId(): string {
    return this.instance;
  }

  // ── reset ────────────────────────────────────────────────────────────────────────────────

  /** Records the chain as it started, for `reset` (the node calls it once, after the first block). */
  recordStart(): Promise<void> {
    this.live();
    return this.parts.consensus.exclusive(() => this.snapshots.takeBase());
  }

  /**
   * hardhat_reset / anvil_reset without a fork: back to the chain as it started (genesis, the dev
   * accounts, the first block), with an empty mempool, no snapshots, no time offset, no
   * impersonation and no coinbase override; a new instance id.
   */
  async reset(): Promise<void> {
    this.live();
    const ok = await this.parts.consensus.exclusive(() => this.snapshots.reset());
    if (!ok) throw new DevnetError('this node did not record its starting chain, so it cannot be reset');
    this.impersonated.clear();
    this.setCoinbase(undefined);
    this.removeBlockTimestampInterval();
    this.instance = newInstanceId();
    this.notify('reset');
  }

  // ── mining ───────────────────────────────────────────────────────────────────────────────

  /** Mines `count` blocks now (evm_mine, anvil_mine); resolves with the new heights' bounds. */
  mine(count = 1, opts: MineOptions = {}): Promise<{ from: number; to: number } | undefined> {
    this.live();
    return mineBlocks(this.parts, count, { maxBlocks: this.maxMineBlocks, cancelled: () => this.closed, ...opts });
  }

  // ── time ─────────────────────────────────────────────────────────────────────────────────

  /** Moves the block clock forward; returns the total offset in seconds. */
  increaseTime(seconds: number): number {
    if (!Number.isFinite(seconds) || seconds < 0) throw new RangeError(`time increase must be a non-negative number of seconds, got ${seconds}`);
    return Math.floor(this.parts.consensus.increaseTime(seconds * 1000) / 1000);
  }

  /** The timestamp (Unix seconds) of the next block; must be after the latest block's. */
  setNextBlockTimestamp(seconds: number): void {
    checkTimestamp(this.parts, seconds);
    this.parts.consensus.setNextBlockTime(timestampFromMs(seconds * 1000));
  }

  /** anvil_setBlockTimestampInterval: each next block `seconds` after the previous one. */
  setBlockTimestampInterval(seconds: number): void {
    if (!Number.isFinite(seconds) || seconds < 0) throw new RangeError(`timestamp interval must be a non-negative number of seconds, got ${seconds}`);
    this.parts.consensus.setBlockTimestampInterval(seconds * 1000);
    this.timestampIntervalSet = true;
  }

  /** anvil_removeBlockTimestampInterval: block times follow the clock again; whether an interval was set. */
  removeBlockTimestampInterval(): boolean {
    const had = this.timestampIntervalSet;
    this.parts.consensus.setBlockTimestampInterval(undefined);
    this.timestampIntervalSet = false;
    return had;
  }

  /** Log output on or off (anvil_setLoggingEnabled): the node's logger and the CLI's tx and block lines. */
  setLoggingEnabled(on: boolean): void {
    this.loggingEnabled = on;
    for (const l of this.loggingListeners) l(on);
  }

  /** Called when logging is switched (the CLI's activity log listens). */
  onLoggingChange(listener: (on: boolean) => void): () => void {
    this.loggingListeners.add(listener);
    return () => this.loggingListeners.delete(listener);
  }

  // ── snapshots ────────────────────────────────────────────────────────────────────────────

  /** Live snapshots (anvil_metadata): id and the height each was taken at. */
  listSnapshots(): { id: number; height: number }[] {
    return this.snapshots.list();
  }

  snapshot(): Promise<number> {
    this.live();
    return this.parts.consensus.exclusive(() => this.snapshots.take());
  }

  async revert(id: number): Promise<boolean> {
    this.live();
    const ok = await this.parts.consensus.exclusive(() => this.snapshots.revert(id));
    if (ok) this.notify('reset');
    return ok;
  }

  // ── account surgery ──────────────────────────────────────────────────────────────────────

  setBalance(address: Address, wei: bigint): Promise<void> {
    return this.edit(address, { balance: wei });
  }

  setNonce(address: Address, nonce: bigint): Promise<void> {
    return this.edit(address, { nonce });
  }

  setCode(address: Address, code: Uint8Array): Promise<void> {
    return this.edit(address, { code });
  }

  setStorageAt(address: Address, slot: Uint8Array, value: Uint8Array): Promise<void> {
    return this.edit(address, { storage: [[slot, value]] });
  }

  /** The EVM coinbase of the next blocks (miner_setEtherbase, anvil_setCoinbase); undefined = the proposer. */
  setCoinbase(address: Address | undefined): void {
    this.parts.app.setCoinbase(address);
  }

  /** The minimum gas price CheckTx asks for, and the base fee floor (miner_setGasPrice, anvil_setMinGasPrice). */
  setMinGasPrice(wei: bigint): Promise<void> {
    return this.editMeta((m) => ({ ...m, config: { ...m.config, minGasPrice: wei.toString() } }));
  }

  /** The base fee of the next block (anvil_setNextBlockBaseFeePerGas); later blocks follow EIP-1559 from it. */
  setNextBlockBaseFee(wei: bigint): Promise<void> {
    if (wei < 0n) throw new RangeError(`base fee must be non-negative, got ${wei}`);
    return this.editMeta((m) => ({ ...m, nextBaseFee: wei.toString() }));
  }

  /** The block gas limit of the next blocks (miner_setGasLimit, evm_setBlockGasLimit): consensus max_gas. */
  async setBlockGasLimit(gas: bigint): Promise<void> {
    if (gas <= 0n || gas > BigInt(Number.MAX_SAFE_INTEGER)) throw new RangeError(`gas limit must be positive, got ${gas}`);
    const maxGas = Number(gas);
    await this.editMeta(
      (m) => ({ ...m, config: { ...m.config, maxGas } }),
      (state) => ({
        ...state,
        consensusParams: { ...state.consensusParams, block: { ...state.consensusParams.block, maxGas } },
        lastHeightConsensusParamsChanged: state.lastBlockHeight + 1,
      }),
    );
  }

  // ── impersonation and the mempool ────────────────────────────────────────────────────────

  impersonate(address: Address): void {
    this.impersonated.add(address.toString());
  }

  stopImpersonating(address: Address): boolean {
    return this.impersonated.remove(address.toString());
  }

  setAutoImpersonate(on: boolean): void {
    this.impersonated.auto = on;
  }

  /** Removes a pending tx (EVM or CometBFT hash); false if the mempool does not hold it. */
  dropTransaction(hash: Uint8Array): boolean {
    return this.parts.mempool.removeTx(hash);
  }

  dropAllTransactions(): void {
    this.parts.mempool.flush();
  }

  // ── state dump ───────────────────────────────────────────────────────────────────────────

  /** Every db entry of the node (gzip), for loadState here or in another node of the same chain. */
  dumpState(): Promise<Uint8Array> {
    this.live();
    return this.parts.consensus.exclusive(async () => {
      await this.parts.consensus.flushIndex();
      return dumpDb(this.parts.db, { chainId: this.parts.chainId, height: this.height });
    });
  }

  /** Replaces the node's state with a dump's (blocks, receipts, logs, state); snapshots are dropped. */
  async loadState(dump: Uint8Array): Promise<void> {
    this.live();
    const { header, entries } = readDump(dump);
    if (header.chainId !== this.parts.chainId) throw new InvalidStateDumpError(`dump of chain ${header.chainId}, this node runs ${this.parts.chainId}`);
    await this.parts.consensus.exclusive(async () => {
      await this.parts.consensus.flushIndex();
      await this.snapshots.clear();
      const progress = header.entries >= LOAD_PROGRESS_MIN ? startProgress(this.parts.logger, 'loading state', header.entries, { unit: 'entries' }) : undefined;
      await loadDb(this.parts.db, entries, (n) => progress?.update(n));
      progress?.update(header.entries);
      progress?.finish();
      await reloadFromDb(this.parts);
    });
    this.notify('reset');
  }

  /** The network's IBC relayer (src/network/ibc), set by the network once its channel is open. */
  relayer: RelayerControl | undefined = undefined;

  /** Takes validator `index` (genesis order) offline or back: a class watches 3 of 4 keep going and 2 of 4 halt. */
  setValidatorOnline(index: number, online: boolean): void {
    this.live();
    this.parts.consensus.setValidatorOnline(index, online);
  }

  // ── lifecycle ────────────────────────────────────────────────────────────────────────────

  /** Called after a change that makes caches keyed by height stale (see DevnetChange). */
  onChange(listener: ChangeListener): () => void {
    this.changeListeners.add(listener);
    return () => this.changeListeners.delete(listener);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.snapshots.clear(true);
    this.changeListeners.clear();
  }

  private live(): void {
    if (this.closed) throw new DevnetStoppedError();
  }

  private notify(kind: DevnetChange['kind']): void {
    for (const l of [...this.changeListeners]) {
      try {
        l({ kind, height: this.height });
      } catch (err) {
        this.parts.logger.error({ err }, 'devnet change listener failed');
      }
    }
  }

  private async edit(address: Address, edit: AccountEdit): Promise<void> {
    this.live();
    await this.parts.consensus.exclusive(async () => {
      const app = this.parts.app;
      const root = await app.editAccount(address, edit);
      // The next header's app_hash names the state it builds on (and the IBC store, once it has entries).
      const ibcRoot = app.meta()?.lastIbcRoot;
      await this.parts.consensus.amendHead((s) => ({ ...s, appHash: evmAppHash(root, ibcRoot ? fromHex(ibcRoot) : undefined) }));
    });
    this.notify('state');
  }

  private async editMeta(fn: (m: AppMeta) => AppMeta, head?: (s: ChainState) => ChainState): Promise<void> {
    this.live();
    await this.parts.consensus.exclusive(async () => {
      await this.parts.app.editMeta(fn);
      if (head) await this.parts.consensus.amendHead(head);
    });
    this.notify('state');
  }
}

function newInstanceId(): string {
  return `0x${randomBytes(32).toString('hex')}`;
}
