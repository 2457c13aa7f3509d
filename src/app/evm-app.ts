/**
 * The EVM application behind the ABCI 2.0 interface.
 *
 *   InitChain        app_state.evm → genesis state trie; appHash = state root
 *   CheckTx          decode (cached, sender recovered once) → stateless + committed-state checks
 *                    (committed accounts kept in memory, see committed-state.ts)
 *   PrepareProposal  nonce order per sender, tip order across senders, within bytes and gas
 *   ProcessProposal  every tx decodes for this chain
 *   FinalizeBlock    runTx each tx in one journal checkpoint → results, events, appHash
 *                    (the account trie updated in one pass, see live-state.ts)
 *   Commit           trie nodes + block record + meta in one batch; then onBlock listeners
 *   Query            routed by path (query-routes.ts), at any committed height
 *
 * The app owns no module-level state: several instances (chains) can live in one process.
 */
import type { Logger } from 'pino';
import { Address, createAccount } from '@ethereumjs/util';
import type { Application } from '../abci/application.js';
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
} from '../abci/types.js';
import { createAppAdmin, type AppAdmin, type SenderOverride } from './app-admin.js';
import { lastBaseFee, prepareEmptyBlocks, segmentBlockRecord, segmentBlockSource } from './empty-segments.js';
import { segmentBlockId, type EmptySegment, type SegmentReader } from '../store/segments/empty-segment.js';
import type { AccountWrites } from './committed-state.js';
import { chainConfigFromGenesis, commonOptsOf, defaultChainConfig, type AppChainConfig } from './app-config.js';
import { AppStore, type AppLevel, type AppMeta } from './app-store.js';
import { packageVersion } from './app-version.js';
import type { BlockRecord } from './block-record.js';
import { ChainView } from './chain-view.js';
import type { BlockReplay, EvmView } from './evm-view.js';
import { checkEthTx } from './check-tx.js';
import { AuthRegistry, FEE_COLLECTOR } from './cosmos/auth-registry.js';
import type { CosmosChainEnv } from './cosmos/cosmos-exec.js';
import type { DecodedCosmosTx } from './tx-decode.js';
import { EvmAppError, TxRejectedError } from './errors.js';
import { executeBlock, type BlockTx } from './execute-block.js';
import { blockGasLimit, nextBaseFee } from './fee-market.js';
import { parseEvmGenesisBytes } from './genesis-state.js';
import { createRuntime, type EvmRuntime } from './evm-runtime.js';
import type { ChainCommonOpts } from './chain-common.js';
import { EMPTY_TRIE_ROOT } from './ordered-trie.js';
import { allTxsDecode, prepareTxs } from './proposal.js';
import { buildRouteTable, routeQuery, type LazyQueryRoutes, type QueryRoute, type QueryRouteTable } from '../sdk/query-router.js';
import { QUERY_ROUTES, type AppQueryContext } from './query-routes.js';
import { COSMOS_QUERIES, IBC_QUERIES } from './lazy-query-routes.js';
import { DecodedTxCache } from './tx-cache.js';
import { toPrefixedHex as hex } from '../crypto/encoding.js';
import { timestampToNs } from '../types/time.js';
import { blockEvents } from './tx-events.js';
import { LevelTrieDB } from './trie-db.js';
import { IbcStore } from '../ibc/ibc-store.js';
import { AppStores, evmAppHash, EVM_STORE, queryStore } from '../ibc/app-stores.js';
import { IBC_STORE_KEY } from '../ibc/keys.js';
import { levelNodeDb, type NodeBatch } from '../store/iavl/index.js';

export interface EvmAppOptions {
  /** The app's own (sub)level; memory-level in tests. The app does not close it. */
  db: AppLevel;
  logger?: Logger;
  /** Overrides the genesis `min_gas_price`. */
  minGasPrice?: bigint;
  /** Accept legacy txs without EIP-155 replay protection in CheckTx (default false). */
  allowUnprotectedTxs?: boolean;
  /** Decoded-tx cache entries (default 50 000). */
  txCacheSize?: number;
  /** Trie-node read cache entries per generation (default 100 000). */
  trieCacheSize?: number;
  /** IBC tree versions kept for proofs and past-height queries (0 or unset = all; app.toml `pruning-keep-recent`). */
  pruningKeepRecent?: number;
  /** Committed-state accounts kept in memory for CheckTx (default 100 000). */
  committedAccountsCacheSize?: number;
  /** Extra query routes (e.g. Cosmos SDK gRPC paths), checked with the built-in ones. */
  queryRoutes?: readonly QueryRoute[];
  /** More query routes, loaded at the first query of one of their services. */
  lazyQueryRoutes?: readonly LazyQueryRoutes[];
  /**
   * Execute every tx exactly as ethereumjs does: plain ETH transfers through `runTx` too (see
   * plain-transfer.ts), contract code in ethereumjs's own interpreter loop (interpreter/) and
   * storage written one slot at a time (live-state.ts). Off by default; the tests compare both ways.
   */
  referenceExecution?: boolean;
  /** The chain's empty segments (the block store's records): the app answers for their heights. */
  segments?: SegmentReader;
}

