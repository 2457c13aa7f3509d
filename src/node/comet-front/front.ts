/**
 * `chainlet rpc --comet URL --home DIR`: the EVM application of a home served to a real CometBFT
 * over the ABCI socket and, in the same process, the Ethereum JSON-RPC and the routing API in front
 * of it — the shape of a Cosmos EVM node (`evmd`), whose JSON-RPC server runs in the app's process
 * beside an out-of-process CometBFT.
 *
 *   CometBFT ── ABCI socket ──> EvmApp ── stores (<home>/data/app.db)
 *      ^                           │ onBlock (after each Commit)
 *      │ broadcast_tx_sync, tx,    v
 *      │ block, unconfirmed_txs   eth JSON-RPC (blocks, receipts, logs, state, calls: the app's stores)
 *      └───────────────────────── routing API (balances: the app; submit and status: CometBFT)
 *
 * Blocks, receipts, logs, state, calls and estimates are read from the app's own stores, which hold
 * every block CometBFT finalized (its hash included); what only CometBFT knows — its mempool, its
 * tx index and block headers — is asked of its RPC. The app's Commit drives newHeads and logs
 * subscriptions, so no CometBFT event subscription is needed. Devnet control (anvil_*, evm_*,
 * instant mining), `personal`, `admin` and `miner` need the in-process node: they are refused here.
 */
import type { Logger } from 'pino';
import { createLogger } from '../../util/logger.js';
import type { AbciServer } from '../../abci-server/server.js';
import { resolveConfig } from '../../config/resolve.js';
import type { DeepPartial, NodeConfig } from '../../config/types.js';
import { loadHome } from '../../genesis/home.js';
import { newEthService } from '../../rpc/eth/service.js';
import { startEthServer, type RunningEthRpc } from '../../rpc/eth/server.js';
import { openApiKeyStore } from '../../rpc/routing/api-keys.js';
import { DEFAULT_MAX_BODY, parseRoutingAddress, startRoutingServer, type RoutingApi } from '../../rpc/routing/server.js';
import { monotonicMs } from '../../rpc/routing/token-bucket.js';
import { timestampFromMs, type Timestamp } from '../../types/time.js';
import { openHomeApp, serveApp } from '../abci-app.js';
import { ethEnvOf } from '../rpc-eth.js';
import { evmRoutingChainOf } from '../evm-routing-chain.js';
import { CometRpcClient } from './comet-client.js';
import { RemoteTxPool } from './remote-txpool.js';

/** Namespaces that act on the in-process node (its keystore, its peers, its miner, its devnet control). */
const NODE_ONLY_NAMESPACES = ['personal', 'admin', 'miner'];

export class CometFrontConfigError extends Error {
  override name = 'CometFrontConfigError';
}

export interface CometFrontOptions {
  home: string;
  /** CometBFT's RPC, e.g. http://127.0.0.1:26657 (a client whose url is set later also works). */
  comet: string | CometRpcClient;
  /** Where CometBFT's proxy_app connects; default tcp://127.0.0.1:26658. */
  proxyApp?: string;
  maxMessageBytes?: number;
  /** Bytes of requests an ABCI connection may queue for the app before it stops being read (default 4 MiB). */
  maxQueueBytes?: number;
  /** Over the home's config files: `[json-rpc]`, `[routing]`, log level. */
  config?: DeepPartial<NodeConfig>;
  logger?: Logger;
}

export interface CometFront {
  /** The ABCI address CometBFT connects to. */
  readonly abciAddress: string;
  readonly comet: CometRpcClient;
  readonly urls: { jsonRpc?: string; jsonRpcWs?: string; routing?: string };
  stop(): Promise<void>;
}

export async function startCometFront(opts: CometFrontOptions): Promise<CometFront> {
  const config = resolveConfig(opts.home, opts.config);
  const refused = config.jsonRpc.api.filter((n) => NODE_ONLY_NAMESPACES.includes(n.trim().toLowerCase()));
  if (refused.length > 0)
    throw new CometFrontConfigError(
      `chainlet rpc cannot serve the ${refused.join(', ')} namespace${refused.length > 1 ? 's' : ''}: they act on the in-process node (use chainlet start); remove them from --json-rpc.api`,
    );
  const logger = opts.logger ?? (await createLogger({ level: config.logLevel, name: 'chainlet-rpc' }));
  const comet = typeof opts.comet === 'string' ? new CometRpcClient(opts.comet) : opts.comet;
  const home = loadHome(opts.home);

  const homeApp = await openHomeApp(opts.home, config, logger);
  const abci: AbciServer = await serveApp(homeApp, {
    address: opts.proxyApp,
    maxMessageBytes: opts.maxMessageBytes,
    maxQueueBytes: opts.maxQueueBytes,
    logger,
  });
  const { app } = homeApp;
  const view = app.evm;

  // The coinbase of the pending block: the last block's proposer (CometBFT rotates it; close enough for calls).
  let lastProposer: Uint8Array | undefined;
  let pool: RemoteTxPool | undefined;
  const offBlock = view.onBlock((b) => {
    lastProposer = b.coinbase.bytes;
    void pool?.afterBlock(b.txHashes);
  });

  const env = ethEnvOf({
    view,
    genesis: home.genesis,
    config: config.jsonRpc,
    devnet: false,
    txpool: (common) => (pool = new RemoteTxPool(comet, common, (err) => logger.warn({ err }, 'reading CometBFT unconfirmed_txs failed'))),
    accounts: home.accounts,
    logger,
    nextBlock: (): { time: Timestamp; proposer: Uint8Array | undefined } => ({ time: timestampFromMs(Date.now()), proposer: lastProposer }),
  });
  const service = newEthService(env, { devnet: false, onStateChange: () => () => undefined });

  let eth: RunningEthRpc | undefined;
  let routing: RoutingApi | undefined;
  const stop = async (): Promise<void> => {
    await routing?.stop();
    await eth?.stop();
    await env.profiler.dispose();
    service.close();
    offBlock();
    await abci.stop();
    await homeApp.close();
  };
  try {
    if (config.jsonRpc.enable) eth = await startEthServer(service, logger);
    if (config.routing.enable) {
      const txpool = pool!;
      const chain = evmRoutingChainOf({
        chainId: home.genesis.chainId,
        evmChainId: Number(view.chainId),
        appState: home.genesis.appState,
        app,
        erc20Tokens: config.routing.erc20Tokens,
        // The ERC20 reads share eth_call's call service (its limits, its EVMs).
        calls: env.calls,
        checkTx: (tx) => txpool.submit(tx),
        pooledTx: (hash) => txpool.pooled(hash),
        indexedTx: (hash) => comet.tx(hash),
        block: (height) => comet.block(height),
      });
      const { host, port } = parseRoutingAddress(config.routing.address);
      const maxBodyBytes = Math.max(DEFAULT_MAX_BODY, Math.ceil((config.mempool.maxTxBytes * 4) / 3) + 64 * 1024);
      routing = await startRoutingServer(
        { chains: [chain], config: config.routing, logger: logger.child({ module: 'routing' }), apiKeys: openApiKeyStore(opts.home), now: monotonicMs },
        { host, port, maxBodyBytes },
      );
    }
  } catch (err) {
    await stop();
    throw err;
  }
  return {
    abciAddress: abci.address,
    comet,
    urls: { jsonRpc: eth?.url, jsonRpcWs: eth?.wsUrl, routing: routing?.url },
    stop,
  };
}
