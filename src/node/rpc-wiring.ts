/**
 * The composition root's side of the RPC families: each family declares the narrow environment its
 * handlers see (CometEnv, EthEnv with its NamespaceServices, RoutingEnv) and serves one it is given;
 * this module fills them from a node's parts and starts the servers. Nothing under src/rpc imports
 * the node (test/core/layers.test.ts holds that).
 */
import { createTxFromRLP } from '@ethereumjs/tx';
import { Address, createZeroAddress } from '@ethereumjs/util';
import { parseEvmGenesis } from '../app/genesis-state.js';
import { voucherOf } from '../ibc/bank.js';
import type { IbcStore } from '../ibc/ibc-store.js';
import { toHex, toHexUpper } from '../crypto/encoding.js';
import type { MempoolTx } from '../mempool/types.js';
import { sha256 } from '../crypto/hash.js';
import { keccak256 } from '../crypto/keccak.js';
import { genesisToJson } from '../genesis/genesis-doc.js';
import { startCometServer, type CometRpcOptions, type CometRpcServer } from '../rpc/comet/server.js';
import type { CometEnv, RoundStateView } from '../rpc/comet/env.js';
import { CallService } from '../rpc/eth/call-service.js';
import { clientVersion, type DevSigner, type EthEnv, type EthTxPool } from '../rpc/eth/env.js';
import { CallExecutor } from '../rpc/eth/exec/call-executor.js';
import { FilterRegistry } from '../rpc/eth/filter-registry.js';
import { ProfilerSlot } from '../rpc/eth/namespaces/debug-profiling.js';
import { SubscriptionRegistry } from '../rpc/eth/subscriptions.js';
import { GenesisAwareView } from '../rpc/eth/genesis-block.js';
import type { NamespaceServices } from '../rpc/eth/namespaces/services.js';
import { providerForService, type Eip1193Provider } from '../rpc/eth/provider.js';
import { startEthServer, type RunningEthRpc } from '../rpc/eth/server.js';
import { newEthService, type EthService } from '../rpc/eth/service.js';
import type { ApiKeyStore } from '../rpc/routing/api-keys.js';
import {
  chainNameOf,
  outcomeOf,
  type BlockSummary,
  type EthTxSummary,
  type HostedChain,
  type PooledTx,
  type RoutingChain,
  type RoutingEnv,
} from '../rpc/routing/env.js';
import { ethermintFace, ethermintRecords } from '../rpc/routing/chains.js';
import { ethermintNativeAssets, storeVouchers, tokenAsset } from '../rpc/routing/assets.js';
import { Erc20Tokens } from '../rpc/routing/erc20-tokens.js';
import type { TxOutcome } from '../rpc/routing/tx-status.js';
import { readErc20, type ContractCalls } from '../rpc/routing/erc20-read.js';
import { DEFAULT_MAX_BODY, parseRoutingAddress, startRoutingServer, type RoutingApi } from '../rpc/routing/server.js';
import { monotonicMs } from '../rpc/routing/token-bucket.js';
import { formatRfc3339Nano } from '../types/time.js';
import type { AppConnMempool, AppConnQuery } from '../abci/application.js';
import type { ChainletNode, NodeInternals } from './node.js';
import type { Common } from '@ethereumjs/common';
import type { Logger } from 'pino';
import type { ExecTxResult, ResponseCheckTx } from '../abci/types.js';
import type { EvmView } from '../app/evm-view.js';
import type { JsonRpcConfig } from '../config/types.js';
import type { DevAccount } from '../genesis/dev-accounts.js';
import type { GenesisDoc } from '../genesis/genesis-doc.js';
import type { Timestamp } from '../types/time.js';

// ─────────────────────────────── CometBFT RPC ───────────────────────────────

/** Starts the CometBFT RPC of `node` on `[rpc] laddr`. */
export function startCometRpc(node: CometChainSource, opts: CometRpcOptions = {}): Promise<CometRpcServer> {
  return startCometServer(cometEnvFromNode(node), opts);
}

const P2P_DEFAULT_LADDR = 'tcp://0.0.0.0:26656';
const STEP_NEW_HEIGHT = 1;

