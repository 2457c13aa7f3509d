/**
 * A chain running CometBFT's kvstore example app under the same engine, mempool, stores and
 * CometBFT RPC as the EVM chain: the proof that consensus drives any ABCI application, and the
 * seam the Cosmos-side chains of the network are built on.
 */
import type { Logger } from 'pino';
import { KvStoreApp } from '../apps/kvstore/kvstore-app.js';
import type { DeepPartial, NodeConfig } from '../config/types.js';
import { createDevnetGenesis } from '../genesis/devnet.js';
import type { GenesisDoc } from '../genesis/genesis-doc.js';
import { startInMemoryAppChain, type AbciChain } from './abci-chain.js';
import type { MetricsRegistry } from '../node/metrics.js';

export const DEFAULT_KVSTORE_CHAIN_ID = 'kvstore-1';
/** The second chain's node RPC, next to the EVM chain's 26657. */
export const DEFAULT_KVSTORE_RPC_LADDR = 'tcp://127.0.0.1:26767';

export interface KvStoreChainSpec {
  kind: 'kvstore';
  chainId?: string;
  /** In-process validators (default 1). */
  validators?: number;
  /** `[rpc]`, `[consensus]`, `[mempool]`… of this chain; `rpc.laddr` '' starts no RPC server. */
  config?: DeepPartial<NodeConfig>;
  logger?: Logger;
  /** A network's one metrics registry (src/node/metrics.ts). */
  metrics?: MetricsRegistry;
}

export interface KvStoreChain extends AbciChain<KvStoreApp> {
  readonly kind: 'kvstore';
}

export async function startKvStoreChain(spec: KvStoreChainSpec): Promise<KvStoreChain> {
  const chainId = spec.chainId ?? DEFAULT_KVSTORE_CHAIN_ID;
  const dev = createDevnetGenesis({ chainId, validators: spec.validators ?? 1 });
  // The kvstore reads no app state: its genesis carries none.
  const genesis: GenesisDoc = { ...dev.genesis, appState: {} };
  const chain = await startInMemoryAppChain({
    openApp: (db) => KvStoreApp.open(db as never),
    genesis,
    validatorKeys: dev.validatorKeys,
    defaultRpc: DEFAULT_KVSTORE_RPC_LADDR,
    config: spec.config,
    logger: spec.logger,
    metrics: spec.metrics,
  });
  return Object.assign(chain, { kind: 'kvstore' as const });
}
