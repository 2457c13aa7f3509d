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
import { segmentBlockSource } from '../stores/empty-segments.js';
import { chainConfigFromGenesis, commonOptsOf, defaultChainConfig } from './app-config.js';
import { AppStore } from '../stores/app-store.js';
import { checkAnyTx } from './mempool-check.js';
import { EvmAppError } from '../errors.js';
import { parseEvmGenesisBytes } from '../stores/genesis-state.js';
import { createRuntime } from '../execution/evm-runtime.js';
import { allTxsDecode, prepareTxs } from './proposal.js';
import { routeQuery } from '../../sdk/query-router.js';
import type { AppQueryContext } from './query-routes.js';
import { toPrefixedHex as hex } from '../../crypto/encoding.js';
import { LevelTrieDB } from '../stores/trie-db.js';
import { IbcStore } from '../../ibc/ibc-store.js';
import { evmAppHash, queryStore } from '../../ibc/app-stores.js';
import { IBC_STORE_KEY } from '../../ibc/keys.js';
import type { NodeBatch } from '../../store/iavl/index.js';
import type { EvmAppOptions } from './evm-app-options.js';
import { appInfo } from './app-info.js';
import { committedRoot, loadIbcStore, openEvmStores } from './evm-stores.js';
import { finalizeEvmBlock } from './finalize-block.js';
import { loadGenesis } from './init-chain.js';
import { EvmAppCore } from './evm-app-core.js';

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

/** The ABCI 2.0 methods of the EVM app, over its state and wiring (evm-app-core.ts). */
export class EvmApp extends EvmAppCore implements Application {
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
}
