/**
 * The EVM application behind the ABCI 2.0 interface.
 *
 *   InitChain        app_state.evm → genesis state trie; appHash = the multistore root over evm (state root) and ibc (init-chain.ts)
 *   CheckTx          decode (cached, sender recovered once) → stateless + committed-state checks
 *                    (mempool-check.ts; committed accounts kept in memory, see committed-state.ts)
 *   PrepareProposal  nonce order per sender, tip order across senders, within bytes and gas
 *   ProcessProposal  every tx decodes for this chain
 *   FinalizeBlock    runTx each tx in one journal checkpoint → results, events, appHash
 *                    (finalize-block.ts; the account trie updated in one pass, see live-state.ts)
 *   Commit           trie nodes + block record + meta in one batch; then onBlock listeners
 *   Query            routed by path (query-routes.ts), at any committed height; Info: app-info.ts
 *
 * The app owns no module-level state: several instances (chains) can live in one process.
 */
import type { Application } from '../../abci/application.js';
import {
  ProposalStatus,
  type RequestCheckTx,
  type RequestFinalizeBlock,
  type RequestInfo,
  type RequestInitChain,
  type RequestPrepareProposal,
  type RequestProcessProposal,
  type RequestQuery,
  type ResponseCheckTx,
  type ResponseCommit,
  type ResponseFinalizeBlock,
  type ResponseInfo,
  type ResponseInitChain,
  type ResponsePrepareProposal,
  type ResponseProcessProposal,
  type ResponseQuery,
} from '../../abci/types.js';
import { createAppAdmin, type AppAdmin, type SenderOverride } from './app-admin.js';
import { segmentBlockRecord, segmentBlockSource, type prepareEmptyBlocks } from '../stores/empty-segments.js';
import { segmentBlockId, type EmptySegment } from '../../store/segments/empty-segment.js';
import { chainConfigFromGenesis, commonOptsOf, defaultChainConfig, type AppChainConfig } from './app-config.js';
import { AppStore, type AppMeta } from '../stores/app-store.js';
import type { BlockRecord } from '../stores/block-record.js';
import { ChainView } from '../views/chain-view.js';
import type { BlockReplay, EvmView } from '../views/evm-view.js';
import { checkAnyTx } from './mempool-check.js';
import { AuthRegistry } from '../cosmos/auth-registry.js';
import type { CosmosChainEnv } from '../cosmos/cosmos-exec.js';
import { EvmAppError } from '../errors.js';
import { parseEvmGenesisBytes } from '../stores/genesis-state.js';
import { createRuntime, type EvmRuntime } from '../execution/evm-runtime.js';
import type { ChainCommonOpts } from '../chain-common.js';
import { allTxsDecode, prepareTxs } from './proposal.js';
import { buildRouteTable, routeQuery, type QueryRouteTable } from '../../sdk/query-router.js';
import { QUERY_ROUTES, type AppQueryContext } from './query-routes.js';
import { COSMOS_QUERIES, IBC_QUERIES } from './lazy-query-routes.js';
import { DecodedTxCache } from './tx-cache.js';
import { toPrefixedHex as hex } from '../../crypto/encoding.js';
import { LevelTrieDB } from '../stores/trie-db.js';
import { IbcStore } from '../../ibc/ibc-store.js';
import { evmAppHash, queryStore, type AppStores } from '../../ibc/app-stores.js';
import { IBC_STORE_KEY } from '../../ibc/keys.js';
import type { NodeBatch } from '../../store/iavl/index.js';
import type { BlockSource, EvmAppOptions } from './evm-app-options.js';
import { appInfo } from './app-info.js';
import { appCursor } from './app-cursor.js';
import { committedRoot, loadIbcStore, openEvmStores } from './evm-stores.js';
import { finalizeEvmBlock, type FinalizedBlock } from './finalize-block.js';
import { loadGenesis } from './init-chain.js';
import { emptyBlocksAfter, metaAfterSegment } from './empty-blocks.js';

/** Live-state cache entries past which the (clean, just flushed) caches are dropped after a Commit. */
const MAX_CACHED_ENTRIES = 500_000;