/** What the CometBFT RPC needs of a chain: any chain of the network, whatever its application. */
export interface CometChainSource {
  readonly chainId: string;
  readonly genesis: ChainletNode['genesis'];
  readonly config: Pick<ChainletNode['config'], 'rpc' | 'moniker' | 'mempool'>;
  readonly logger: ChainletNode['logger'];
  readonly internals: Pick<
    NodeInternals,
    'mempool' | 'eventBus' | 'blockStore' | 'stateStore' | 'txIndexer' | 'blockIndexer' | 'consensus' | 'validators' | 'nodeKey'
  > & {
    readonly app: AppConnQuery & AppConnMempool;
  };
}

/** The CometBFT RPC environment of a running chain. */
export function cometEnvFromNode(node: CometChainSource): CometEnv {
  const i = node.internals;
  const localKey = i.validators[0]?.key;
  const idKey = i.nodeKey ?? localKey;
  let genesisJson: unknown;

  return {
    config: node.config.rpc,
    nodeInfo: {
      id: idKey ? toHex(idKey.address) : toHex(sha256(new TextEncoder().encode(node.chainId)).subarray(0, 20)),
      moniker: node.config.moniker,
      network: node.chainId,
      listenAddr: P2P_DEFAULT_LADDR,
      txIndex: i.txIndexer ? 'on' : 'off',
      rpcAddress: node.config.rpc.laddr,
    },
    genesis: node.genesis,
    genesisJson: () => (genesisJson ??= genesisToJson(node.genesis)),
    blockStore: i.blockStore,
    stateStore: i.stateStore,
    txIndexer: i.txIndexer,
    blockIndexer: i.blockIndexer,
    mempool: {
      checkTx: (tx) => i.mempool.checkTx(tx),
      reapMaxTxs: (max) => i.mempool.reapMaxTxs(max),
      has: (hash) => i.mempool.has(hash),
      size: () => i.mempool.size(),
      sizeBytes: () => i.mempool.sizeBytes(),
      flush: () => i.mempool.flush(),
      hasQueued: () => i.mempool.hasQueued(),
      limits: node.config.mempool,
    },
    eventBus: i.eventBus,
    appQuery: i.app,
    appMempool: i.app,
    consensus: {
      roundState(): RoundStateView {
        const s = i.consensus.state;
        const validators = s.validators.validators;
        return {
          height: s.lastBlockHeight === 0 ? s.initialHeight : s.lastBlockHeight + 1,
          round: 0,
          step: STEP_NEW_HEIGHT,
          stepName: 'RoundStepNewHeight',
          startTime: s.lastBlockTime,
          validators,
          proposer: validators.length > 0 ? s.validators.proposer : undefined,
          lastValidators: s.lastValidators?.validators ?? [],
          lastCommit: undefined,
        };
      },
      localValidator: () => (localKey ? { address: localKey.address, pubKey: localKey.publicKey } : undefined),
      votingPowerOf(address) {
        return i.consensus.state.validators.getByAddress(address)?.validator.votingPower ?? 0;
      },
    },
    logger: node.logger.child({ module: 'rpc-comet' }),
  };
}

// ─────────────────────────────── Ethereum JSON-RPC ───────────────────────────────

/**
 * Builds the node's one eth service: node.ts calls it once, at the first use of
 * `node.internals.eth`, and closes it when the node stops. Its env (filters, call executor,
 * subscriptions, profiler) is shared by the HTTP/WS server and every in-process provider.
 */
export function createEthService(node: ChainletNode): EthService {
  return newEthService(createEthEnv(node), { devnet: node.config.evm.devnet, onStateChange: (l) => node.internals.devnet.onChange(l) });
}

/** Starts the Ethereum JSON-RPC of `node` on `[json-rpc] address` and `ws-address`, over the node's eth service. */
export function startEthRpc(node: ChainletNode): Promise<RunningEthRpc> {
  return startEthServer(node.internals.eth, node.logger);
}

/**
 * An EIP-1193 provider for `node` in the same process (no HTTP): the fastest path for tests. It
 * serves the node's one env: a filter installed here can be polled over HTTP with the same id.
 */
