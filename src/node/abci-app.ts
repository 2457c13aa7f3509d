/**
 * `chainlet app`: the EVM application of a home, alone, served over the ABCI socket to a real
 * CometBFT (which then owns consensus, the mempool, blocks and the node RPC). The app's state lives
 * in `<home>/data/app.db`, apart from the in-process node's database.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { classicLevel } from '../store/classic-db.js';
import type { Logger } from 'pino';
import { createLogger } from '../util/logger.js';
import { startAbciServer, type AbciServer } from '../abci-server/server.js';
import type { AppLevel } from '../app/stores/app-store.js';
import { createEvmApp, type EvmApp } from '../app/abci/evm-app.js';
import type { Application } from '../abci/application.js';
import { KvStoreApp } from '../apps/kvstore/kvstore-app.js';
import type { NodeConfig } from '../config/types.js';
import { resolveConfig } from '../config/resolve.js';
import type { Db } from './chain-core.js';
import { DEFAULT_PROXY_APP } from './abci-app-kinds.js';

export interface AppServerOptions {
  home: string;
  /** Opens the home's application (its chain kind's `socketApp`, src/chains); default the EVM app (`openHomeApp`). */
  open?: (home: string, config: NodeConfig, logger: Logger) => Promise<HomeApp<Application>>;
  /** `tcp://host:port` or `unix:///path` (CometBFT's `proxy_app`). */
  address?: string;
  maxMessageBytes?: number;
  /** Bytes of requests a connection may queue for the app before it stops being read (default 4 MiB). */
  maxQueueBytes?: number;
  logger?: Logger;
}

export interface RunningAppServer extends AbciServer {
  readonly home: string;
}

export interface HomeApp<App extends Application = EvmApp> {
  readonly app: App;
  close(): Promise<void>;
}

/** The kvstore example app on `<home>/data/kvstore.db`. */
export async function openHomeKvStore(home: string): Promise<HomeApp<KvStoreApp>> {
  const dir = join(home, 'data');
  mkdirSync(dir, { recursive: true });
  const db = await classicLevel(join(dir, 'kvstore.db'));
  await db.open();
  const app = await KvStoreApp.open(db.sublevel('app', { keyEncoding: 'utf8', valueEncoding: 'view' }) as unknown as Db);
  return {
    app,
    async close() {
      await app.close();
      await db.close();
    },
  };
}

/** The EVM app of a home on `<home>/data/app.db` (one process at a time: LevelDB locks it). */
export async function openHomeApp(home: string, config: NodeConfig, logger: Logger): Promise<HomeApp> {
  const dir = join(home, 'data');
  mkdirSync(dir, { recursive: true });
  const db = (await classicLevel(join(dir, 'app.db'))) as unknown as Db;
  await db.open();
  const app = await createEvmApp({
    db: db.sublevel('app', { keyEncoding: 'utf8', valueEncoding: 'view' }) as unknown as AppLevel,
    logger: logger.child({ module: 'app' }),
    minGasPrice: config.evm.minGasPrice > 0n ? config.evm.minGasPrice : undefined,
    pruningKeepRecent: config.pruningKeepRecent,
    trieCacheSize: config.evm.trieCacheSize,
  });
  return {
    app,
    async close() {
      await app.close();
      await db.close();
    },
  };
}

/** Serves `app` on `address` (CometBFT's proxy_app); `onStop` runs after the server closes. */
export async function serveApp(
  app: HomeApp<Application>,
  opts: { address?: string; maxMessageBytes?: number; maxQueueBytes?: number; logger: Logger },
): Promise<AbciServer> {
  try {
    return await startAbciServer({
      app: app.app,
      address: opts.address ?? DEFAULT_PROXY_APP,
      maxMessageBytes: opts.maxMessageBytes,
      maxQueueBytes: opts.maxQueueBytes,
      logger: opts.logger.child({ module: 'abci-server' }),
    });
  } catch (err) {
    await app.close();
    throw err;
  }
}

export async function serveAppOverSocket(opts: AppServerOptions): Promise<RunningAppServer> {
  const config = resolveConfig(opts.home);
  const logger = opts.logger ?? (await createLogger({ level: config.logLevel, name: 'chainlet-app' }));
  const homeApp: HomeApp<Application> = await (opts.open ?? openHomeApp)(opts.home, config, logger);
  const server = await serveApp(homeApp, { address: opts.address, maxMessageBytes: opts.maxMessageBytes, maxQueueBytes: opts.maxQueueBytes, logger });
  return {
    home: opts.home,
    address: server.address,
    stats: () => server.stats(),
    async stop() {
      await server.stop();
      await homeApp.close();
    },
  };
}
