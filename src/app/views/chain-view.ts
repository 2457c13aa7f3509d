/**
 * EvmView over the app's stores: blocks and receipts from the block records (recent ones in
 * memory), txs through the eth-hash index, state at any committed height through an independent
 * state manager. Listeners registered with `onBlock` are called by the app after each Commit.
 */
import type { BlockReplay, IbcCallContext } from './evm-view.js';
import type { Common } from '@ethereumjs/common';
import type { MerkleStateManager } from '@ethereumjs/statemanager';
import type { TypedTransaction } from '@ethereumjs/tx';
import type { Address } from '@ethereumjs/util';
import type { AppStore } from '../stores/app-store.js';
import { decodedTxOf, type BlockRecord } from '../stores/block-record.js';
import { HeightNotAvailableError } from '../../sdk/errors.js';
import { EvmAppError } from '../errors.js';
import { buildReceipts, RecordedBlock } from './evm-block.js';
import type { EvmRuntime } from '../execution/evm-runtime.js';
import { stateManagerAt } from '../execution/evm-runtime.js';
import type { EvmBlock, EvmReceipt, EvmTxLocation, EvmView } from './evm-view.js';
import type { LevelTrieDB } from '../stores/trie-db.js';

/** What the view needs to know of the app's current position. */
export interface ChainCursor {
  runtime(): EvmRuntime;
  latestHeight(): number;
  /** State root after `latestHeight()` (the genesis root at 0). */
  latestRoot(): Uint8Array;
  /** Heights below this read the genesis state. */
  initialHeight(): number;
  genesisRoot(): Uint8Array;
  nextBaseFee(): bigint;
  /** EVM gas limit of the next block (the consensus params' max_gas). */
  nextGasLimit(): bigint;
  minGasPrice(): bigint;
  chainInfo(): { chainId: bigint; denom: string; bech32Prefix: string };
  /** What the ICS-20 precompile works on in a call or estimate (a throw-away copy of the IBC store). */
  ibcCall?(): IbcCallContext | undefined;
  /** A committed block as a trace replays it. */
  blockReplay?(height: number): Promise<BlockReplay>;
}

type BlockListener = (b: EvmBlock, receipts: EvmReceipt[]) => void;

export class ChainView implements EvmView {
  private readonly listeners = new Set<BlockListener>();
  private readonly blocks = new Map<number, RecordedBlock>();
  coinbaseOverride: Address | undefined;

  ibcCallContext(): IbcCallContext | undefined {
    return this.cursor.ibcCall?.();
  }

  async blockReplay(height: number): Promise<BlockReplay> {
    if (this.cursor.blockReplay === undefined) throw new EvmAppError('this view cannot replay blocks');
    return this.cursor.blockReplay(height);
  }

  constructor(
    private readonly cursor: ChainCursor,
    private readonly store: AppStore,
    private readonly trieDb: LevelTrieDB,
  ) {}

  get chainId(): bigint {
    return this.cursor.chainInfo().chainId;
  }
  get common(): Common {
    return this.cursor.runtime().common;
  }
  get denom(): string {
    return this.cursor.chainInfo().denom;
  }
  get bech32Prefix(): string {
    return this.cursor.chainInfo().bech32Prefix;
  }

  latestHeight(): number {
    return this.cursor.latestHeight();
  }

  async getBlock(height: number): Promise<EvmBlock | undefined> {
    if (!Number.isSafeInteger(height) || height < 1 || height > this.cursor.latestHeight()) return undefined;
    const cached = this.blocks.get(height);
    if (cached !== undefined) return cached;
    const record = await this.store.getBlockRecord(height);
    return record === undefined ? undefined : this.wrap(record);
  }

  async getBlockByHash(hash: Uint8Array): Promise<EvmBlock | undefined> {
    const height = await this.store.heightOfHash(hash);
    return height === undefined ? undefined : this.getBlock(height);
  }

  async getTransaction(ethHash: Uint8Array): Promise<EvmTxLocation | undefined> {
    const loc = await this.store.findTx(ethHash);
    if (loc === undefined || loc.height > this.cursor.latestHeight()) return undefined;
    const record = await this.store.getBlockRecord(loc.height);
    const t = record?.txs[loc.index];
    if (record === undefined || t === undefined) return undefined;
    return { height: loc.height, index: loc.index, blockHash: record.hash, tx: decodedTxOf(t, this.cursor.runtime().txCommon), sender: t.sender };
  }

  async getTransactionsOfBlock(height: number): Promise<{ tx: TypedTransaction; sender: Address }[]> {
    const record = await this.recordAt(height);
    if (record === undefined) return [];
    // The shared view, as the block's own txs were decoded with: no Common copy per tx.
    const common = this.cursor.runtime().txCommon;
    return record.txs.map((t) => ({ tx: decodedTxOf(t, common), sender: t.sender }));
  }

  async getReceipts(height: number): Promise<EvmReceipt[]> {
    const record = await this.recordAt(height);
    return record === undefined ? [] : buildReceipts(record);
  }

  blooms(from: number, to: number): AsyncIterable<[number, Uint8Array]> {
    return this.store.blooms(from, Math.min(to, this.cursor.latestHeight()));
  }

  async stateAt(height: number): Promise<MerkleStateManager> {
    const latest = this.cursor.latestHeight();
    if (!Number.isSafeInteger(height) || height < 0 || height > latest) throw new HeightNotAvailableError(height, latest);
    let root: Uint8Array | undefined;
    if (height === latest) root = this.cursor.latestRoot();
    else if (height < this.cursor.initialHeight()) root = this.cursor.genesisRoot();
    else root = await this.store.rootAt(height);
    if (root === undefined) throw new HeightNotAvailableError(height, latest);
    return stateManagerAt(this.trieDb, this.common, root);
  }

  nextBaseFee(): bigint {
    return this.cursor.nextBaseFee();
  }

  nextGasLimit(): bigint {
    return this.cursor.nextGasLimit();
  }

  minGasPrice(): bigint {
    return this.cursor.minGasPrice();
  }

  /** The coinbase override of the next blocks (AppAdmin.setCoinbase). */
  setCoinbase(addr: Address | undefined): void {
    this.coinbaseOverride = addr;
  }

  onBlock(listener: BlockListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Called by the app after a Commit; a throwing listener does not stop the others. */
  notifyCommitted(record: BlockRecord, onError: (e: unknown) => void): void {
    const block = this.wrap(record);
    if (this.listeners.size === 0) return;
    const receipts = buildReceipts(record);
    for (const l of [...this.listeners]) {
      try {
        l(block, receipts);
      } catch (e) {
        onError(e);
      }
    }
  }

  removeAllListeners(): void {
    this.listeners.clear();
  }

  /** Forgets the cached blocks (after devnet control rewrote the db underneath). */
  clearCache(): void {
    this.blocks.clear();
  }

  private async recordAt(height: number): Promise<BlockRecord | undefined> {
    if (!Number.isSafeInteger(height) || height < 1 || height > this.cursor.latestHeight()) return undefined;
    return this.store.getBlockRecord(height);
  }

  /** One RecordedBlock per recent height, so lazily computed roots are computed once. */
  private wrap(record: BlockRecord): RecordedBlock {
    let b = this.blocks.get(record.number);
    if (b === undefined || b.record !== record) {
      b = new RecordedBlock(record);
      this.blocks.set(record.number, b);
      if (this.blocks.size > 16) this.blocks.delete(this.blocks.keys().next().value!);
    }
    return b;
  }
}