export function createEip1193Provider(node: ChainletNode): Eip1193Provider {
  return providerForService(node.internals.eth);
}

function createEthEnv(node: ChainletNode): EthEnv {
  const mempool = node.internals.mempool;
  const consensus = node.internals.consensus;
  return ethEnvOf({
    view: node.internals.app.evm,
    genesis: node.genesis,
    config: node.config.jsonRpc,
    devnet: node.config.evm.devnet,
    txpool: (common) => ({
      submit: (raw) => mempool.checkTx(raw),
      pendingNonce: (sender) => mempool.pendingNonce(sender.toLowerCase()),
      pending(ethHash) {
        const t = mempool.get(ethHash);
        if (t === undefined || t.ethHash === undefined) return undefined;
        return { tx: createTxFromRLP(t.tx, { common }), sender: new Address(Buffer.from(t.sender.slice(2), 'hex')), hash: t.ethHash };
      },
      content: () => mempool.content(),
      onNewTx(listener) {
        return mempool.onNewTx((t) => {
          if (t.ethHash !== undefined) listener(t.ethHash);
        });
      },
    }),
    accounts: node.accounts,
    logger: node.logger,
    namespaces: createNamespaceServices(node),
    nextBlock: () => ({ time: consensus.pendingBlockTime(), proposer: consensus.nextProposer() }),
    observe: node.internals.metrics?.observeEth,
  });
}

/** What an Ethereum JSON-RPC environment is built from: an EVM chain's view and where its txs go. */
export interface EthEnvParts {
  /** The app's view (app.evm). */
  view: EvmView;
  genesis: Pick<GenesisDoc, 'genesisTime' | 'consensusParams'>;
  config: JsonRpcConfig;
  devnet: boolean;
  /** The tx pool, given the view's Common (to decode pending txs). */
  txpool: (common: Common) => EthTxPool;
  /** Accounts whose keys this server holds (eth_accounts, eth_sendTransaction). */
  accounts: readonly DevAccount[];
  logger: Logger;
  namespaces?: NamespaceServices;
  /** Time and proposer of the next block (the `pending` block of calls). */
  nextBlock: () => { time: Timestamp; proposer: Uint8Array | undefined };
  /** Told of every call (metrics). */
  observe?: (method: string, seconds: number, ok: boolean) => void;
}

export function ethEnvOf(parts: EthEnvParts): EthEnv {
  const maxGas = parts.genesis.consensusParams.block.maxGas;
  const view = new GenesisAwareView(parts.view, {
    timestamp: BigInt(parts.genesis.genesisTime.seconds),
    gasLimit: maxGas < 0 ? 4_294_967_295n : BigInt(maxGas),
  });
  const config = parts.config;
  const txpool = parts.txpool(view.common);
  const signers = parts.accounts.map((a): DevSigner => {
    const privateKey = new Uint8Array(Buffer.from(a.privateKey.slice(2), 'hex'));
    // The dev accounts carry their address: no public key to compute at start.
    const address = new Address(Buffer.from(a.address.slice(2), 'hex'));
    return { address, hex: address.toString(), privateKey };
  });
  return {
    chainId: view.chainId,
    config,
    view,
    txpool,
    signers,
    calls: callServiceOf(view, config),
    filters: new FilterRegistry(view, txpool, { timeoutMs: config.filterTimeoutMs, cap: config.filterCap }),
    subscriptions: new SubscriptionRegistry(),
    profiler: new ProfilerSlot(),
    clientVersion: clientVersion(config, parts.devnet),
    logger: parts.logger.child({ module: 'eth-rpc' }),
    namespaces: parts.namespaces,
    ...(parts.observe ? { observe: parts.observe } : {}),
    pendingHeader: () => {
      const next = parts.nextBlock();
      return {
        number: BigInt(view.latestHeight() + 1),
        timestamp: BigInt(next.time.seconds),
        coinbase: view.coinbaseOverride ?? (next.proposer ? new Address(Uint8Array.from(next.proposer)) : createZeroAddress()),
        gasLimit: view.nextGasLimit(),
        baseFeePerGas: view.nextBaseFee(),
      };
    },
  };
}

