/**
 * The EVM app's state and wiring, under its ABCI methods (evm-app.ts): the stores, the runtime, the
 * committed meta and IBC store, and what is built over them once (the decoded-tx cache, the query
 * routes, the EVM view, the devnet admin); what the ABCI methods derive from them (the chain config,
 * fees, a Cosmos tx's env, the commit batch); and what the node asks of the app besides ABCI (trace
 * replays, empty segments, close).
 */
import { createAppAdmin, type AppAdmin, type SenderOverride } from './app-admin.js';
import { segmentBlockRecord, type prepareEmptyBlocks } from '../stores/empty-segments.js';
import { segmentBlockId, type EmptySegment } from '../../store/segments/empty-segment.js';
import { defaultChainConfig, type AppChainConfig } from './app-config.js';
import type { AppMeta, AppStore } from '../stores/app-store.js';
import type { BlockRecord } from '../stores/block-record.js';
import { ChainView } from '../views/chain-view.js';
import type { BlockReplay, EvmView } from '../views/evm-view.js';
import { AuthRegistry } from '../cosmos/auth-registry.js';
import type { CosmosChainEnv } from '../cosmos/cosmos-exec.js';
import { EvmAppError } from '../errors.js';
import type { EvmRuntime } from '../execution/evm-runtime.js';
import type { ChainCommonOpts } from '../chain-common.js';
import { buildRouteTable, type QueryRouteTable } from '../../sdk/query-router.js';
import { QUERY_ROUTES } from './query-routes.js';
import { COSMOS_QUERIES, IBC_QUERIES } from './lazy-query-routes.js';
import { DecodedTxCache } from './tx-cache.js';
import type { LevelTrieDB } from '../stores/trie-db.js';
import type { IbcStore } from '../../ibc/ibc-store.js';
import type { AppStores } from '../../ibc/app-stores.js';
import type { NodeBatch } from '../../store/iavl/index.js';
import type { BlockSource, EvmAppOptions } from './evm-app-options.js';
import { appCursor } from './app-cursor.js';
import { committedRoot, loadIbcStore, openEvmStores } from './evm-stores.js';
import type { FinalizedBlock } from './finalize-block.js';
import { emptyBlocksAfter, metaAfterSegment } from './empty-blocks.js';

/** EvmApp without its ABCI methods (evm-app.ts adds them); not built alone. */
export abstract class EvmAppCore {
  readonly evm: EvmView;
  protected readonly view: ChainView;
  protected readonly txCache: DecodedTxCache;
  protected readonly routes: QueryRouteTable;
  protected pending: FinalizedBlock | undefined;
  private closed = false;
  /** The x/auth side of accounts (numbers, public keys) for the Cosmos face. */
  readonly auth: AuthRegistry;
  /** The chain options of the runtime createEvmApp built for an empty chain, until InitChain takes it. */
  unusedRuntime: ChainCommonOpts | undefined;

  /** Use createEvmApp. */
  constructor(
    protected readonly opts: EvmAppOptions,
    protected readonly store: AppStore,
    protected readonly trieDb: LevelTrieDB,
    protected rt: EvmRuntime,
    protected meta: AppMeta | undefined,
    /** The IBC module's committed store (clients, channels, packets, vouchers). */
    protected ibc: IbcStore,
    /** The multistore's trees (`ibc`: the IBC store as an IAVL tree, one version per height). */
    protected stores: AppStores,
  ) {
    this.txCache = new DecodedTxCache(opts.txCacheSize, () => this.senderOverride);
    this.txCache.cosmosPrefix = this.config().bech32Prefix;
    this.auth = new AuthRegistry(store.auth);
    this.routes = buildRouteTable([...QUERY_ROUTES, ...(opts.queryRoutes ?? [])], [COSMOS_QUERIES, IBC_QUERIES, ...(opts.lazyQueryRoutes ?? [])]);
    this.view = new ChainView(
      appCursor({
        runtime: () => this.rt,
        meta: () => this.meta,
        ibc: () => this.ibc,
        nextBaseFee: () => this.nextBaseFee(),
        minGasPrice: () => this.minGasPrice(),
        blockReplay: (height) => this.blockReplay(height),
      }),
      store,
      trieDb,
    );
    this.evm = this.view;
    this.admin = createAppAdmin({
      store,
      trieDb,
      view: this.view,
      auth: this.auth,
      runtime: () => this.rt,
      meta: () => this.meta,
      setMeta: (meta) => {
        this.meta = meta;
        this.pending = undefined;
      },
      setSenderOverride: (o) => (this.senderOverride = o),
      clearTxCache: () => this.txCache.clear(),
      reloadIbc: async () => {
        this.ibc = await loadIbcStore(this.store);
        this.stores = await openEvmStores(this.store, this.opts.pruningKeepRecent);
      },
    });
  }

  /** Devnet control's interface to the app (app-admin.ts), used between blocks only. */
  readonly admin: AppAdmin;
  private senderOverride: SenderOverride | undefined;

