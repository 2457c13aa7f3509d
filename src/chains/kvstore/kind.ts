/**
 * The kvstore kind: CometBFT's kvstore example app (src/apps/kvstore) under the network's engine.
 * The smallest kind, and the worked example of docs/architecture.md ("Adding a chain kind"): a
 * spec and its start (start.ts), its defaults, and this descriptor, listed once in ../registry.ts.
 * It holds no tokens, so it has no routing adapter, and no IBC endpoint.
 */
import { resolveConfig } from '../../config/resolve.js';
import { parseListenAddress } from '../../config/listen-address.js';
import { definedUrls, stringOption } from '../format.js';
import type { ChainKind } from '../types.js';
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
      const given = stringOption(ctx.options, 'kvstoreRpc', DEFAULT_KVSTORE_RPC_LADDR);
      const laddr = ctx.host && given === DEFAULT_KVSTORE_RPC_LADDR ? `tcp://${ctx.host}:26767` : given;
      parseListenAddress(laddr, '--kvstore-rpc');
      ctx.listen.push({ flag: '--kvstore-rpc', address: laddr });
      const logLevel = ctx.overrides.logLevel;
      return {
        kind: 'kvstore',
        ...(ctx.home !== undefined ? { home: ctx.home } : {}),
        config: { ...(logLevel !== undefined ? { logLevel } : {}), rpc: { laddr } },
      };
    },
  },
  configLines: (ctx) => [`kvstore: CometBFT RPC ${stringOption(ctx.options, 'kvstoreRpc', DEFAULT_KVSTORE_RPC_LADDR)} (--kvstore-rpc)`],
  instrumentation(spec) {
    const cfg = resolveConfig(undefined, spec.config).instrumentation;
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