/** The calls of a chain (eth_call and what runs like it), bounded by `[json-rpc] gas-cap` and `evm-timeout`. */
export function callServiceOf(view: EvmView, config: Pick<JsonRpcConfig, 'gasCap' | 'evmTimeoutMs'>): CallService {
  return new CallService(new CallExecutor(view), { gasCap: config.gasCap, timeoutMs: config.evmTimeoutMs });
}

export function createNamespaceServices(node: ChainletNode): NamespaceServices {
  const { devnet, keystore, nodeKey, validators, app } = node.internals;
  const key = nodeKey ?? validators[0]?.key;
  const hashAt = async (h: number) => {
    const b = await app.evm.getBlock(h);
    return b === undefined ? undefined : `0x${Buffer.from(b.hash).toString('hex')}`;
  };
  return {
    devnet,
    keystore,
    listeners: undefined,
    node: {
      id: key ? Buffer.from(key.address).toString('hex') : '',
      moniker: node.config.moniker,
      chainId: node.chainId,
      evmChainId: node.evmChainId,
      datadir: node.config.home ?? '',
      rpcAddress: node.config.rpc.laddr,
      jsonRpc: { http: node.config.jsonRpc.address, ws: node.config.jsonRpc.wsAddress },
      height: () => node.height,
      genesisHash: () => hashAt(1),
      headHash: () => hashAt(node.height),
    },
  };
}

// ─────────────────────────────── routing API ───────────────────────────────

/** What a network adds to the routing environment of its chains (its IBC paths…). */
export type RoutingEnvExtras = Partial<Omit<RoutingEnv, 'chains' | 'config' | 'logger' | 'apiKeys' | 'now' | 'explorer' | 'ibcTransfers'>>;

/** Starts the routing API on `node`'s `[routing] address`, over `chains` (default: the node alone). */
export async function startRoutingApi(
  node: ChainletNode,
  chains: readonly ChainletNode[] = [node],
  others: readonly RoutingChain[] = [],
  explorer?: RoutingEnv['explorer'],
  ibcTransfers?: RoutingEnv['ibcTransfers'],
  extras: RoutingEnvExtras = {},
): Promise<RoutingApi> {
  const { host, port } = parseRoutingAddress(node.config.routing.address);
  const maxBodyBytes = Math.max(DEFAULT_MAX_BODY, Math.ceil((node.config.mempool.maxTxBytes * 4) / 3) + 64 * 1024);
  const env = networkRoutingEnv(node, chains, others);
  return startRoutingServer({ ...env, ...(explorer ? { explorer } : {}), ...(ibcTransfers ? { ibcTransfers } : {}), ...extras }, { host, port, maxBodyBytes });
}

/** What the live explorer reads: `node`'s CometBFT RPC (and WebSocket), Ethereum JSON-RPC and mempool. */
export function explorerUpstreams(node: Pick<ChainletNode, 'urls' | 'config' | 'internals'>): NonNullable<RoutingEnv['explorer']> {
  const u = node.urls;
  const mempool = node.internals.mempool;
  const list = (m: Map<string, MempoolTx[]>) => [...m.values()].flat().map((t) => ({ sender: t.sender, nonce: t.nonce.toString(), hash: toHexUpper(t.hash) }));
  return {
    cometRpc: u.rpc,
    cometWs: u.rpcWs,
    ethRpc: u.jsonRpc,
    devnet: node.config.evm.devnet,
    mempool: () => {
      const c = mempool.content();
      return { pending: list(c.pending), queued: list(c.queued) };
    },
  };
}

/**
 * The node's API-key store (`<home>/config/api_keys.json`, else in memory): the one its routing API
 * checks, for adding keys in process (`createApiKey(getApiKeyStore(node), 'ci')`).
 */
export function getApiKeyStore(node: Pick<ChainletNode, 'internals'>): ApiKeyStore {
  return node.internals.apiKeys;
}

/** The routing environment of one EVM node: its adapter, config, API keys. */
export function createRoutingEnv(node: ChainletNode): RoutingEnv {
  return networkRoutingEnv(node, [node]);
}

