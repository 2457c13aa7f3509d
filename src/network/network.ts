/**
 * A network: the chains of this process, each with its own genesis, consensus, stores and RPC,
 * started and stopped together; IBC between every two chains that have an IBC endpoint (a channel
 * per pair); one routing API over every chain that has a routing adapter. The composition root:
 * every chain comes from its kind in the registry (src/chains), and is seen only through its
 * capabilities (src/chains/types.ts).
 *
 *   chains in order (servers held) ─> IBC handshakes, a pair at a time (unless a chain is halted)
 *     ─> held servers listen ─> routing API listens ─> resolved (the CLI's banner: "ready")
 */
import { createHash } from 'node:crypto';
import { isEvmChain, type EvmChain } from '../chains/evm/kind.js';
import { ChainRegistry, type BuiltinChain, type ChainSpec } from '../chains/registry.js';
import type { Chain, ChainKind, ExplorerFeed } from '../chains/types.js';
import type { RoutingApi } from '../rpc/routing/server.js';
import type { RunningServer } from '../rpc/transport/index.js';
import { silentLogger } from '../util/logger.js';
import type { PacketIndex } from './ibc/packet-index.js';
import { RELAYER_PRIVATE_KEY } from './ibc/relayer-key.js';
import type { Relayer } from './ibc/relayer.js';
import type { RelayerOptions } from './ibc/relay-types.js';
import { openNetworkMetrics } from './network-metrics.js';
import { NetworkRelayers } from './relayers.js';

export type { ChainSpec };
export type { EvmChainSpec } from '../chains/evm/kind.js';

/** A chain of a network: a built-in kind's (narrowed by `kind`, e.g. `c.kind === 'hub'`) or another kind's. */
export type NetworkChain = BuiltinChain | Chain;

export interface Network {
  readonly chains: readonly NetworkChain[];
  /** The chain with this (Cosmos-style) chain id. */
  chain(chainId: string): NetworkChain | undefined;
  /** The (first) EVM chain, when the network has one. */
  readonly evm: EvmChain | undefined;
  /** The routing API over the chains that have a routing adapter (at the first EVM chain's `[routing] address`). */
  /** `metrics`: the one Prometheus `/metrics` of every chain, when a chain's config turns it on (network-metrics.ts). */
  readonly urls: { routing?: string; metrics?: string };
  /** The first channel's relayer (the first two chains with IBC, e.g. the EVM chain and the hub), when one runs. */
  readonly relayer: Relayer | undefined;
  /** Every relayer: one per pair of chains with an IBC endpoint, each pair with its own channel. */
  readonly relayers: readonly Relayer[];
  /** The pairs of chains with IBC whose channel was not opened, and why (a halted chain). */
  readonly ibcOff: readonly string[];
  /** The kinds this network was assembled from (the CLI's banner reads each chain's there). */
  readonly registry: ChainRegistry;
  stop(): Promise<void>;
}

export interface StartNetworkOptions<S extends { kind: string } = ChainSpec> {
  chains: S[];
  /** IBC between every two chains with an IBC endpoint (default on); `false` starts no relayer. */
  ibc?: false | RelayerOptions;
  /** Told what the start waits for when a step may take a while (a first block in interval mode, the IBC handshake). */
  onWait?: (what: string) => void;
  /** Kinds besides the built-in ones (src/chains/registry.ts), for the specs that name them. */
  kinds?: ChainKind[];
  /**
   * One chain that serves everything of its own (its servers at once, its routing API and metrics
   * endpoint), as `startNode()` does; the network adds nothing around it.
   */
  standalone?: boolean;
}

/**
 * One turn of the event loop (its I/O phase included) between the steps of a network's start. The
 * steps are mostly synchronous (loading a chain's code, building its genesis, LiteSVM, the IBC
 * handshake's blocks), so without these turns a server already listening could not answer the
 * requests waiting for it (the hub's `/status` while the SVM chain starts) until the whole network is up.
 */
const ioTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** The relayer key of the `n`th pair: the documented devnet key for the first (docs/network.md), one derived from it for each other. */
function pairPrivateKey(n: number): Uint8Array {
  return n === 0 ? RELAYER_PRIVATE_KEY : createHash('sha256').update(`chainlet-relayer-${n}`).digest();
}

