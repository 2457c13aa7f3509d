/**
 * The EVM kind: the Cosmos-EVM-style chain of `startNode()` (src/node/node.ts) with its CometBFT
 * RPC, Ethereum JSON-RPC and, for the network, the routing API and the explorer. In a network its
 * servers open once every chain is up, and the network's one routing API lives at the first EVM
 * chain's `[routing] address`.
 */
import { mergeConfig } from '../../config/defaults.js';
import { resolveConfig } from '../../config/resolve.js';
import type { DeepPartial, NodeConfig } from '../../config/types.js';
import { startNode, type ChainletNode, type StartNodeOptions } from '../../node/node.js';
import { evmRoutingChain, explorerUpstreams, startRoutingApi } from '../../node/rpc-routing.js';
import { RELAYER_PRIVATE_KEY, relayerKey } from '../../network/ibc/relayer-key.js';
import { evmHomeFunds, initEvmHome } from './home.js';
import { cometActivity } from '../comet-activity.js';
import type { Chain, ChainKind, ChainCapabilities } from '../types.js';
import { evmBannerLines, evmHaltedHint, evmSummary } from './banner.js';
import { evmIbcEndpoint } from './ibc.js';

export interface EvmChainSpec extends StartNodeOptions {
  kind: 'evm';
}

export type EvmChain = ChainletNode & Chain & { readonly kind: 'evm' };

/** Whether a chain of the network is an EVM chain (`network.evm`). */
export const isEvmChain = (c: Chain): c is EvmChain => c.kind === 'evm';

/** A relayer's funding at genesis: ample for a devnet's relay txs. */
const RELAYER_BALANCE = 10n ** 24n;
/** The routing API is the network's (one for every chain): a chain of the network starts none of its own. */
const NO_ROUTING: DeepPartial<NodeConfig> = { routing: { enable: false } };

export const evmKind: ChainKind<EvmChainSpec, EvmChain> = {
  name: 'evm',
  byDefault: true,
  help: 'evm is always there',
  cli: {
    options: [],
    spec: (ctx) => ({ kind: 'evm', home: ctx.home, config: ctx.overrides, devnet: ctx.devnet, offlineValidators: ctx.offlineValidators }),
  },
  instrumentation(spec) {
    const cfg = resolveConfig(spec.home, spec.config).instrumentation;
    return cfg.prometheus ? cfg : undefined;
  },
  ibc: {
    fund(spec, relayerKeys) {
      // A home's genesis is the home's: IBC when it funds the relayers (`chainlet init` writes it so); a given genesis is the user's.
      if (spec.genesis || (spec.home && !evmHomeFunds(spec.home, [RELAYER_PRIVATE_KEY, ...relayerKeys])))
        return {
          off: spec.genesis
            ? 'the EVM chain runs a given genesis, which does not fund the relayer (docs/network.md)'
            : "the EVM chain's home genesis does not fund the relayer (a home written by `chainlet init` does: docs/network.md)",
        };
      const alloc = Object.fromEntries(
        relayerKeys.map((k) => [`0x${Buffer.from(relayerKey('eth_secp256k1', k).address).toString('hex')}`, { balance: RELAYER_BALANCE.toString() }]),
      );
      return { spec: { ...spec, devnet: { ...spec.devnet, extraAlloc: { ...(spec.devnet?.extraAlloc ?? {}), ...alloc } } } };
    },
  },
  initHome: async (home, ctx) => initEvmHome(home, ctx),
  async start(spec, ctx) {
    const routingWanted = !ctx.standalone && spec.servers !== false && resolveConfig(spec.home, spec.config).routing.enable;
    const servers = ctx.standalone ? spec.servers : spec.servers === false ? false : 'later';
    const node = await startNode({
      onWait: ctx.onWait,
      ...spec,
      servers,
      config: ctx.standalone ? spec.config : (mergeConfig((spec.config ?? {}) as NodeConfig, NO_ROUTING as never) as DeepPartial<NodeConfig>),
      ...(ctx.metrics ? { metrics: ctx.metrics } : {}),
      ...(ctx.relayer ? { relayer: ctx.relayer } : {}),
    });
    const devnet = node.internals.devnet;
    const capabilities: ChainCapabilities = {
      rpc: () => [
        ...(node.urls.rpc ? [{ family: 'comet' as const, url: node.urls.rpc, ws: node.urls.rpcWs }] : []),
        ...(node.urls.jsonRpc ? [{ family: 'eth' as const, url: node.urls.jsonRpc, ws: node.urls.jsonRpcWs }] : []),
      ],
      routing: async () => evmRoutingChain(node),
      routingHost: {
        enabled: routingWanted,
        start: (o) =>
          startRoutingApi(
            node,
            [],
            o.chains,
            { ...explorerUpstreams(node), others: o.others, ...(o.ibcPackets ? { ibcPackets: o.ibcPackets } : {}) },
            o.ibcTransfers,
            o.ibcPaths ? { ibcPaths: o.ibcPaths } : {},
          ),
      },
      ibc: evmIbcEndpoint(node),
      explorer: () => (node.urls.rpc ? { chainId: node.chainId, comet: { rpc: node.urls.rpc, ws: node.urls.rpcWs } } : undefined),
      metrics: node.internals.metrics !== undefined,
      activity: (write) => cometActivity((q, s) => node.subscribe(q, s), write),
      logging: {
        get enabled() {
          return devnet.loggingEnabled;
        },
        onChange: (l) => devnet.onLoggingChange(l),
      },
      // A chain asked for no servers has none to open when the network is up.
      ...(servers === false ? {} : { listen: () => node.listen() }),
    };
    return Object.assign(node, { kind: 'evm' as const, capabilities });
  },
  socketApp: {
    note: 'state in <home>/data/app.db',
    open: async (home, config, logger) => (await import('../../node/abci-app.js')).openHomeApp(home, config, logger),
  },
  summary: (c, opts) => evmSummary(c, opts.mnemonic),
  bannerLines: evmBannerLines,
  haltedHint: evmHaltedHint,
};
