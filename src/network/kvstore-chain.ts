/**
 * A chain running CometBFT's kvstore example app under the same engine, mempool, stores and
 * CometBFT RPC as the EVM chain: the proof that consensus drives any ABCI application, and the
 * seam the Cosmos-side chains of the network are built on.
 */
import { MemoryLevel } from 'memory-level';
import type { Logger } from 'pino';
import { KvStoreApp } from '../apps/kvstore/kvstore-app.js';
import { mergeConfig } from '../config/defaults.js';
import type { DeepPartial, NodeConfig } from '../config/types.js';
import { createDevnetGenesis } from '../genesis/devnet.js';
import type { GenesisDoc } from '../genesis/genesis-doc.js';
import { startAbciChain, type AbciChain } from './abci-chain.js';

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
}

export interface KvStoreChain extends AbciChain<KvStoreApp> {
  readonly kind: 'kvstore';
}

export async function startKvStoreChain(spec: KvStoreChainSpec): Promise<KvStoreChain> {
  const chainId = spec.chainId ?? DEFAULT_KVSTORE_CHAIN_ID;
  const dev = createDevnetGenesis({ chainId, validators: spec.validators ?? 1 });
  // The kvstore reads no app state: its genesis carries none.
  const genesis: GenesisDoc = { ...dev.genesis, appState: {} };
  const db = new MemoryLevel<string, Uint8Array>({ keyEncoding: 'utf8', valueEncoding: 'view' });
  await db.open();
  const app = await KvStoreApp.open(db.sublevel('app', { keyEncoding: 'utf8', valueEncoding: 'view' }) as never);
  const chain = await startAbciChain({
    app,
    genesis,
    validatorKeys: dev.validatorKeys,
    config: mergeConfig({ rpc: { laddr: DEFAULT_KVSTORE_RPC_LADDR } } as NodeConfig, spec.config as never) as DeepPartial<NodeConfig>,
    logger: spec.logger,
    async closeApp() {
      await app.close();
      await db.close();
    },
  });
  return Object.assign(chain, { kind: 'kvstore' as const });
}
