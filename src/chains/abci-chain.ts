/**
 * A chain whose application is any ABCI `Application`: the engine, mempool, stores (in memory) and
 * CometBFT RPC of this project around it. With a socket application (src/abci-server/socket-client.ts)
 * this is what a CometBFT node is to its `proxy_app`; the kvstore and hub kinds (src/chains/<kind>)
 * are such chains with an in-process app.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { BTreeLevel } from '../store/btree-level.js';
import { classicLevel } from '../store/classic-db.js';
import type { Logger } from 'pino';
import { createLogger } from '../util/logger.js';
import type { Application } from '../abci/application.js';
import type { ResponseCheckTx } from '../abci/types.js';
import { defaultConfig, mergeConfig } from '../config/defaults.js';
import type { DeepPartial, NodeConfig } from '../config/types.js';
import type { Ed25519Key } from '../crypto/ed25519.js';
import type { Subscription } from '../events/subscription.js';
import type { GenesisDoc } from '../genesis/genesis-doc.js';
import type { CometRpcServer } from '../rpc/comet/server.js';
import { VERSION } from '../version.js';
import { buildConsensusCore, chainMetrics, openChainStores, startProduction, type Db } from '../node/chain-core.js';
import type { MetricsRegistry } from '../node/metrics.js';
import { startCometRpc } from '../node/rpc-comet.js';
import { startPrometheusServer } from '../node/prometheus-server.js';
import type { RunningServer } from '../rpc/transport/index.js';
import type { Timestamp } from '../types/time.js';
import type { ValidatorSet } from '../types/validator-set.js';
import type { Mempool } from '../mempool/mempool.js';
import type { BlockStore } from '../store/block-store.js';
import type { TxIndexer } from '../store/tx-indexer.js';
import { cometActivity } from './comet-activity.js';
import type { ChainCapabilities } from './types.js';

export interface AbciChainOptions<App extends Application> {
  app: App;
  genesis: GenesisDoc;
  /** Keys of the in-process validators (genesis order). */
  validatorKeys: Ed25519Key[];
  /** Defaults, then these: `[rpc]`, `[consensus]`, `[mempool]`…; `rpc.laddr` '' starts no RPC server. */
  config?: DeepPartial<NodeConfig>;
  logger?: Logger;
  /** Called last at stop (the app's own close). */
  closeApp?: () => Promise<void> | void;
  /** A network's one metrics registry: the chain reports there and serves no `/metrics` of its own. */
  metrics?: MetricsRegistry;
  /** The open database the stores go on (sublevels); its owner closes it (`closeApp`). Default: one in memory. */
  db?: Db;
}

export interface AbciChain<App extends Application = Application> {
  readonly chainId: string;
  readonly genesis: GenesisDoc;
  readonly urls: { rpc?: string; rpcWs?: string; metrics?: string };
  readonly height: number;
  broadcastTx(tx: Uint8Array): Promise<ResponseCheckTx>;
  mine(n?: number, opts?: { timestamp?: Timestamp }): Promise<number[]>;
  subscribe(query: string, subscriber?: string): Subscription;
  waitForHeight(height: number): Promise<void>;
  readonly app: App;
  /** The stores and mempool (for the composition root: a routing adapter reads txs and blocks there). */
  readonly parts: { mempool: Mempool; blockStore: BlockStore; txIndexer: TxIndexer | undefined };
  /** The validator set of the next height (the relayer sends it with a header). */
  validatorSet(): ValidatorSet;
  stop(): Promise<void>;
  /** Its CometBFT RPC, explorer feed, activity lines and metrics, as the network sees them (src/chains/types.ts). */
  readonly capabilities: ChainCapabilities;
}

let chains = 0;

