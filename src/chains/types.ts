/**
 * A chain of the network as one value (`Chain`), and a chain kind as one registry entry
 * (`ChainKind`): how a spec of that kind starts, what the CLI, the banner and `config show` say of
 * it, and which capabilities its chains offer the network (RPC families, a routing adapter, an IBC
 * endpoint, an explorer feed, metrics). The network (src/network) composes chains only through these.
 */
import type { Logger } from 'pino';
import type { Application } from '../abci/application.js';
import type { HomeApp } from '../node/abci-app.js';
import type { DeepPartial, InstrumentationConfig, NodeConfig } from '../config/types.js';
import type { DevnetGenesisOptions } from '../genesis/devnet.js';
import type { MetricsRegistry } from '../node/metrics.js';
import type { RelayerControl } from '../rpc/eth/namespaces/services.js';
import type { RoutingApi } from '../rpc/routing/server.js';
import type { ExplorerChainFeed, RoutingChain, RoutingEnv } from '../rpc/routing/env.js';
import type { IndexedChain } from '../network/ibc/packet-index.js';
import type { RelayChain } from '../network/ibc/relay-types.js';
import type { HomeInitContext } from './chain-home.js';
import type { ServerUrls } from '../node/servers.js';

/** The URLs a chain serves, by the same names for every kind (a Solana RPC is `rpc`/`rpcWs` of an SVM chain). */
export type ChainUrls = ServerUrls;

/** An RPC family a chain serves: the transport-level name, its URL and WebSocket. */
export interface RpcEndpoint {
  family: 'comet' | 'eth' | 'solana';
  url: string;
  ws?: string;
}

/** A chain as the explorer reads it: the RPC families it proxies for the page. */
export type ExplorerFeed = ExplorerChainFeed;

/** One line of the CLI's activity log (src/cli/activity-log.ts renders it). */
export type ActivityEvent = { event: 'tx'; line: ActivityTxLine } | { event: 'block'; line: ActivityBlockLine };

export interface ActivityTxLine {
  hash: string;
  from: string | undefined;
  /** The recipient (for a Cosmos tx the last transfer's, not the fee collector's); undefined for a contract creation or when the tx names none. */
  to: string | undefined;
  /** An EVM tx that created a contract. */
  creation?: true;
  gasUsed: number;
  status: 'success' | 'failed';
  error?: string;
  block: number;
}

export interface ActivityBlockLine {
  height: number;
  hash: string;
  txs: number;
  gasUsed: number;
  time: string;
}

/**
 * A chain's IBC endpoint: the relayer's view of it. The network funds each relayer account in the
 * chain's genesis before start (the kind's `ibc.fund`), then opens a channel per pair of chains.
 */
export interface IbcEndpoint {
  /** The chain as one relayer sees it, signing with `privateKey`; `tag` keeps two relayers' subscriptions apart. */
  relayChain(privateKey: Uint8Array, tag?: string): RelayChain;
  /** The chain as the packet index reads it. */
  indexed(): IndexedChain;
  /** Why its blocks come slowly (the handshake's txs each wait for one), or undefined. */
  slowBlocks?(): string | undefined;
}

/** A routing API host: the chain whose `[routing]` config, API keys and explorer upstreams the network's routing API uses. */
export interface RoutingHost {
  /** Whether this chain's config turns the routing API on. */
  readonly enabled: boolean;
  start(o: {
    chains: RoutingChain[];
    others: ExplorerFeed[];
    ibcPackets?: NonNullable<RoutingEnv['explorer']>['ibcPackets'];
    ibcTransfers?: RoutingEnv['ibcTransfers'];
    ibcPaths?: RoutingEnv['ibcPaths'];
  }): Promise<RoutingApi>;
}

/** What a chain offers the network; each is optional. */
export interface ChainCapabilities {
  /** The RPC families it serves now (CometBFT RPC, Ethereum JSON-RPC, Solana RPC). */
  rpc(): RpcEndpoint[];
  /** Its routing adapter: the chain as the routing API lists it (loaded on demand). */
  routing?(): Promise<RoutingChain>;
  /** The network's routing API can live here. */
  readonly routingHost?: RoutingHost;
  readonly ibc?: IbcEndpoint;
  /** What the explorer reads of it, once it listens. */
  explorer?(): ExplorerFeed | undefined;
  /** Whether it reports to the network's one metrics registry. */
  readonly metrics: boolean;
  /** Feeds the CLI's activity log; returns the unsubscriber. */
  activity?(write: (e: ActivityEvent) => void): () => void;
  /** A switch of every chain's log lines (the EVM chain's anvil_setLoggingEnabled). */
  readonly logging?: { readonly enabled: boolean; onChange(l: (on: boolean) => void): () => void };
  /** Opens servers held back until the whole network is up (the EVM chain's). */
  listen?(): Promise<void>;
}

export interface Chain {
  readonly kind: string;
  readonly chainId: string;
  readonly urls: ChainUrls;
  readonly height: number;
  /** Why the chain produces no blocks now, or undefined. */
  readonly halted?: string | undefined;
  readonly logger?: Logger;
  /** Makes `n` blocks (slots) now; resolves with their heights. */
  mine(n?: number): Promise<number[]>;
  stop(): Promise<void>;
  readonly capabilities: ChainCapabilities;
}

