/**
 * The composition root: builds every part of a node from its config and genesis, wires them
 * (one direction of dependency), runs the ABCI handshake and starts consensus and the servers.
 * A node is a value: two nodes in one process share nothing.
 *
 *   stores (level) ─> app (EVM) ─> mempool ─> block executor ─> consensus engine
 *                                     └──────── event bus ──────────┘
 *   RPC servers read through narrow environments built from these parts.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { classicLevel } from '../store/classic-db.js';
import { BTreeLevel } from '../store/btree-level.js';
import type { Logger } from 'pino';
import { createLogger } from '../util/logger.js';
import type { ResponseCheckTx } from '../abci/types.js';
import type { AppLevel } from '../app/stores/app-store.js';
import { createEvmApp, type EvmApp } from '../app/abci/evm-app.js';
import { APP_VERSION } from '../app/abci/app-info.js';
import { resolveConfig } from '../config/resolve.js';
import type { DeepPartial, NodeConfig } from '../config/types.js';
import type { BlockExecutor } from '../consensus/block-executor.js';
import type { ConsensusEngine } from '../consensus/engine.js';
import type { LocalValidator } from '../consensus/validator.js';
import type { Ed25519Key } from '../crypto/ed25519.js';
import type { EventBus } from '../events/bus.js';
import type { Subscription } from '../events/subscription.js';
import type { DevAccount } from '../genesis/dev-accounts.js';
import { createDevnetGenesis, evmChainIdFromChainId, type DevnetGenesisOptions } from '../genesis/devnet.js';
import type { GenesisDoc } from '../genesis/genesis-doc.js';
import { loadHome } from '../genesis/home.js';
import type { Mempool } from '../mempool/mempool.js';
import type { BlockIndexer } from '../store/block-indexer.js';
import type { BlockStore } from '../store/block-store.js';
import type { IndexerService } from '../store/indexer-service.js';
import type { StateStore } from '../store/state-store.js';
import type { TxIndexer } from '../store/tx-indexer.js';
import type { Timestamp } from '../types/time.js';
import { VERSION } from '../version.js';
import { DevnetControl } from '../devnet/devnet-control.js';
import { Keystore } from './keystore/keystore.js';
import { openApiKeyStore, type ApiKeyStore } from '../rpc/routing/api-keys.js';
import type { EthService } from '../rpc/eth/service.js';
import { createEthService } from './rpc-eth.js';
import type { NodeQuerySource } from './cosmos-node-queries.js';
import { NODE_QUERY_SERVICES } from '../app/abci/lazy-query-routes.js';
import type { ChainMetrics, MetricsRegistry } from './metrics.js';
import type { RelayerControl } from '../rpc/eth/namespaces/services.js';
import { timestampToNs } from '../types/time.js';
import { startServers, type RunningServers, type ServerUrls } from './servers.js';
import { buildConsensusCore, chainMetrics, openChainStores, quorumShortfall, startProduction, type Db } from './chain-core.js';

export interface StartNodeOptions {
  /** A home folder made by `chainlet init`: config files, genesis, keys, and data on disk. */
  home?: string;
  /** Overrides on top of defaults and the home's config files. */
  config?: DeepPartial<NodeConfig>;
  /** A genesis document; else the home's genesis, else a devnet built from `devnet`. */
  genesis?: GenesisDoc;
  /** Validator keys for `genesis` (the in-process validators); devnet keys are derived. */
  validatorKeys?: Ed25519Key[];
  devnet?: DevnetGenesisOptions;
  /**
   * Start the RPC servers (default true). Ports from config; pass 0 in tests. `'later'`: none yet,
   * `listen()` opens them (a network opens every chain's servers, then says it is ready).
   */
  servers?: boolean | 'later';
  /** Told what the start waits for when the first block may take a while (interval mode, offline validators). */
  onWait?: (what: string) => void;
  /** Indices (genesis order) of validators to start offline. */
  offlineValidators?: number[];
  /** Where the node logs; by default a pino logger at `log_level`, or for an in-memory node at the default level a silent one. */
  logger?: Logger;
  /** A network's one metrics registry: the node reports there and serves no `/metrics` of its own. */
  metrics?: MetricsRegistry;
  /** The network's IBC relayers, which chainlet_pauseRelayer, chainlet_relayerStatus… control (given by the network at start). */
  relayer?: RelayerControl;
}