interface IbcPlan {
  /** Pairs of spec indices, in order; the pair's number picks its relayer key. */
  pairs: [number, number][];
  /** Why a spec's chain gets no IBC, by spec index. */
  off: Map<number, string>;
}

/** Which chains get a channel to which: every two specs whose kind has IBC and whose genesis funds the relayers. */
function planIbc(kinds: readonly ChainKind[], specs: readonly { kind: string }[], on: boolean): IbcPlan {
  const off = new Map<number, string>();
  const able: number[] = [];
  if (on)
    specs.forEach((spec, i) => {
      const ibc = kinds[i]!.ibc;
      if (!ibc) return;
      const funded = ibc.fund(spec, []);
      if ('off' in funded) off.set(i, funded.off);
      else able.push(i);
    });
  const pairs: [number, number][] = [];
  for (let a = 0; a < able.length; a++) for (let b = a + 1; b < able.length; b++) pairs.push([able[a]!, able[b]!]);
  // An IBC chain left alone by the others' homes says why only when it had a partner.
  if (able.length + off.size < 2) off.clear();
  return { pairs, off };
}

export async function startNetwork<S extends { kind: string } = ChainSpec>(opts: StartNetworkOptions<NoInfer<S>>): Promise<Network> {
  const registry = new ChainRegistry().with(...(opts.kinds ?? []));
  const kinds = opts.chains.map((spec) => registry.get(spec.kind));
  const ids = new Set<string>();
  const started: Chain[] = [];
  const relayers = new NetworkRelayers();
  const ibcOff: string[] = [];
  let routing: RoutingApi | undefined;
  let packets: PacketIndex | undefined;
  let prom: RunningServer | undefined;
  const stopAll = async () => {
    await relayers.stop();
    packets?.stop();
    await routing?.stop();
    await prom?.stop();
    await Promise.all(started.map((c) => c.stop()));
  };
  const plan = planIbc(kinds, opts.chains, opts.ibc !== false);
  // Each pair's relayer has its own account on both its chains, funded in their geneses before they start.
  const keysOf = (i: number): Uint8Array[] => plan.pairs.flatMap(([a, b], n) => (a === i || b === i ? [pairPrivateKey(n)] : []));
  if (opts.standalone && opts.chains.length !== 1) throw new Error(`a standalone network has one chain, not ${opts.chains.length}`);
  const metrics = opts.standalone ? undefined : await openNetworkMetrics(opts.chains, kinds);
  try {
    for (const [i, raw] of opts.chains.entries()) {
      const kind = kinds[i]!;
      const funded = plan.pairs.some((p) => p.includes(i)) ? kind.ibc!.fund(raw, keysOf(i)) : { spec: raw };
      const spec = 'spec' in funded ? funded.spec : raw;
      await ioTurn();
      const chain = await kind.start(spec, {
        standalone: opts.standalone === true,
        ...(metrics ? { metrics: metrics.registry } : {}),
        ...(opts.onWait ? { onWait: opts.onWait } : {}),
        ...(plan.pairs.length > 0 ? { relayer: relayers } : {}),
      });
      started.push(chain);
      if (ids.has(chain.chainId)) throw new Error(`two chains of the network have the chain id ${chain.chainId}`);
      ids.add(chain.chainId);
      const why = plan.off.get(i);
      if (why !== undefined) chain.logger?.warn(`IBC is off: ${why}`);
    }
    await ioTurn();
    if (plan.pairs.length > 0) packets = await openIbc(started, plan.pairs, relayers, ibcOff, opts, () => routing?.url ?? '');
    for (const c of started) await c.capabilities.listen?.();
    await ioTurn();
    const host = started.find((c) => c.capabilities.routingHost)?.capabilities.routingHost;
    if (host?.enabled) {
      const chains = [];
      for (const c of started) if (c.capabilities.routing) chains.push(await c.capabilities.routing());
      const hostChain = started.find((c) => c.capabilities.routingHost === host);
      const others = started.flatMap((c): ExplorerFeed[] => {
        const feed = c === hostChain ? undefined : c.capabilities.explorer?.();
        return feed ? [feed] : [];
      });
      const index = packets;
      routing = await host.start({
        chains,
        others,
        ...(index
          ? {
              ibcPackets: (n: number) => index.recent(n),
              ibcTransfers: (chainId: string, hash: Uint8Array, height: number) => index.transfersOf(chainId, hash, height),
              ibcPaths: relayers.status().paths.map((p) => ({ chainA: p.chainA, channelA: p.channelA, chainB: p.chainB, channelB: p.channelB })),
            }
          : {}),
      });
    }
    if (metrics) prom = await metrics.serve(started.find((c) => c.logger)?.logger ?? silentLogger());
  } catch (err) {
    await stopAll();
    throw err;
  }
  return {
    urls: { ...(routing ? { routing: routing.url } : {}), ...(prom ? { metrics: `${prom.url}/metrics` } : {}) },
    relayer: relayers.all[0],
    relayers: relayers.all,
    ibcOff,
    registry,
    chains: started,
    chain: (chainId) => started.find((c) => c.chainId === chainId),
    evm: started.find(isEvmChain),
    stop: stopAll,
  };
}