export async function createEvmApp(opts: EvmAppOptions): Promise<EvmApp> {
  const store = new AppStore(opts.db, opts.segments ? segmentBlockSource(opts.segments) : undefined);
  const trieDb = new LevelTrieDB(store.trie, { cacheSize: opts.trieCacheSize });
  let meta = await store.loadMeta();
  if (meta !== undefined && opts.minGasPrice !== undefined) meta = { ...meta, config: { ...meta.config, minGasPrice: opts.minGasPrice.toString() } };
  const config = meta?.config ?? defaultChainConfig();
  const root = meta === undefined ? undefined : committedRoot(meta);
  const runtime = await createRuntime(trieDb, commonOptsOf(config), root, opts.committedAccountsCacheSize, opts.referenceExecution);
  if (meta !== undefined && meta.lastHeight > 0) {
    for (const { height, hash } of await store.recentHashes(meta.lastHeight, 256)) runtime.blockHashes.add(height, hash);
  }
  const app = new EvmApp(opts, store, trieDb, runtime, meta, await loadIbcStore(store), await openEvmStores(store, opts.pruningKeepRecent));
  if (meta === undefined) app.unusedRuntime = commonOptsOf(config);
  return app;
}

export class EvmApp implements Application {
  readonly evm: EvmView;
  private readonly view: ChainView;
  private readonly txCache: DecodedTxCache;
  private readonly routes: QueryRouteTable;
  private pending: FinalizedBlock | undefined;
  private closed = false;
  /** The x/auth side of accounts (numbers, public keys) for the Cosmos face. */
  readonly auth: AuthRegistry;
  /** The chain options of the runtime createEvmApp built for an empty chain, until InitChain takes it. */
  unusedRuntime: ChainCommonOpts | undefined;