export interface ChainletNode {
  readonly chainId: string;
  readonly evmChainId: number;
  readonly genesis: GenesisDoc;
  /** The dev accounts funded at genesis (devnet only; empty for a custom genesis). */
  readonly accounts: DevAccount[];
  readonly config: NodeConfig;
  readonly urls: ServerUrls;
  readonly height: number;
  /**
   * Why the chain cannot produce blocks now (its online validators hold no more than 2/3 of the
   * voting power), or undefined. A chain that starts so serves its RPC at its last height.
   */
  readonly halted: string | undefined;
  /** Opens the RPC servers of a node started with `servers: 'later'` (no-op once they run). */
  listen(): Promise<void>;
  /**
   * The node's logger. A silent one (an in-memory node at the default level) is a no-op object
   * with pino's logging calls, not a pino instance: raising its `level` prints nothing. To log from
   * an in-process node, give `config.logLevel` or pass your own `logger`.
   */
  readonly logger: Logger;
  /** CheckTx and mempool admission, as broadcast_tx_sync. Mempool errors throw. */
  broadcastTx(tx: Uint8Array): Promise<ResponseCheckTx>;
  /** Produces `n` blocks now; resolves with their heights. */
  mine(n?: number, opts?: { timestamp?: Timestamp }): Promise<number[]>;
  subscribe(query: string, subscriber?: string): Subscription;
  setValidatorOnline(index: number, online: boolean): void;
  waitForHeight(height: number): Promise<void>;
  stop(): Promise<void>;
  /** The parts, for the RPC environments, tests and the benchmark. */
  readonly internals: NodeInternals;
}

export interface NodeInternals {
  app: EvmApp;
  mempool: Mempool;
  eventBus: EventBus;
  blockStore: BlockStore;
  stateStore: StateStore;
  txIndexer: TxIndexer | undefined;
  blockIndexer: BlockIndexer | undefined;
  /** Await `indexer.flush()` before reading the indexers for results that must be current. */
  indexer: IndexerService;
  consensus: ConsensusEngine;
  executor: BlockExecutor;
  nodeKey: Ed25519Key | undefined;
  validators: LocalValidator[];
  /** The root database every store is a sublevel of. */
  db: Db;
  /** evm_* / anvil_* / hardhat_* and miner_* operations (src/devnet). */
  devnet: DevnetControl;
  /** Password-protected accounts of the personal namespace (`<home>/keystore`, else in memory). */
  keystore: Keystore;
  /** Prometheus metrics, with `[instrumentation] prometheus = true`. */
  metrics: ChainMetrics | undefined;
  /** The routing API's keys (`<home>/config/api_keys.json`, else in memory), opened at first use. */
  readonly apiKeys: ApiKeyStore;
  /**
   * The node's one Ethereum JSON-RPC service, built at first use: its env (filters, call executor,
   * subscriptions, profiler) is shared by the HTTP/WS server and every in-process provider.
   */
  readonly eth: EthService;
}

let nodeCounter = 0;

async function openDb(cfg: NodeConfig): Promise<Db> {
  if (cfg.dbBackend === 'classic') {
    if (!cfg.home) throw new Error('db_backend "classic" needs a home folder (--home)');
    const dir = join(cfg.home, 'data');
    mkdirSync(dir, { recursive: true });
    return (await classicLevel(join(dir, 'chainlet.db'))) as unknown as Db;
  }
  return new BTreeLevel<string, Uint8Array>({ keyEncoding: 'utf8', valueEncoding: 'view' }) as unknown as Db;
}

