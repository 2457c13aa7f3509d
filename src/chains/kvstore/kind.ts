/**
 * The kvstore kind: CometBFT's kvstore example app (src/apps/kvstore) under the network's engine.
 * The smallest kind, and the worked example of docs/architecture.md ("Adding a chain kind"): a
 * spec and its start (start.ts), its defaults, and this descriptor, listed once in ../registry.ts.
 * It holds no tokens, so it has no routing adapter, and no IBC endpoint.
 */
import { resolveConfig } from '../../config/resolve.js';
import { parseListenAddress } from '../../config/listen-address.js';
import type { DeepPartial, NodeConfig } from '../../config/types.js';
import { chainHomeConfig, chainSetting, specConfigOnHome } from '../chain-home.js';
import { definedUrls } from '../format.js';
import type { ChainKind, CliContext } from '../types.js';
import { DEFAULT_KVSTORE_RPC_LADDR } from './defaults.js';
import { initKvStoreHome, startKvStoreChain, type KvStoreChain, type KvStoreChainSpec } from './start.js';

export const kvstoreKind: ChainKind<KvStoreChainSpec, KvStoreChain> = {
  name: 'kvstore',
  help: `kvstore's RPC listens on ${DEFAULT_KVSTORE_RPC_LADDR.replace('tcp://', '')}`,
  cli: {
    options: [
      {
        flags: '--kvstore-rpc <laddr>',
        description: 'CometBFT RPC address of the kvstore chain (with --chains …,kvstore)',
        default: DEFAULT_KVSTORE_RPC_LADDR,
      },
    ],
    spec(ctx) {
      const { config, rpc } = kvstoreSettings(ctx);
      ctx.listen.push({ flag: rpc.from, address: rpc.value });
      const logLevel = ctx.overrides.logLevel;
      return {
        kind: 'kvstore',
        ...(ctx.home !== undefined ? { home: ctx.home } : {}),
        config: { ...config, ...(logLevel !== undefined ? { logLevel } : {}) },
      };
    },
  },
  configLines(ctx) {
    const { rpc } = kvstoreSettings(ctx);
    return [`kvstore: CometBFT RPC ${rpc.value} (${rpc.from})`];
  },
  instrumentation(spec) {
    const cfg = resolveConfig(undefined, specConfigOnHome(spec.home, 'kvstore', spec.config)).instrumentation;
    return cfg.prometheus ? cfg : undefined;
  },
  initHome: async (home, ctx) => initKvStoreHome(home, ctx.overwrite),
  start: (spec, ctx) => startKvStoreChain({ ...spec, ...(ctx.metrics ? { metrics: ctx.metrics } : {}) }),
  socketApp: {
    note: "CometBFT's kvstore example, state in <home>/data/kvstore.db",
    open: async (home) => (await import('../../node/abci-app.js')).openHomeKvStore(home),
  },
  summary: async (c) => ({ chainId: c.chainId, kind: 'kvstore', height: c.height, urls: definedUrls(c.urls), accounts: [] }),
  bannerLines: (s) => [`${s.chainId} (kvstore): height ${s.height}`],
};

/** The kvstore's node config: `<home>/kvstore/config/config.toml` (`chainlet init` writes it), then `--kvstore-rpc` when given. */
function kvstoreSettings(ctx: CliContext) {
  const file = chainHomeConfig(ctx.home, 'kvstore');
  const rpc = chainSetting(ctx, 'kvstore', { option: 'kvstoreRpc', name: '--kvstore-rpc', fallback: DEFAULT_KVSTORE_RPC_LADDR }, file.rpc?.laddr, (v) => v);
  // `--host` moves the default address (the file's too, as init writes it) to its host.
  if (ctx.host && rpc.value === DEFAULT_KVSTORE_RPC_LADDR) rpc.value = `tcp://${ctx.host}:26767`;
  parseListenAddress(rpc.value, rpc.from);
  return { config: { ...file, rpc: { ...file.rpc, laddr: rpc.value } } as DeepPartial<NodeConfig>, rpc };
}