/** One routing environment over several EVM chains (and other chains' adapters); `host` gives the config and API keys. */
export function networkRoutingEnv(host: ChainletNode, nodes: readonly ChainletNode[], others: readonly RoutingChain[] = []): RoutingEnv {
  return {
    chains: [...nodes.map(evmRoutingChain), ...others],
    ...(host.internals.metrics ? { observe: host.internals.metrics.observeRouting } : {}),
    config: host.config.routing,
    logger: host.logger.child({ module: 'routing' }),
    apiKeys: host.internals.apiKeys,
    now: monotonicMs,
  };
}

/** The routing adapter of an EVM chain (its Cosmos and EVM faces). */
export function evmRoutingChain(node: ChainletNode): RoutingChain {
  const { app, mempool, txIndexer, blockStore } = node.internals;
  // The ERC20 reads share eth_call's call service (its limits, its EVMs, its reset on a devnet edit).
  const calls = node.internals.eth.env.calls;
  return evmRoutingChainOf({
    chainId: node.chainId,
    evmChainId: node.evmChainId,
    appState: node.genesis.appState,
    app,
    erc20Tokens: node.config.routing.erc20Tokens,
    calls,
    checkTx: (tx) => mempool.checkTx(tx),
    pooledTx(hash) {
      const t = mempool.get(hash);
      return t && { tx: t.tx, cometHash: t.hash, ethHash: t.ethHash, sender: t.sender, nonce: t.nonce };
    },
    indexedTx: txIndexer ? (hash) => txIndexer.get(hash) : undefined,
    async block(height) {
      const meta = await blockStore.loadBlockMeta(height);
      if (!meta) return undefined;
      return { height, hash: meta.blockId.hash, time: formatRfc3339Nano(meta.header.time), numTxs: meta.numTxs, proposer: meta.header.proposerAddress };
    },
  });
}

/** What the routing adapter of an EVM chain is built from: its app and where its txs and blocks are. */
export interface EvmRoutingParts {
  chainId: string;
  evmChainId: number;
  /** The genesis app_state (display denom, decimals). */
  appState: unknown;
  app: AppConnQuery & { readonly evm: EvmView; ibcStore?(): IbcStore };
  /** `[routing] erc20-tokens`: ERC20 contracts listed by /v2/fungible/assets besides those seen on chain. */
  erc20Tokens?: readonly string[];
  /** ERC20 reads: the chain's calls, as eth_call runs them (gas cap, EVM timeout). */
  calls: ContractCalls;
  /** Called when the routing API stops: drops what the parts subscribed to. */
  stop?(): void;
  checkTx(tx: Uint8Array): Promise<ResponseCheckTx>;
  pooledTx(hash: Uint8Array): PooledTx | undefined;
  /** A committed tx by its CometBFT hash; undefined: the chain indexes no txs. */
  indexedTx: ((cometHash: Uint8Array) => Promise<{ tx: Uint8Array; height: number; index: number; result: ExecTxResult } | undefined>) | undefined;
  block(height: number): Promise<BlockSummary | undefined>;
}