/** What the network gives every chain's start. */
export interface StartContext {
  /** The network's one metrics registry (src/node/metrics.ts), when Prometheus is on. */
  metrics?: MetricsRegistry;
  /** Told what the start waits for when a step may take a while. */
  onWait?: (what: string) => void;
  /** The network's IBC relayers, for a chain that controls them (the EVM chain's chainlet_pauseRelayer…). */
  relayer?: RelayerControl;
  /**
   * The chain is a network of its own (`startNode()`): it opens its servers now and serves its own
   * routing API and metrics; otherwise its servers wait for `listen()` and the network serves those.
   */
  standalone: boolean;
}

/** A listen address the CLI checks (browsers' unsafe ports) before start. */
export interface ListenFlag {
  flag: string;
  address: string;
}

/** A `chainlet start` option a kind adds. */
export interface CliOption {
  /** commander flags, e.g. `--hub-rpc <laddr>`. */
  flags: string;
  description: string;
  default?: string;
}

/** What `chainlet start` gives a kind to build its spec from the command line. */
export interface CliContext {
  /** The parsed options of `chainlet start` (commander's attribute names). */
  options: Readonly<Record<string, string | boolean | undefined>>;
  home?: string;
  /** The node config overrides from the flags. */
  overrides: DeepPartial<NodeConfig>;
  devnet?: DevnetGenesisOptions;
  offlineValidators?: number[];
  /** `--host`, when given. */
  host?: string;
  /** Whether an option (commander's attribute name) was given on the command line, not its default: it then overrides a chain's home config. */
  given?(option: string): boolean;
  /** Listen addresses to check, added to by each kind. */
  listen: ListenFlag[];
}

/** A chain as the banner shows it (text and JSON). */
export interface ChainSummary {
  chainId: string;
  kind: string;
  height: number;
  halted?: string;
  urls: Record<string, string>;
  accounts: BannerAccount[];
  wallet?: BannerWallet;
  [extra: string]: unknown;
}

/** The mnemonic and derivation path of the dev accounts the banner lists. */
export interface BannerWallet {
  mnemonic: string;
  derivationPath: string;
}

export interface BannerAccount {
  address: string;
  /** Base units, read from the chain. */
  balance: string;
  /** The same amount in display units, e.g. `10000 CHAINLET`. */
  display: string;
  bech32?: string;
  privateKey?: string;
  path?: string;
}

/** A chain kind: one folder under src/chains and one line in the registry. */
export interface ChainKind<S extends { kind: string } = { kind: string }, C extends Chain = Chain> {
  readonly name: S['kind'];
  /** How the banner names the kind beside a chain id (default: its name), e.g. `svm, LiteSVM`. */
  readonly label?: string;
  /** Whether `chainlet start` runs it without `--chains` (the default network). */
  readonly byDefault?: boolean;
  /** One phrase for `--chains` help, e.g. `hub's RPC listens on 127.0.0.1:26757`. */
  readonly help: string;
  /** Its `chainlet start` options, and its spec from them. */
  readonly cli?: { options: CliOption[]; spec(ctx: CliContext): S };
  /** Its settings, for `config show` (comment lines). */
  configLines?(ctx: CliContext): string[];
  /** The `[instrumentation]` of a spec that turns Prometheus on, or undefined. */
  instrumentation?(spec: S): InstrumentationConfig | undefined;
  /**
   * IBC: the spec with an account funded in the genesis it makes for each relayer key (a private
   * key; the kind derives its account by its own key rule), or why not (a home's or a given genesis
   * is the user's). Its chains then have an IBC endpoint, and the network opens a channel to every
   * other such chain.
   */
  readonly ibc?: { fund(spec: S, relayerKeys: Uint8Array[]): { spec: S } | { off: string } };
  /**
   * `chainlet init --home`: writes the kind's chain into the home (its genesis, keys and config,
   * the relayer's account funded when it has IBC) and returns the files written; a kind without it
   * makes its state at its first start on the home.
   */
  initHome?(home: string, ctx: HomeInitContext): Promise<string[]>;
  start(spec: S, ctx: StartContext): Promise<C>;
  /** `chainlet app --app <kind>`: the kind's application of a home, served alone over the ABCI socket. */
  readonly socketApp?: { readonly note?: string; open(home: string, config: NodeConfig, logger: Logger): Promise<HomeApp<Application>> };
  /** The chain as the banner shows it; a `wallet` in it is lifted to the banner's top (the first chain's). */
  summary(chain: C, opts: { mnemonic?: string }): Promise<ChainSummary>;
  /**
   * Banner text: for the network's first chain (`main`) the whole head (accounts, keys, wallet, ids,
   * fees); for the others their line(s) under "Other chains of the network", before their accounts.
   */
  bannerLines(s: ChainSummary, main: boolean, wallet?: BannerWallet): string[];
  /** What to do about a halted chain (default: start with fewer --offline-validators). */
  haltedHint?(s: ChainSummary): string;
}