export async function startAbciChain<App extends Application>(o: AbciChainOptions<App>): Promise<AbciChain<App>> {
  const { app, genesis } = o;
  const chainId = genesis.chainId;
  const config = mergeConfig(defaultConfig(), o.config);
  const id = ++chains;
  const logger = o.logger ?? (await createLogger({ level: config.logLevel === 'info' ? 'silent' : config.logLevel, name: `chainlet-${chainId}-${id}` }));
  const moduleLogger = (module: string) => logger.child({ module });

  const ownDb = o.db === undefined;
  const db = o.db ?? (new BTreeLevel<string, Uint8Array>({ keyEncoding: 'utf8', valueEncoding: 'view' }) as unknown as Db);
  if (ownDb) await db.open();
  const sub = (name: string) => db.sublevel(name, { keyEncoding: 'utf8', valueEncoding: 'view' }) as unknown as Db;
  const stores = await openChainStores(sub, config);
  const core = await buildConsensusCore({ app, stores, genesis, validatorKeys: o.validatorKeys, config, logger, moduleLogger, appVersion: VERSION });
  await startProduction(core);
  const { consensus, mempool, eventBus, indexer, validators } = core;

  const internals = {
    app,
    mempool,
    eventBus,
    blockStore: stores.blockStore,
    stateStore: stores.stateStore,
    txIndexer: stores.txIndexer,
    blockIndexer: stores.blockIndexer,
    consensus,
    validators,
    nodeKey: undefined,
  };
  let rpc: CometRpcServer | undefined;
  // A standalone chain serves its own Prometheus endpoint, as a CometBFT node; a network serves one for all its chains.
  const metrics = await chainMetrics(core, config, o.metrics);
  let prom: RunningServer | undefined;
  let stopped = false;
  let localSubscriptions = 0;
  const chain: AbciChain<App> = {
    chainId,
    genesis,
    get urls() {
      return { ...(rpc ? { rpc: rpc.url, rpcWs: rpc.wsUrl } : {}), ...(prom ? { metrics: `${prom.url}/metrics` } : {}) };
    },
    get height() {
      return consensus.height;
    },
    broadcastTx: (tx) => mempool.checkTx(tx),
    mine: (n, opts) => consensus.mine(n, opts),
    subscribe: (query, subscriber = `${chainId}-local-${++localSubscriptions}`) => eventBus.subscribe(subscriber, query),
    waitForHeight: (h) => consensus.waitForHeight(h),
    app,
    parts: { mempool, blockStore: stores.blockStore, txIndexer: stores.txIndexer },
    validatorSet: () => consensus.state.lastValidators ?? consensus.state.validators,
    capabilities: {
      rpc: () => (rpc ? [{ family: 'comet', url: rpc.url, ws: rpc.wsUrl }] : []),
      explorer: () => (rpc ? { chainId, comet: { rpc: rpc.url, ws: rpc.wsUrl } } : undefined),
      metrics: metrics !== undefined,
      activity: (write) => cometActivity((q, s) => eventBus.subscribe(s, q), write),
    },
    async stop() {
      if (stopped) return;
      stopped = true;
      await rpc?.stop();
      await prom?.stop();
      metrics?.stop();
      await consensus.stop();
      await indexer.flush().catch((err: unknown) => logger.error({ err }, 'indexing failed'));
      eventBus.close();
      await o.closeApp?.();
      if (ownDb) await db.close();
    },
  };
  try {
    if (config.rpc.laddr !== '') rpc = await startCometRpc({ chainId, genesis, config, logger, internals });
    if (metrics?.ownRegistry) prom = await startPrometheusServer(metrics.registry, config.instrumentation, logger);
  } catch (err) {
    await chain.stop();
    throw err;
  }
  return chain;
}

/** The options of a chain whose app lives in its own in-memory database (the network's Cosmos-style chains). */
export interface InMemoryAppChainOptions<App extends Application & { close(): Promise<void> }> {
  /** Opens the app on a (sub)level database. */
  openApp(db: Db): Promise<App>;
  genesis: GenesisDoc;
  validatorKeys: Ed25519Key[];
  /** Its default RPC listen address (spec config may move it). */
  defaultRpc: string;
  config?: DeepPartial<NodeConfig>;
  logger?: Logger;
  metrics?: MetricsRegistry;
  /**
   * A folder for the chain's LevelDB (`<dataDir>/chainlet.db`): the app (sublevel `app`) and the
   * block, state and index stores in one database, so the chain resumes after any stop. Default:
   * in memory, gone at stop.
   */
  dataDir?: string;
}

export async function startInMemoryAppChain<App extends Application & { close(): Promise<void> }>(o: InMemoryAppChainOptions<App>): Promise<AbciChain<App>> {
  const db = (o.dataDir === undefined
    ? new BTreeLevel<string, Uint8Array>({ keyEncoding: 'utf8', valueEncoding: 'view' })
    : await openDataDir(o.dataDir)) as unknown as Db;
  await db.open();
  const app = await o.openApp(db.sublevel('app', { keyEncoding: 'utf8', valueEncoding: 'view' }) as unknown as Db);
  return startAbciChain({
    ...(o.dataDir !== undefined ? { db } : {}),
    app,
    genesis: o.genesis,
    validatorKeys: o.validatorKeys,
    config: mergeConfig({ rpc: { laddr: o.defaultRpc } } as NodeConfig, o.config as never) as DeepPartial<NodeConfig>,
    logger: o.logger,
    metrics: o.metrics,
    async closeApp() {
      await app.close();
      await db.close();
    },
  });
}

/** The chain's LevelDB in `dir` (made if missing), not opened yet. */
async function openDataDir(dir: string) {
  mkdirSync(dir, { recursive: true });
  return classicLevel(join(dir, 'chainlet.db'));
}