export function evmRoutingChainOf(parts: EvmRoutingParts): RoutingChain {
  const { app } = parts;
  const evm = app.evm;
  const genesis = parseEvmGenesis(parts.appState);
  const name = chainNameOf(parts.chainId);
  const chain: HostedChain = Object.freeze({
    cosmosChainId: parts.chainId,
    evmChainId: String(parts.evmChainId),
    chainName: name,
    prettyName: name.charAt(0).toUpperCase() + name.slice(1),
    bech32Prefix: evm.bech32Prefix,
    denom: evm.denom,
    displayDenom: genesis.displayDenom,
    decimals: genesis.decimals,
    // A node of this emulator is always a development network.
    isTestnet: true,
  });
  // The registered ERC20s, and those whose Transfer logs committed blocks carry from now on.
  const erc20s = new Erc20Tokens(parts.erc20Tokens ?? [], parts.calls, () => evm.stateAt(evm.latestHeight()));
  const offBlock = evm.onBlock((_block, receipts) => erc20s.observe(receipts));

  async function ethDetails(ethHash: Uint8Array): Promise<{ height: number; index: number; eth: EthTxSummary; raw: Uint8Array } | undefined> {
    const loc = await evm.getTransaction(ethHash);
    if (!loc) return undefined;
    const tx = loc.tx;
    return {
      height: loc.height,
      index: loc.index,
      raw: tx.serialize(),
      eth: { from: loc.sender.toString(), to: tx.to?.toString() ?? null, value: tx.value, nonce: tx.nonce, gasLimit: tx.gasLimit, type: tx.type },
    };
  }

  async function receiptOutcome(height: number, ethHash: Uint8Array): Promise<TxOutcome | undefined> {
    const receipts = await evm.getReceipts(height);
    const r = receipts.find((x) => toHex(x.txHash) === toHex(ethHash));
    if (!r) return undefined;
    return r.status === 1 ? { ok: true, code: 0, log: '' } : { ok: false, code: 0, log: 'execution reverted' };
  }

  const adapter: RoutingChain = {
    chain,
    face: (chainId) => ethermintFace(chain, chainId),
    records: (baseUrl) => ethermintRecords(chain, adapter.gasPrices(), baseUrl),

    gasPrices() {
      const base = evm.nextBaseFee();
      // Read live: miner_setGasPrice / anvil_setMinGasPrice change it on a running node.
      const minGasPrice = evm.minGasPrice();
      const low = base > minGasPrice ? base : minGasPrice;
      const high = 2n * base > minGasPrice ? 2n * base : minGasPrice;
      return { low, average: (low + high + 1n) / 2n, high };
    },

    ...(app.ibcStore ? { voucherBalance: async (holder: Uint8Array, denom: string) => voucherOf(app.ibcStore!(), holder, denom) } : {}),
    // The native denom on both faces, the ERC20s (registered or seen) on the EVM face, the vouchers received.
    async assets() {
      const tokens = (await erc20s.list()).map((t) => tokenAsset(chain.evmChainId, t.address, { ...t.meta, isEvm: true }));
      return [...ethermintNativeAssets(chain), ...tokens, ...(app.ibcStore ? storeVouchers(app.ibcStore(), chain.cosmosChainId) : [])];
    },
    start: () => erc20s.check(),
    stop: () => {
      offBlock();
      parts.stop?.();
    },
    async nativeBalance(address) {
      const res = await app.query({ path: `/evm/balance/0x${toHex(address)}`, data: new Uint8Array(0), height: 0, prove: false });
      if (res.code !== 0 || !res.value) throw new Error(`balance query failed: ${res.log}`);
      const body = JSON.parse(new TextDecoder().decode(res.value)) as { balance: string };
      return BigInt(body.balance);
    },

    erc20Balance: (contract, holder, denom) => readErc20(parts.calls, contract, holder, denom),

    checkTx: (tx) => parts.checkTx(tx),

    async findTx(hash) {
      const txIndexer = parts.indexedTx;
      const indexed = txIndexer ? await txIndexer(hash) : undefined;
      if (indexed) {
        const ethHash = keccak256(indexed.tx);
        const d = await ethDetails(ethHash);
        return {
          tx: indexed.tx,
          cometHash: sha256(indexed.tx),
          ethHash,
          height: indexed.height,
          index: indexed.index,
          outcome: outcomeOf(indexed.result),
          result: indexed.result,
          eth: d?.eth,
        };
      }
      const d = await ethDetails(hash);
      if (!d) return undefined;
      const cometHash = sha256(d.raw);
      const byComet = txIndexer ? await txIndexer(cometHash) : undefined;
      // With an indexer, a block the EVM view knows but the indexer does not yet is "result pending".
      const outcome = byComet ? outcomeOf(byComet.result) : txIndexer ? undefined : await receiptOutcome(d.height, hash);
      return {
        tx: d.raw,
        cometHash,
        ethHash: hash,
        height: byComet?.height ?? d.height,
        index: byComet?.index ?? d.index,
        outcome,
        result: byComet?.result,
        eth: d.eth,
      };
    },

    pooledTx: (hash) => parts.pooledTx(hash),
    block: (height) => parts.block(height),
  };
  return adapter;
}
