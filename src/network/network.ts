/**
 * A network: the chains of this process, each with its own genesis, consensus, stores and
 * CometBFT RPC, started and stopped together, and one routing API over every chain that has a
 * routing adapter. `startNode()` stays the one-chain entry; this is the composition root for several.
 *
 *   chains in order (EVM: block 1, servers held) ─> IBC handshake (unless a chain is halted)
 *     ─> EVM servers listen ─> routing API listens ─> resolved (the CLI's banner: "ready")
 */
import { mergeConfig } from '../config/defaults.js';
import { resolveConfig } from '../config/resolve.js';
import type { DeepPartial, NodeConfig } from '../config/types.js';
import { slowBlockReasons } from '../node/chain-core.js';
import { startNode, type ChainletNode, type StartNodeOptions } from '../node/node.js';
import { explorerUpstreams, startRoutingApi } from '../node/rpc-wiring.js';
import type { RoutingApi } from '../rpc/routing/server.js';
import { startKvStoreChain, type KvStoreChain, type KvStoreChainSpec } from './kvstore-chain.js';
import type { SvmChain, SvmChainSpec } from './svm-chain.js';
import type { HubChain, HubChainSpec } from './hub-chain.js';
import { HUB_PREFIX } from './hub-defaults.js';
import { relayerAddress } from './ibc/relayer-key.js';
import type { PacketIndex } from './ibc/packet-index.js';
import type { Relayer, RelayerOptions } from './ibc/relayer.js';
import { openNetworkMetrics } from './network-metrics.js';
import type { RunningServer } from '../rpc/transport/index.js';
import { silentLogger } from '../util/logger.js';

export interface EvmChainSpec extends StartNodeOptions {
  kind: 'evm';
}

export type ChainSpec = EvmChainSpec | KvStoreChainSpec | HubChainSpec | SvmChainSpec;

export type NetworkChain = ({ readonly kind: 'evm' } & ChainletNode) | KvStoreChain | HubChain | SvmChain;

export interface Network {
  readonly chains: readonly NetworkChain[];
  /** The chain with this (Cosmos-style) chain id. */
  chain(chainId: string): NetworkChain | undefined;
  /** The EVM chain, when the network has one. */
  readonly evm: ChainletNode | undefined;
  /** The routing API over the chains that have a routing adapter (at the first EVM chain's `[routing] address`). */
  /** `metrics`: the one Prometheus `/metrics` of every chain, when a chain's config turns it on (network-metrics.ts). */
  readonly urls: { routing?: string; metrics?: string };
  /** The IBC relayer between the EVM chain and the hub (a `transfer` channel each side), when both run. */
  readonly relayer: Relayer | undefined;
  stop(): Promise<void>;
}

/** The relayer's funding at genesis: ample for a devnet's relay txs. */
const RELAYER_EVM_BALANCE = 10n ** 24n;
const RELAYER_HUB_BALANCE = 10n ** 15n;

export interface StartNetworkOptions {
  chains: ChainSpec[];
  /** IBC between the EVM chain and the hub (default on when both run); `false` starts no relayer. */
  ibc?: false | RelayerOptions;
  /** Told what the start waits for when a step may take a while (a first block in interval mode, the IBC handshake). */
  onWait?: (what: string) => void;
}

/**
 * The hub, its routing adapter and IBC, with the cosmjs-types codecs they use: loaded when the
 * network reaches its hub, so that the chains before it (the EVM chain first) start without them.
 */
const hubParts = (): Promise<typeof import('./hub-parts.js')> => import('./hub-parts.js');

/**
 * One turn of the event loop (its I/O phase included) between the steps of a network's start. The
 * steps are mostly synchronous (loading a chain's code, building its genesis, LiteSVM, the IBC
 * handshake's blocks), so without these turns a server already listening could not answer the
 * requests waiting for it (the hub's `/status` while the SVM chain starts) until the whole network is up.
 */
const ioTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** A chain's code, loaded, then a turn before its start. */
async function loaded<T>(load: Promise<T>): Promise<T> {
  const parts = await load;
  await ioTurn();
  return parts;
}

export async function startNetwork(opts: StartNetworkOptions): Promise<Network> {
  const ids = new Set<string>();
  const started: NetworkChain[] = [];
  let routing: RoutingApi | undefined;
  let relayer: Relayer | undefined;
  let packets: PacketIndex | undefined;
  let prom: RunningServer | undefined;
  // IBC needs the relayer funded in both geneses: the devnet ones are; a home's or a given genesis is the user's (docs/network.md).
  const devnetEvm = opts.chains.find((c): c is EvmChainSpec => c.kind === 'evm' && !c.home && !c.genesis);
  const wantsIbc = opts.ibc !== false && devnetEvm !== undefined && opts.chains.some((c) => c.kind === 'hub');
  const ibcSkipped = opts.ibc !== false && !wantsIbc && opts.chains.some((c) => c.kind === 'evm') && opts.chains.some((c) => c.kind === 'hub');
  const stopAll = async () => {
    await relayer?.stop();
    packets?.stop();
    await routing?.stop();
    await prom?.stop();
    await Promise.all(started.map((c) => c.stop()));
  };
  // One routing API for the whole network: the EVM chains start without their own.
  const firstEvm = opts.chains.find((c): c is EvmChainSpec => c.kind === 'evm');
  const routingWanted = firstEvm !== undefined && firstEvm.servers !== false && resolveConfig(firstEvm.home, firstEvm.config).routing.enable;
  const noRouting: DeepPartial<NodeConfig> = { routing: { enable: false } };
  const metrics = await openNetworkMetrics(opts.chains);
  try {
    for (const raw of opts.chains) {
      // Every chain reports to the network's one metrics registry (none with Prometheus off).
      const spec = { ...(wantsIbc ? fundRelayer(raw) : raw), ...(metrics ? { metrics: metrics.registry } : {}) };
      const chain: NetworkChain =
        spec.kind === 'evm'
          ? // Its servers open with the routing API, once every chain is up: whatever answers first, all answer.
            Object.assign(
              await startNode({
                onWait: opts.onWait,
                ...spec,
                servers: spec.servers === false ? false : 'later',
                config: mergeConfig((spec.config ?? {}) as NodeConfig, noRouting as never) as DeepPartial<NodeConfig>,
              }),
              { kind: 'evm' as const },
            )
          : spec.kind === 'kvstore'
            ? await startKvStoreChain(spec)
            : spec.kind === 'hub'
              ? await (await loaded(hubParts())).startHubChain(spec)
              : // LiteSVM is loaded only by a network that has an SVM chain.
                await (await loaded(import('./svm-chain.js'))).startSvmChain(spec);
      started.push(chain);
      if (ids.has(chain.chainId)) throw new Error(`two chains of the network have the chain id ${chain.chainId}`);
      ids.add(chain.chainId);
      await ioTurn();
    }
    const evms = started.filter((c): c is { readonly kind: 'evm' } & ChainletNode => c.kind === 'evm');
    const svms = started.filter((c): c is SvmChain => c.kind === 'svm');
    const hubs = started.filter((c): c is HubChain => c.kind === 'hub');
    const others = [
      ...(hubs.length > 0 ? hubs.map((await hubParts()).hubRoutingChain) : []),
      ...(svms.length > 0 ? svms.map((await import('./svm-routing.js')).svmRoutingChain) : []),
    ];
    // A halted chain cannot take the handshake's txs: the network starts without IBC (the banner says why).
    if (wantsIbc && evms[0] && hubs[0] && evms[0].halted === undefined) {
      const slow = handshakeWait(evms[0]);
      if (slow) opts.onWait?.(`opening IBC between ${evms[0].chainId} and ${hubs[0].chainId}: ${slow}`);
      const { evmRelayChain, hubRelayChain, indexedChain, PacketIndex, Relayer } = await hubParts();
      const evmSide = evmRelayChain(evms[0]);
      const hubSide = hubRelayChain(hubs[0]);
      // Proofs are not verified: only the network's relayer may move packets and update clients.
      evms[0].internals.app.setIbcRelayers([evmSide.key.address]);
      hubs[0].app.setIbcRelayers([hubSide.key.address]);
      relayer = new Relayer(evmSide, hubSide, { logger: evms[0].logger.child({ module: 'relayer' }), ...(opts.ibc || {}) });
      await relayer.open();
      evms[0].internals.devnet.relayer = relayer;
      const evm = evms[0];
      const hub = hubs[0];
      packets = new PacketIndex(
        [indexedChain(evm, evm.internals.blockStore), indexedChain(hub, hub.parts.blockStore)],
        (hash) => `${routing?.url ?? ''}/explorer/tx/${hash}`,
      );
      const path = relayer.status().paths[0]!;
      packets.connect({ chainId: path.chainA, port: 'transfer', channel: path.channelA }, { chainId: path.chainB, port: 'transfer', channel: path.channelB });
    }
    if (ibcSkipped && evms[0])
      evms[0].logger.warn(
        'IBC is off: the EVM chain runs a home or given genesis, which does not fund the relayer (start without --home for IBC: docs/network.md)',
      );
    for (const evm of evms) await evm.listen();
    const otherCometChains = hubs.flatMap((hub) => (hub.urls.rpc ? [{ chainId: hub.chainId, rpc: hub.urls.rpc, ws: hub.urls.rpcWs }] : []));
    await ioTurn();
    if (routingWanted && evms[0])
      routing = await startRoutingApi(
        evms[0],
        evms,
        others,
        { ...explorerUpstreams(evms[0]), svmRpc: svms[0]?.urls.rpc, otherCometChains, ...(packets ? { ibcPackets: (n: number) => packets!.recent(n) } : {}) },
        packets && ((chainId, hash) => packets!.transfersOf(chainId, hash)),
        {
          ...(relayer
            ? { ibcPaths: relayer.status().paths.map((p) => ({ chainA: p.chainA, channelA: p.channelA, chainB: p.chainB, channelB: p.channelB })) }
            : {}),
        },
      );
    if (metrics) prom = await metrics.serve(evms[0]?.logger ?? silentLogger());
  } catch (err) {
    await stopAll();
    throw err;
  }
  return {
    urls: { ...(routing ? { routing: routing.url } : {}), ...(prom ? { metrics: `${prom.url}/metrics` } : {}) },
    relayer,
    chains: started,
    chain: (chainId) => started.find((c) => c.chainId === chainId),
    evm: started.find((c): c is { readonly kind: 'evm' } & ChainletNode => c.kind === 'evm'),
    stop: stopAll,
  };
}

/** Why the IBC handshake (about ten txs, each in its chain's next block) takes a while on this EVM chain, or undefined. */
function handshakeWait(evm: ChainletNode): string | undefined {
  const why = slowBlockReasons(evm.config.consensus, evm.internals.validators);
  return why === undefined ? undefined : `its handshake txs each wait for a block of ${evm.chainId} (${why})`;
}

/** The relayer's account in a devnet genesis (a custom genesis must fund it itself: docs/network.md). */
function fundRelayer(spec: ChainSpec): ChainSpec {
  if (spec.kind === 'evm') {
    if (spec.genesis || spec.home) return spec;
    const extraAlloc = { ...(spec.devnet?.extraAlloc ?? {}), [relayerAddress('eth_secp256k1')]: { balance: RELAYER_EVM_BALANCE.toString() } };
    return { ...spec, devnet: { ...spec.devnet, extraAlloc } };
  }
  if (spec.kind === 'hub')
    return {
      ...spec,
      extraAccounts: [...(spec.extraAccounts ?? []), { address: relayerAddress('secp256k1', HUB_PREFIX), amount: RELAYER_HUB_BALANCE.toString() }],
    };
  return spec;
}