  /** Use createEvmApp. */
  constructor(
    private readonly opts: EvmAppOptions,
    private readonly store: AppStore,
    private readonly trieDb: LevelTrieDB,
    private rt: EvmRuntime,
    private meta: AppMeta | undefined,
    /** The IBC module's committed store (clients, channels, packets, vouchers). */
    private ibc: IbcStore,
    /** The multistore's trees (`ibc`: the IBC store as an IAVL tree, one version per height). */
    private stores: AppStores,
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

  // ---------------------------------------------------------------- AppConnQuery

  async info(_req: RequestInfo): Promise<ResponseInfo> {
    return appInfo(this.meta);
  }

  async query(req: RequestQuery): Promise<ResponseQuery> {
    // Raw store reads with proofs (`/store/ibc/key`), as relayers ask them.
    if (req.path.startsWith('/store/')) return queryStore(this.stores, req, this.meta?.lastHeight ?? 0);
    const c = this.config();
    const ctx: AppQueryContext = {
      latestHeight: () => this.meta?.lastHeight ?? 0,
      stateAt: (h) => this.view.stateAt(h),
      denom: c.denom,
      bech32Prefix: c.bech32Prefix,
      cosmos: {
        auth: this.auth,
        displayDenom: c.displayDenom,
        decimals: c.decimals,
        env: (height) => this.cosmosEnv(c, height, this.nextBaseFee(), this.ibc.copy(), this.simulateTimeNs()),
        ibc: () => this.ibc,
        ibcTree: () => this.stores.byHeight(IBC_STORE_KEY),
      },
    };
    return routeQuery(ctx, this.routes, req);
  }

  // ---------------------------------------------------------------- AppConnConsensus

  async initChain(req: RequestInitChain): Promise<ResponseInitChain> {
    if (this.meta !== undefined && this.meta.lastHeight > 0) {
      throw new EvmAppError(`InitChain on a chain already at height ${this.meta.lastHeight}`);
    }
    const genesis = parseEvmGenesisBytes(req.appStateBytes);
    const config = chainConfigFromGenesis(genesis, req, this.opts.minGasPrice);
    // A fresh runtime: InitChain may be replayed (crash before the first Commit) or change the chain.
    // The first InitChain of an empty chain takes the one createEvmApp built when it has the same
    // chain id and hardfork (no InitChain has written to it; building another costs ≈ 10 ms of a start).
    const chainOpts = commonOptsOf(config);
    const unused = this.unusedRuntime;
    this.unusedRuntime = undefined;
    if (unused === undefined || unused.chainId !== chainOpts.chainId || unused.hardfork !== chainOpts.hardfork) {
      this.rt = await createRuntime(this.trieDb, chainOpts, undefined, this.opts.committedAccountsCacheSize, this.opts.referenceExecution);
    }
    this.txCache.clear();
    this.txCache.cosmosPrefix = config.bech32Prefix;
    this.pending = undefined;
    this.auth.reset();
    this.ibc = new IbcStore();
    this.stores.resetWorking();
    const { root, meta } = await loadGenesis(this.rt, this.auth, genesis, config);
    await this.writeBatch(meta, root);
    this.meta = meta;
    this.rt.committed.advance(root, this.rt.accountWrites.take());
    this.opts.logger?.info({ chainId: config.chainId, accounts: genesis.alloc.length, appHash: hex(root) }, 'evm genesis loaded');
    return { validators: [], appHash: evmAppHash(root, undefined) };
  }

  async prepareProposal(req: RequestPrepareProposal): Promise<ResponsePrepareProposal> {
    const maxGas = this.config().maxGas;
    const txs = await prepareTxs(req.txs, this.txCache, this.rt.txCommon, this.rt.committed, {
      maxTxBytes: req.maxTxBytes,
      maxGas: maxGas < 0 ? undefined : BigInt(maxGas),
      baseFee: this.nextBaseFee(),
    });
    return { txs };
  }

  async processProposal(req: RequestProcessProposal): Promise<ResponseProcessProposal> {
    const ok = allTxsDecode(req.txs, this.txCache, this.rt.txCommon);
    return { status: ok ? ProposalStatus.Accept : ProposalStatus.Reject };
  }

  async finalizeBlock(req: RequestFinalizeBlock): Promise<ResponseFinalizeBlock> {
    const meta = this.requireMeta();
    if (this.pending !== undefined) {
      // Finalized but never committed (a round that was abandoned): start again from the committed state.
      await this.rt.state.setStateRoot(this.committedRoot());
      this.pending = undefined;
    }
    const { response, pending } = await finalizeEvmBlock(
      {
        rt: this.rt,
        meta,
        txCache: this.txCache,
        coinbaseOverride: this.view.coinbaseOverride,
        ibc: this.ibc,
        stores: this.stores,
        cosmosEnv: (height, baseFee, ibc, timeNs) => this.cosmosEnv(meta.config, height, baseFee, ibc, timeNs),
        onBlockTime: (ns) => (this.lastBlockTimeNs = ns),
        minGasPrice: this.minGasPrice(),
        fastExecution: this.opts.referenceExecution !== true,
        logger: this.opts.logger,
      },
      req,
    );
    this.pending = pending;
    return response;
  }

  async commit(): Promise<ResponseCommit> {
    const p = this.pending;
    if (p === undefined) return { retainHeight: 0 };
    await this.auth.numberAll([...p.accountWrites.keys()].sort());
    const treeOps: NodeBatch = [];
    this.stores.commit(p.record.number, treeOps);
    await this.writeBatch(p.meta, p.record.stateRoot, p.record, p.ibcWrites, treeOps);
    this.ibc = p.ibc.flatten();
    this.pending = undefined;
    this.meta = p.meta;
    this.rt.blockHashes.add(p.record.number, p.record.hash);
    this.rt.committed.advance(p.record.stateRoot, p.accountWrites);
    for (const h of p.cometHashes) this.txCache.delete(h);
    const { account, storage } = this.rt.caches;
    if ((account?.size() ?? 0) > MAX_CACHED_ENTRIES || (storage?.size() ?? 0) > MAX_CACHED_ENTRIES) this.rt.state.clearCaches();
    this.view.notifyCommitted(p.record, (e) => this.opts.logger?.error({ err: e }, 'evm onBlock listener failed'));
    return { retainHeight: 0 };
  }

  // ---------------------------------------------------------------- AppConnMempool

  async checkTx(req: RequestCheckTx): Promise<ResponseCheckTx> {
    const config = this.requireMeta().config;
    return checkAnyTx(req.tx, {
      rt: this.rt,
      txCache: this.txCache,
      config,
      baseFee: this.nextBaseFee(),
      minGasPrice: this.minGasPrice(),
      allowUnprotectedTxs: this.opts.allowUnprotectedTxs ?? false,
      cosmosEnv: () => this.cosmosEnv(config, this.meta!.lastHeight + 1, this.nextBaseFee(), this.ibc),
    });
  }

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
  private lastBlockTimeNs: bigint | undefined;

  private simulateTimeNs(): bigint {
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

  private async writeBatch(
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

  private config(): AppChainConfig {
    return this.meta?.config ?? defaultChainConfig();
  }

  private requireMeta(): AppMeta {
    if (this.meta === undefined) throw new EvmAppError('the app has no chain yet: InitChain first');
    return this.meta;
  }

  private committedRoot(): Uint8Array {
    return committedRoot(this.meta);
  }

  /**
   * The stored chain config's value. The option is applied to it at InitChain and at every start
   * (a node may be restarted with another min gas price); a devnet edit then wins until the next start.
   */
  private minGasPrice(): bigint {
    return this.meta === undefined ? (this.opts.minGasPrice ?? BigInt(this.config().minGasPrice)) : BigInt(this.meta.config.minGasPrice);
  }

  private nextBaseFee(): bigint {
    return BigInt(this.meta?.nextBaseFee ?? this.config().initialBaseFee);
  }
}