/** The txs of a committed block (CometBFT's order) and its time in ns since the epoch; undefined: unknown height. */
export type BlockSource = (height: number) => Promise<{ txs: readonly Uint8Array[]; timeNs: bigint } | undefined>;

export const APP_INFO_DATA = 'chainlet';
export const APP_VERSION = 1;

const ZERO_HASH = new Uint8Array(32);
/** Live-state cache entries past which the (clean, just flushed) caches are dropped after a Commit. */
const MAX_CACHED_ENTRIES = 500_000;

interface FinalizedBlock {
  record: BlockRecord;
  meta: AppMeta;
  cometHashes: string[];
  /** The accounts the block wrote, for the committed state at Commit. */
  accountWrites: AccountWrites;
  /** The block's working copy of the IBC store. */
  ibc: IbcStore;
  /** The keys the block wrote to the IBC store (undefined: deleted). */
  ibcWrites: [string, Uint8Array | undefined][];
}

export async function createEvmApp(opts: EvmAppOptions): Promise<EvmApp> {
  const store = new AppStore(opts.db, opts.segments ? segmentBlockSource(opts.segments) : undefined);
  const trieDb = new LevelTrieDB(store.trie, { cacheSize: opts.trieCacheSize });
  let meta = await store.loadMeta();
  if (meta !== undefined && opts.minGasPrice !== undefined) meta = { ...meta, config: { ...meta.config, minGasPrice: opts.minGasPrice.toString() } };
  const config = meta?.config ?? defaultChainConfig();
  const root = meta === undefined ? undefined : fromHex(meta.lastHeight > 0 ? meta.lastAppHash : meta.genesisRoot);
  const runtime = await createRuntime(trieDb, commonOptsOf(config), root, opts.committedAccountsCacheSize, opts.referenceExecution);
  if (meta !== undefined && meta.lastHeight > 0) {
    for (const { height, hash } of await store.recentHashes(meta.lastHeight, 256)) runtime.blockHashes.add(height, hash);
  }
  const ibc = new Map<string, Uint8Array>();
  for await (const [k, v] of store.ibc.iterator()) ibc.set(k, v);
  const app = new EvmApp(opts, store, trieDb, runtime, meta, new IbcStore(ibc), await openEvmStores(store, opts.pruningKeepRecent));
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
      {
        runtime: () => this.rt,
        latestHeight: () => this.meta?.lastHeight ?? 0,
        latestRoot: () => this.committedRoot(),
        initialHeight: () => this.meta?.config.initialHeight ?? 1,
        genesisRoot: () => (this.meta === undefined ? EMPTY_TRIE_ROOT : fromHex(this.meta.genesisRoot)),
        nextBaseFee: () => this.nextBaseFee(),
        nextGasLimit: () => blockGasLimit(this.config().maxGas),
        minGasPrice: () => this.minGasPrice(),
        chainInfo: () => {
          const c = this.config();
          return { chainId: BigInt(c.chainId), denom: c.denom, bech32Prefix: c.bech32Prefix };
        },
        blockReplay: (height) => this.blockReplay(height),
        ibcCall: () => {
          const c = this.config();
          return {
            store: this.ibc.copy(),
            chainId: c.cometChainId,
            bech32Prefix: c.bech32Prefix,
            denom: c.denom,
            height: (this.meta?.lastHeight ?? 0) + 1,
            timeNs: BigInt(Date.now()) * 1_000_000n,
          };
        },
      },
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
        const map = new Map<string, Uint8Array>();
        for await (const [k, v] of this.store.ibc.iterator()) map.set(k, v);
        this.ibc = new IbcStore(map);
        this.stores = await openEvmStores(this.store, this.opts.pruningKeepRecent);
      },
    });
  }

  /** Devnet control's interface to the app (app-admin.ts), used between blocks only. */
  readonly admin: AppAdmin;
  private senderOverride: SenderOverride | undefined;

  // ---------------------------------------------------------------- AppConnQuery

  async info(_req: RequestInfo): Promise<ResponseInfo> {
    const m = this.meta;
    return {
      data: APP_INFO_DATA,
      version: packageVersion(),
      appVersion: APP_VERSION,
      lastBlockHeight: m?.lastHeight ?? 0,
      lastBlockAppHash:
        m !== undefined && m.lastHeight > 0 ? evmAppHash(fromHex(m.lastAppHash), m.lastIbcRoot ? fromHex(m.lastIbcRoot) : undefined) : new Uint8Array(0),
    };
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
    // Account numbers: the genesis accounts in genesis order, then the fee collector module account.
    await this.auth.numberAll([...genesis.alloc.map((a) => a.address.toLowerCase().replace(/^0x/, '')), Buffer.from(FEE_COLLECTOR).toString('hex')]);
    const state = this.rt.state;
    for (const acc of genesis.alloc) {
      const address = new Address(fromHex(acc.address));
      await state.putAccount(address, createAccount({ nonce: acc.nonce, balance: acc.balance }));
      if (acc.code !== undefined) await state.putCode(address, acc.code);
      for (const [slot, value] of acc.storage) await state.putStorage(address, slot, value);
    }
    const root = await state.getStateRoot();
    const meta: AppMeta = {
      config,
      genesisRoot: hex(root),
      lastHeight: 0,
      lastAppHash: '',
      lastBlockHash: '',
      nextBaseFee: config.initialBaseFee,
    };
    await this.writeBatch(meta, root);
    this.meta = meta;
    this.rt.committed.advance(root, this.rt.accountWrites.take());
    this.opts.logger?.info({ chainId: config.chainId, accounts: genesis.alloc.length, appHash: hex(root) }, 'evm genesis loaded');
    return { validators: [], appHash: root };
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
    const started = performance.now();
    const meta = this.requireMeta();
    if (this.pending !== undefined) {
      // Finalized but never committed (a round that was abandoned): start again from the committed state.
      await this.rt.state.setStateRoot(this.committedRoot());
      this.pending = undefined;
    }
    this.rt.accountWrites.take(); // nothing but this block may reach the committed state at Commit
    const config = meta.config;
    const baseFee = BigInt(meta.nextBaseFee);
    const gasLimit = blockGasLimit(config.maxGas);
    const env = {
      height: req.height,
      hash: req.hash,
      timestamp: BigInt(req.time.seconds),
      coinbase: this.view.coinbaseOverride ?? coinbaseOf(req.proposerAddress),
      gasLimit,
      baseFee,
    };
    const cometHashes: string[] = [];
    const items: BlockTx[] = req.txs.map((bytes) => {
      try {
        const d = this.txCache.decode(bytes, this.rt.txCommon);
        cometHashes.push(d.cometHashHex);
        return d;
      } catch (e) {
        if (e instanceof TxRejectedError) return e;
        throw e;
      }
    });
    const ibc = this.ibc.copy();
    this.stores.resetWorking();
    const timeNs = timestampToNs(req.time);
    this.lastBlockTimeNs = timeNs;
    const exec = await executeBlock(
      this.rt.vm,
      this.rt.common,
      env,
      items,
      this.cosmosEnv(config, req.height, baseFee, ibc, timeNs),
      this.rt.ics20,
      this.opts.referenceExecution !== true,
    );
    const stateRoot = await this.rt.state.getStateRoot();
    const accountWrites = this.rt.accountWrites.take();
    const ibcWrites = ibc.takeWrites();
    this.stores.apply(IBC_STORE_KEY, ibcWrites);
    const ibcTree = this.stores.tree(IBC_STORE_KEY);
    const ibcRoot = ibcTree.size > 0 ? ibcTree.workingRoot() : undefined;

    const record: BlockRecord = {
      number: req.height,
      hash: req.hash,
      parentHash: meta.lastBlockHash === '' ? ZERO_HASH : fromHex(meta.lastBlockHash),
      timestamp: env.timestamp,
      coinbase: env.coinbase,
      gasLimit,
      gasUsed: exec.gasUsed,
      baseFee,
      stateRoot,
      bloom: exec.bloom,
      txs: exec.executed,
    };
    const next = nextBaseFee({ gasUsed: exec.gasUsed, gasLimit, baseFee }, this.minGasPrice());
    this.pending = {
      record,
      cometHashes,
      accountWrites,
      ibc,
      ibcWrites,
      meta: {
        ...meta,
        lastHeight: req.height,
        lastAppHash: hex(stateRoot),
        lastBlockHash: hex(req.hash),
        nextBaseFee: next.toString(),
        lastIbcRoot: ibcRoot && hex(ibcRoot),
      },
    };
    const logger = this.opts.logger;
    if (logger?.isLevelEnabled('debug')) {
      logger.debug({ height: req.height, txs: req.txs.length, gasUsed: exec.gasUsed.toString(), ms: performance.now() - started }, 'evm block executed');
    }
    // The app hash is the EVM state root until the IBC store has entries; then the multistore root over both.
    return { events: blockEvents(exec.bloom, baseFee), txResults: exec.txResults, validatorUpdates: [], appHash: evmAppHash(stateRoot, ibcRoot) };
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
    let gasWanted = 0;
    try {
      const config = this.requireMeta().config;
      const d = this.txCache.decode(req.tx, this.rt.txCommon);
      if (d.kind === 'cosmos') return await this.checkCosmosTx(d, config);
      gasWanted = Number(d.tx.gasLimit);
      return await checkEthTx(d, {
        state: this.rt.committed,
        baseFee: this.nextBaseFee(),
        minGasPrice: this.minGasPrice(),
        maxBlockGas: config.maxGas < 0 ? undefined : BigInt(config.maxGas),
        allowUnprotectedTxs: this.opts.allowUnprotectedTxs ?? false,
      });
    } catch (e) {
      if (!(e instanceof TxRejectedError)) throw e;
      return { code: e.code, data: new Uint8Array(0), log: e.log, info: '', gasWanted, gasUsed: 0, events: [], codespace: e.codespace };
    }
  }

  /** CheckTx of a Cosmos tx: the ante checks on the committed state; the mempool orders it by sequence. */
  private async checkCosmosTx(d: DecodedCosmosTx, config: AppChainConfig): Promise<ResponseCheckTx> {
    const committed = this.rt.committed;
    // Cosmos tx execution (and its codecs) loads with the first Cosmos tx.
    const { checkCosmosTx } = await import('./cosmos/cosmos-exec.js');
    return checkCosmosTx(d, this.cosmosEnv(config, this.meta!.lastHeight + 1, this.nextBaseFee(), this.ibc), {
      getAccount: (a) => committed.getAccount(a),
      putAccount: async () => undefined,
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
    const meta = this.requireMeta();
    const gasLimit = blockGasLimit(meta.config.maxGas);
    const minBaseFee = BigInt(meta.config.minGasPrice);
    const root = this.committedRoot();
    return prepareEmptyBlocks({
      count,
      firstBaseFee: BigInt(meta.nextBaseFee),
      nextBaseFee: (baseFee) => nextBaseFee({ gasUsed: 0n, gasLimit, baseFee }, minBaseFee),
      gasLimit,
      coinbase: this.view.coinbaseOverride?.bytes,
      stateRoot: root,
      parentHash: meta.lastBlockHash === '' ? ZERO_HASH : fromHex(meta.lastBlockHash),
      appHash: evmAppHash(root, meta.lastIbcRoot ? fromHex(meta.lastIbcRoot) : undefined),
    });
  }

  /** Commits a segment the block store holds: the meta moves to its last block (the state stays), BLOCKHASH learns its hashes. */
  async commitEmptySegment(segment: EmptySegment): Promise<void> {
    const meta = this.requireMeta();
    if (segment.from !== meta.lastHeight + 1)
      throw new EvmAppError(`an empty segment from ${segment.from} does not follow the app's height ${meta.lastHeight}`);
    const gasLimit = blockGasLimit(meta.config.maxGas);
    const next: AppMeta = {
      ...meta,
      lastHeight: segment.to,
      // Empty blocks change no state: the EVM root stays.
      lastAppHash: meta.lastHeight > 0 ? meta.lastAppHash : meta.genesisRoot,
      lastBlockHash: hex(segmentBlockId(segment, segment.to).hash),
      nextBaseFee: nextBaseFee({ gasUsed: 0n, gasLimit, baseFee: lastBaseFee(segment) }, BigInt(meta.config.minGasPrice)).toString(),
    };
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
    const m = this.meta;
    if (m === undefined) return EMPTY_TRIE_ROOT;
    return fromHex(m.lastHeight > 0 ? m.lastAppHash : m.genesisRoot);
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

/** The EVM chain's multistore: the `ibc` tree on the app's db, `evm` the state root of each height. */
function openEvmStores(store: AppStore, keepRecent = 0): Promise<AppStores> {
  return AppStores.open(
    new Map([[IBC_STORE_KEY, levelNodeDb(store.ibcTree)]]),
    store.ibcHeights,
    async (h) => {
      const root = await store.rootAt(h);
      return root && new Map([[EVM_STORE, root]]);
    },
    { keepRecent },
  );
}

/** CometBFT proposer addresses are 20 bytes; anything else maps to the zero address. */
function coinbaseOf(proposer: Uint8Array): Address {
  return new Address(proposer.length === 20 ? Uint8Array.from(proposer) : new Uint8Array(20));
}

function fromHex(h: string): Uint8Array {
  return new Uint8Array(Buffer.from(h.startsWith('0x') ? h.slice(2) : h, 'hex'));
}