/**
 * Opens a `transfer` channel for each pair (each with its own relayer and accounts), then the
 * packet index over every chain with a channel. A pair with a halted chain is skipped: it cannot
 * take the handshake's txs (the banner says why).
 */
async function openIbc(
  chains: readonly Chain[],
  pairs: readonly [number, number][],
  relayers: NetworkRelayers,
  off: string[],
  opts: StartNetworkOptions<{ kind: string }>,
  routingUrl: () => string,
): Promise<PacketIndex | undefined> {
  // The relayer and the packet index (with the cosmjs-types codecs they use) load only for a network with IBC.
  const { Relayer } = await import('./ibc/relayer.js');
  const { PacketIndex } = await import('./ibc/packet-index.js');
  const connected = new Set<Chain>();
  const paths: { a: string; channelA: string; b: string; channelB: string }[] = [];
  for (const [n, [i, j]] of pairs.entries()) {
    const a = chains[i]!;
    const b = chains[j]!;
    for (const c of [a, b])
      if (!c.capabilities.ibc) throw new Error(`chain kind "${c.kind}" funds IBC relayers, but its chain ${c.chainId} has no IBC endpoint`);
    const halted = [a, b].find((c) => c.halted !== undefined);
    if (halted) {
      off.push(`not opened: ${halted.chainId} is halted (its handshake txs need blocks); restart once it can produce blocks`);
      continue;
    }
    const slow = [a, b].flatMap((c) => {
      const why = c.capabilities.ibc!.slowBlocks?.();
      return why === undefined ? [] : [`its handshake txs each wait for a block of ${c.chainId} (${why})`];
    });
    if (slow.length > 0) opts.onWait?.(`opening IBC between ${a.chainId} and ${b.chainId}: ${slow.join('; ')}`);
    // The first pair keeps the relayer's own subscriber names; the others add their number.
    const tag = n === 0 ? undefined : String(n);
    const [sideA, sideB] = [a, b].map((c) => c.capabilities.ibc!.relayChain(pairPrivateKey(n), tag));
    const logger = (a.logger ?? b.logger ?? silentLogger()).child({ module: 'relayer' });
    const relayer = new Relayer(sideA!, sideB!, { logger, ...(opts.ibc || {}) });
    relayers.add(relayer);
    await relayer.open();
    const p = relayer.status().paths[0]!;
    paths.push({ a: p.chainA, channelA: p.channelA, b: p.chainB, channelB: p.channelB });
    connected.add(a).add(b);
  }
  if (connected.size === 0) return undefined;
  const index = new PacketIndex(
    [...connected].map((c) => c.capabilities.ibc!.indexed()),
    (hash) => `${routingUrl()}/explorer/tx/${hash}`,
  );
  for (const p of paths) index.connect({ chainId: p.a, port: 'transfer', channel: p.channelA }, { chainId: p.b, port: 'transfer', channel: p.channelB });
  return index;
}