export async function startNode(opts: StartNodeOptions = {}): Promise<ChainletNode> {
  const config = resolveConfig(opts.home, opts.config);
  const id = ++nodeCounter;
  const logger = opts.logger ?? (await createLogger({ level: config.logLevel === 'info' && !opts.home ? 'silent' : config.logLevel, name: `chainlet-${id}` }));

  // Module loggers are kept so anvil_setLoggingEnabled can silence and restore all of them (a pino
  // child keeps its own level once made).
  const moduleLoggers: Logger[] = [logger];
  const moduleLogger = (module: string): Logger => {
    const l = logger.child({ module });
    moduleLoggers.push(l);
    return l;
  };

  // ── genesis and keys ──
  let genesis: GenesisDoc;
  let validatorKeys: Ed25519Key[];
  let accounts: DevAccount[] = [];
  let nodeKey: Ed25519Key | undefined;
  if (opts.genesis) {
    genesis = opts.genesis;
    validatorKeys = opts.validatorKeys ?? [];
  } else if (opts.home) {
    const h = loadHome(opts.home);
    genesis = h.genesis;
    validatorKeys = h.validatorKeys;
    nodeKey = h.nodeKey;
    accounts = h.accounts;
  } else {
    const d = createDevnetGenesis(opts.devnet);
    genesis = d.genesis;
    validatorKeys = d.validatorKeys;
    accounts = d.accounts;
  }
  const evmChainId = Number((genesis.appState as { evm?: { chain_id?: string } }).evm?.chain_id ?? evmChainIdFromChainId(genesis.chainId) ?? 9000);

  // ── stores and app ──
  const db = await openDb(config);
  await db.open();
  const sub = (name: string) => db.sublevel(name, { keyEncoding: 'utf8', valueEncoding: 'view' }) as unknown as Db;
  const stores = await openChainStores(sub, config);
  const { segments, blockStore, stateStore, txIndexer, blockIndexer } = stores;
  const nodeQuerySource: NodeQuerySource = {
    blockStore,
    txIndexer,
    info: () => {
      const key = nodeKey ?? validatorKeys[0];
      return {
        chainId: genesis.chainId,
        moniker: config.moniker,
        nodeId: key ? Buffer.from(key.address).toString('hex') : '',
        rpcAddress: config.rpc.laddr,
        appVersion: APP_VERSION,
      };
    },
  };
  // The node's gRPC services (blocks, txs, node info) load with their first query.
  const nodeQueries = {
    services: NODE_QUERY_SERVICES,
    load: async () => (await import('./cosmos-node-queries.js')).cosmosNodeQueryRoutes(nodeQuerySource),
  };
  const app = await createEvmApp({
    db: sub('app') as unknown as AppLevel,
    logger: moduleLogger('app'),
    minGasPrice: config.evm.minGasPrice > 0n ? config.evm.minGasPrice : undefined,
    pruningKeepRecent: config.pruningKeepRecent,
    trieCacheSize: config.evm.trieCacheSize,
    lazyQueryRoutes: [nodeQueries],
    segments,
  });
  // Trace replays run a block's every tx again, Cosmos ones too: the block store has them.
  app.setBlockSource(async (height) => {
    const block = await blockStore.loadBlock(height);
    return block && { txs: block.data.txs, timeNs: timestampToNs(block.header.time) };
  });

  // ── handshake, then consensus ──
  const core = await buildConsensusCore({
    app,
    segmentApp: app,
    stores,
    genesis,
    validatorKeys,
    config,
    logger,
    moduleLogger,
    offlineValidators: opts.offlineValidators,
    appVersion: VERSION,
  });
  const { eventBus, mempool, indexer, executor, consensus, validators } = core;
  const devnet = new DevnetControl(
    { db, chainId: genesis.chainId, consensus: consensus.admin, app: app.admin, mempool, logger: moduleLogger('devnet') },
    { intervalMs: config.consensus.timeoutCommitMs, maxMineBlocks: config.evm.maxMineBlocks },
  );
  if (opts.relayer) devnet.relayer = opts.relayer;
  const level = logger.level;
  devnet.onLoggingChange((on) => {
    for (const l of moduleLoggers) l.level = on ? level : 'silent';
  });
  const keystore = new Keystore({ dir: config.home ? join(config.home, 'keystore') : undefined });
  // A fresh chain commits its first block before the node is handed out (as CometBFT: no client ever sees height 0).
  const { halted } = await startProduction(core, { onWait: opts.onWait, consensus: config.consensus });
  // hardhat_reset / anvil_reset go back to the chain as it is now (a level snapshot: O(1)); a chain
  // halted at start records it once its first block commits (the halted round holds the engine's gate).
  let stopped = false;
  if (config.evm.devnet && halted === undefined) await devnet.recordStart();
  else if (config.evm.devnet) {
    void consensus
      .waitForHeight(genesis.initialHeight)
      .then(() => (stopped ? undefined : devnet.recordStart()))
      .catch(() => undefined);
  }

  // prom-client is loaded only with `[instrumentation] prometheus = true` (or a network's registry).
  const metrics = await chainMetrics(core, config, opts.metrics);
  // Owned by the node, made at first use (no module-level state: two nodes in a process share nothing).
  let apiKeys: ApiKeyStore | undefined;
  let eth: EthService | undefined;
  const internals: NodeInternals = {
    app,
    mempool,
    eventBus,
    blockStore,
    stateStore,
    txIndexer,
    blockIndexer,
    indexer,
    consensus,
    executor,
    nodeKey,
    validators,
    db,
    devnet,
    keystore,
    metrics,
    get apiKeys() {
      return (apiKeys ??= openApiKeyStore(config.home));
    },
    get eth() {
      return (eth ??= createEthService(node));
    },
  };
  let servers: RunningServers | undefined;
  let localSubscriptions = 0;

  const node: ChainletNode = {
    chainId: genesis.chainId,
    evmChainId,
    genesis,
    accounts,
    config,
    get urls() {
      return servers?.urls ?? {};
    },
    get height() {
      return consensus.height;
    },
    get halted() {
      return quorumShortfall(consensus.state.validators, validators);
    },
    async listen() {
      if (servers || stopped) return;
      try {
        servers = await startServers(node);
      } catch (err) {
        await node.stop();
        throw err;
      }
    },
    logger,
    broadcastTx: (tx) => mempool.checkTx(tx),
    mine: (n, o) => consensus.mine(n, o),
    // Each local subscription is its own subscriber unless one is named (CometBFT keys by client).
    subscribe: (query, subscriber = `node-${id}-local-${++localSubscriptions}`) => eventBus.subscribe(subscriber, query),
    setValidatorOnline: (i, online) => consensus.setValidatorOnline(i, online),
    waitForHeight: (h) => consensus.waitForHeight(h),
    internals,
    async stop() {
      if (stopped) return;
      stopped = true;
      await eth?.env.profiler.dispose();
      await servers?.stop();
      eth?.close();
      metrics?.stop();
      keystore.close();
      await devnet.close();
      await consensus.stop();
      await indexer.flush().catch((err: unknown) => logger.error({ err }, 'indexing failed'));
      eventBus.close();
      await app.close();
      await db.close();
    },
  };
  if (opts.servers === undefined || opts.servers === true) await node.listen();
  return node;
}
