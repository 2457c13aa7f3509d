/**
 * A chain running CometBFT's kvstore example app under the same engine, mempool, stores and
 * CometBFT RPC as the EVM chain: the proof that consensus drives any ABCI application, and the
 * seam the Cosmos-side chains of the network are built on.
 */
import type { Logger } from 'pino';
import { KvStoreApp } from '../../apps/kvstore/kvstore-app.js';
import type { DeepPartial, NodeConfig } from '../../config/types.js';
import { createDevnetGenesis } from '../../genesis/devnet.js';
import { chainOnHome, initChainConfig, initChainHome, specConfigOnHome, type ChainGenesis } from '../chain-home.js';
import { startInMemoryAppChain, type AbciChain } from '../abci-chain.js';
import type { MetricsRegistry } from '../../node/metrics.js';
import { DEFAULT_KVSTORE_CHAIN_ID, DEFAULT_KVSTORE_RPC_LADDR } from './defaults.js';

export interface KvStoreChainSpec {
  kind: 'kvstore';
  chainId?: string;
  /** In-process validators (default 1). */
  validators?: number;
  /** `[rpc]`, `[consensus]`, `[mempool]`… of this chain, over its home's config.toml (with `home`); `rpc.laddr` '' starts no RPC server. */
  config?: DeepPartial<NodeConfig>;
  logger?: Logger;
  /** A network's one metrics registry (src/node/metrics.ts). */
  metrics?: MetricsRegistry;
  /**
   * A home folder: the chain keeps its genesis, keys and LevelDB in `<home>/kvstore/` and resumes there
   * after any stop (written from this spec's devnet genesis at its first start), and runs on its
   * `<home>/kvstore/config/config.toml` when there is one (`config` wins over it). Default: in memory.
   */
  home?: string;
}

export interface KvStoreChain extends AbciChain<KvStoreApp> {
  readonly kind: 'kvstore';
}

/** The kvstore's devnet genesis (no app state: the kvstore reads none) and validator keys. */
function kvStoreDevnetGenesis(spec: Omit<KvStoreChainSpec, 'kind'>): ChainGenesis {
  const dev = createDevnetGenesis({ chainId: spec.chainId ?? DEFAULT_KVSTORE_CHAIN_ID, validators: spec.validators ?? 1 });
  return { genesis: { ...dev.genesis, appState: {} }, validatorKeys: dev.validatorKeys };
}

/** The config.toml `chainlet init` writes in `<home>/kvstore/config/`: the kvstore's defaults, in CometBFT's layout. */
const KVSTORE_CONFIG_TOML = `# The kvstore chain's node settings (CometBFT's config.toml layout; any config.toml key applies).
# chainlet start --home reads them; --kvstore-rpc given on the command line overrides them.
moniker = "chainlet"

[rpc]
laddr = "${DEFAULT_KVSTORE_RPC_LADDR}"
`;

/** `chainlet init --home … --chains …,kvstore`: the kvstore's genesis, keys and config.toml in `<home>/kvstore/`. */
export function initKvStoreHome(home: string, overwrite: boolean): string[] {
  return [...initChainHome(home, 'kvstore', kvStoreDevnetGenesis({}), overwrite), ...initChainConfig(home, 'kvstore', KVSTORE_CONFIG_TOML, overwrite)];
}

export async function startKvStoreChain(spec: KvStoreChainSpec): Promise<KvStoreChain> {
  const { genesis, validatorKeys, dataDir } = chainOnHome(spec.home, 'kvstore', kvStoreDevnetGenesis(spec));
  const chain = await startInMemoryAppChain({
    openApp: (db) => KvStoreApp.open(db as never),
    genesis,
    validatorKeys,
    ...(dataDir ? { dataDir } : {}),
    defaultRpc: DEFAULT_KVSTORE_RPC_LADDR,
    config: specConfigOnHome(spec.home, 'kvstore', spec.config),
    logger: spec.logger,
    metrics: spec.metrics,
  });
  return Object.assign(chain, { kind: 'kvstore' as const });
}
