/**
 * A chain running CometBFT's kvstore example app under the same engine, mempool, stores and
 * CometBFT RPC as the EVM chain: the proof that consensus drives any ABCI application, and the
 * seam the Cosmos-side chains of the network are built on.
 */
import { MemoryLevel } from 'memory-level';
import pino, { type Logger } from 'pino';
import type { ResponseCheckTx } from '../abci/types.js';
import { KvStoreApp } from '../apps/kvstore/kvstore-app.js';
import { defaultConfig, mergeConfig } from '../config/defaults.js';
import type { DeepPartial, NodeConfig } from '../config/types.js';
import type { Subscription } from '../events/subscription.js';
import { createDevnetGenesis } from '../genesis/devnet.js';
import type { GenesisDoc } from '../genesis/genesis-doc.js';
import type { CometRpcServer } from '../rpc/comet/server.js';
import { VERSION } from '../version.js';
import { buildConsensusCore, openChainStores, startProduction, type Db } from '../node/chain-core.js';
import { startCometRpc } from '../node/rpc-wiring.js';
import type { Timestamp } from '../types/time.js';

export const DEFAULT_KVSTORE_CHAIN_ID = 'kvstore-1';
/** The second chain's node RPC, next to the EVM chain's 26657. */
export const DEFAULT_KVSTORE_RPC_LADDR = 'tcp://127.0.0.1:26757';

export interface KvStoreChainSpec {
  kind: 'kvstore';
  chainId?: string;
  /** In-process validators (default 1). */
  validators?: number;
  /** `[rpc]`, `[consensus]`, `[mempool]`… of this chain; `rpc.laddr` '' starts no RPC server. */
  config?: DeepPartial<NodeConfig>;
  logger?: Logger;
}

export interface KvStoreChain {
  readonly kind: 'kvstore';
  readonly chainId: string;
  readonly genesis: GenesisDoc;
  readonly urls: { rpc?: string; rpcWs?: string };
  readonly height: number;
  broadcastTx(tx: Uint8Array): Promise<ResponseCheckTx>;
  mine(n?: number, opts?: { timestamp?: Timestamp }): Promise<number[]>;
  subscribe(query: string, subscriber?: string): Subscription;
  waitForHeight(height: number): Promise<void>;
  /** The app itself (Query by key, its state), for tests and the composition root. */
  readonly app: KvStoreApp;
  stop(): Promise<void>;
}

let chains = 0;

export async function startKvStoreChain(spec: KvStoreChainSpec): Promise<KvStoreChain> {
  const chainId = spec.chainId ?? DEFAULT_KVSTORE_CHAIN_ID;
  const base = mergeConfig(defaultConfig(), { rpc: { laddr: DEFAULT_KVSTORE_RPC_LADDR } });
  const config = mergeConfig(base, spec.config);
  const id = ++chains;
  const logger = spec.logger ?? pino({ level: config.logLevel === 'info' ? 'silent' : config.logLevel, name: `chainlet-${chainId}-${id}` });
  const moduleLogger = (module: string) => logger.child({ module });

  const dev = createDevnetGenesis({ chainId, validators: spec.validators ?? 1 });
  // The kvstore reads no app state: its genesis carries none.
  const genesis: GenesisDoc = { ...dev.genesis, appState: {} };
  const db = new MemoryLevel<string, Uint8Array>({ keyEncoding: 'utf8', valueEncoding: 'view' }) as unknown as Db;
  await db.open();
  const sub = (name: string) => db.sublevel(name, { keyEncoding: 'utf8', valueEncoding: 'view' }) as unknown as Db;
  const stores = await openChainStores(sub, config);
  const app = await KvStoreApp.open(sub('app'));
  const core = await buildConsensusCore({ app, stores, genesis, validatorKeys: dev.validatorKeys, config, logger, moduleLogger, appVersion: VERSION });
  await startProduction(core);
  const { consensus, mempool, eventBus, indexer, validators } = core;

  const internals = { app, mempool, eventBus, blockStore: stores.blockStore, stateStore: stores.stateStore, txIndexer: stores.txIndexer, blockIndexer: stores.blockIndexer, consensus, validators, nodeKey: undefined };
  let rpc: CometRpcServer | undefined;
  let stopped = false;
  let localSubscriptions = 0;
  const chain: KvStoreChain = {
    kind: 'kvstore',
    chainId,
    genesis,
    get urls() {
      return rpc ? { rpc: rpc.url, rpcWs: rpc.wsUrl } : {};
    },
    get height() {
      return consensus.height;
    },
    broadcastTx: (tx) => mempool.checkTx(tx),
    mine: (n, o) => consensus.mine(n, o),
    subscribe: (query, subscriber = `${chainId}-local-${++localSubscriptions}`) => eventBus.subscribe(subscriber, query),
    waitForHeight: (h) => consensus.waitForHeight(h),
    app,
    async stop() {
      if (stopped) return;
      stopped = true;
      await rpc?.stop();
      await consensus.stop();
      await indexer.flush().catch((err: unknown) => logger.error({ err }, 'indexing failed'));
      eventBus.close();
      await app.close();
      await db.close();
    },
  };
  if (config.rpc.laddr !== '') {
    try {
      rpc = await startCometRpc({ chainId, genesis, config, logger, internals });
    } catch (err) {
      await chain.stop();
      throw err;
    }
  }
  return chain;
}