  /** What a Cosmos tx needs of the chain (simulate uses it too). */
  cosmosEnv(config: AppChainConfig, height: number, baseFee: bigint, ibc?: IbcStore, timeNs = 0n): CosmosChainEnv {
    return {
      chainId: config.cometChainId,
      denom: config.denom,
      bech32Prefix: config.bech32Prefix,
      auth: this.auth,
      minGasPrice: this.minGasPrice(),
      baseFee,
      height,
      ...(ibc ? { ibc: { store: ibc, timeNs } } : {}),
    };
  }

  /**
   * Where the node keeps its blocks: the txs of a committed block as CometBFT committed them and
   * its time, for trace replays (the app's record holds only the executed EVM txs).
   */
  setBlockSource(source: BlockSource): void {
    this.blockSource = source;
  }

  private blockSource: BlockSource | undefined;

  /** Block `height` as a trace replays it, on throw-away copies of the auth registry and the IBC store. */
  private async blockReplay(height: number): Promise<BlockReplay> {
    const c = this.config();
    const block = await this.blockSource?.(height);
    const cosmos = this.cosmosEnv(c, height, 0n, this.ibc.copy(), block?.timeNs ?? 0n);
    return { txs: block?.txs, cosmos: { ...cosmos, auth: new AuthRegistry(this.store.auth) } };
  }

  /** The committed IBC store (read only: the relayer and the routing API read clients, packets and vouchers). */
  ibcStore(): IbcStore {
    return this.ibc;
  }

  /** The last finalized block's time: Simulate runs at it, as the SDK's check state carries the last header (a client update checks header times against it). */
  protected lastBlockTimeNs: bigint | undefined;

  protected simulateTimeNs(): bigint {
    return this.lastBlockTimeNs ?? BigInt(Date.now()) * 1_000_000n;
  }

  // ---------------------------------------------------------------- lifecycle

  /** Stops notifying listeners and drops caches. The db stays open (the caller owns it). */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.view.removeAllListeners();
    this.txCache.clear();
    this.pending = undefined;
  }

  // ---------------------------------------------------------------- empty segments (consensus/empty-segment.ts)

  /** Base fees, FinalizeBlock responses and the EVM record of `count` empty blocks after the last one. */
  prepareEmptyBlocks(count: number): ReturnType<typeof prepareEmptyBlocks> {
    return emptyBlocksAfter(this.requireMeta(), count, this.view.coinbaseOverride?.bytes);
  }

  /** Commits a segment the block store holds: the meta moves to its last block (the state stays), BLOCKHASH learns its hashes. */
  async commitEmptySegment(segment: EmptySegment): Promise<void> {
    const meta = this.requireMeta();
    if (segment.from !== meta.lastHeight + 1)
      throw new EvmAppError(`an empty segment from ${segment.from} does not follow the app's height ${meta.lastHeight}`);
    const next = metaAfterSegment(meta, segment);
    await this.store.commit([], next);
    this.meta = next;
    this.pending = undefined;
    for (let h = Math.max(segment.from, segment.to - 255); h <= segment.to; h++) this.rt.blockHashes.add(h, segmentBlockId(segment, h).hash);
  }

  /** Tells the EVM block listeners (eth_subscribe newHeads, filters) about one height of a committed segment. */
  announceEmptyBlock(segment: EmptySegment, height: number): void {
    this.view.notifyCommitted(segmentBlockRecord(segment, height), (e) => this.opts.logger?.error({ err: e }, 'evm onBlock listener failed'));
  }

  // ---------------------------------------------------------------- internals

  protected async writeBatch(
    meta: AppMeta,
    stateRoot: Uint8Array,
    record?: BlockRecord,
    ibcWrites: [string, Uint8Array | undefined][] = [],
    treeOps: NodeBatch = [],
  ): Promise<void> {
    const ops = this.trieDb.takeReachable(stateRoot);
    try {
      await this.store.commit(ops, meta, record, this.auth.takeWrites(), ibcWrites, treeOps);
    } catch (e) {
      this.trieDb.restorePending(ops);
      throw e;
    }
  }

  protected config(): AppChainConfig {
    return this.meta?.config ?? defaultChainConfig();
  }

  protected requireMeta(): AppMeta {
    if (this.meta === undefined) throw new EvmAppError('the app has no chain yet: InitChain first');
    return this.meta;
  }

  protected committedRoot(): Uint8Array {
    return committedRoot(this.meta);
  }

  /**
   * The stored chain config's value. The option is applied to it at InitChain and at every start
   * (a node may be restarted with another min gas price); a devnet edit then wins until the next start.
   */
  protected minGasPrice(): bigint {
    return this.meta === undefined ? (this.opts.minGasPrice ?? BigInt(this.config().minGasPrice)) : BigInt(this.meta.config.minGasPrice);
  }

  protected nextBaseFee(): bigint {
    return BigInt(this.meta?.nextBaseFee ?? this.config().initialBaseFee);
  }
}
