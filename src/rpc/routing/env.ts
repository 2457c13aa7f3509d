/**
 * The narrow environment routing handlers see: the hosted chain's identity, balances, CheckTx,
 * tx lookups and block summaries. The composition root builds it once from the node's parts
 * (src/node/rpc-routing.ts); handlers never touch the node itself.
 */
import type { Logger } from 'pino';
import type { ExecTxResult, ResponseCheckTx } from '../../abci/types.js';
import type { RoutingConfig } from '../../config/types.js';
import type { ApiKeyStore } from './api-keys.js';
import type { Erc20Balance } from './erc20-read.js';
import type { AssetInfo } from './assets.js';
import type { Clock } from './token-bucket.js';
import type { TxOutcome } from './tx-status.js';
import type { ChainRecord } from './chains.js';
import type { PacketLifecycle } from './transfer-status.js';

/** The chain this process hosts, seen as the routing API lists it. */
export interface HostedChain {
  /** Cosmos-style id, e.g. `chainlet_9000-1`. */
  cosmosChainId: string;
  /** EVM chain id as a decimal string, e.g. `9000`. */
  evmChainId: string;
  /** e.g. `chainlet` (from the chain id), and a display form `Chainlet`. */
  chainName: string;
  prettyName: string;
  bech32Prefix: string;
  /** Base denom of the native token (`achainlet`), its display denom and decimals. */
  denom: string;
  displayDenom: string;
  decimals: number;
  isTestnet: boolean;
}

/** The mempool as the explorer lists it: per sender, pending (executable) and queued (behind a nonce gap). */
export interface ExplorerMempool {
  pending: { sender: string; nonce: string; hash: string }[];
  queued: { sender: string; nonce: string; hash: string }[];
}

/** A chain as the explorer reads it: the RPC families the page proxies (CometBFT RPC, Solana RPC). */
export interface ExplorerChainFeed {
  chainId: string;
  comet?: { rpc: string; ws?: string };
  svm?: { rpc: string; ws?: string };
}

/** Gas prices in base units of the native denom per unit of gas. */
export interface GasPriceTiers {
  low: bigint;
  average: bigint;
  high: bigint;
}

export interface EthTxSummary {
  from: string;
  to: string | null;
  value: bigint;
  nonce: bigint;
  gasLimit: bigint;
  type: number;
}

/** A tx found in a committed block. */
export interface FoundTx {
  tx: Uint8Array;
  cometHash: Uint8Array;
  ethHash: Uint8Array;
  height: number;
  index: number;
  /** Undefined while the block is known but its result is not indexed yet. */
  outcome?: TxOutcome;
  result?: ExecTxResult;
  eth?: EthTxSummary;
}

/** A tx waiting in the mempool. */
export interface PooledTx {
  tx: Uint8Array;
  cometHash: Uint8Array;
  ethHash?: Uint8Array;
  sender: string;
  nonce: bigint;
}

export interface BlockSummary {
  height: number;
  hash: Uint8Array;
  /** RFC 3339 with nanoseconds. */
  time: string;
  numTxs: number;
  proposer: Uint8Array;
}

/**
 * One chain as the routing API sees it: its identity and records, balances, submission and tx
 * lookups. Handlers reach every chain through this interface, so a new chain kind adds one adapter
 * (the composition root builds them: src/node/evm-routing-chain.ts). An Ethermint-style chain answers for
 * two chain ids, its Cosmos and its EVM face.
 */
export interface RoutingChain {
  readonly chain: HostedChain;
  /** Which face of this chain `chainId` names, or undefined when it names none. */
  face(chainId: string): 'cosmos' | 'evm' | 'svm' | undefined;
  /**
   * Chains whose addresses, denoms and hashes are not Ethermint's (an SVM chain) give their own:
   * the holder bytes of an address, a denom's balance, a submit that answers the chain's own tx
   * hash (a Solana signature), and how that hash is written.
   */
  parseHolder?(address: string, chainId: string): Uint8Array;
  balance?(holder: Uint8Array, denom: string): Promise<{ amount: bigint; decimals: number; priceKeys: string[] }>;
  submitTx?(tx: Uint8Array): Promise<{ hash: Uint8Array; display: string }>;
  displayHash?(hash: Uint8Array): string;
  /**
   * An unsigned transfer of `amount` of `denom` from `from` to `to` on this chain, in its own wire
   * form (an SVM chain: a base64 transaction for the sender to sign). Undefined for an unknown denom.
   */
  unsignedTransfer?(from: string, to: string, denom: string, amount: bigint): Promise<string | undefined>;
  /** Whether two denom names name one denom on this chain (an SVM chain: `SOL`, `sol`, `solana-native`…). */
  sameDenom?(a: string, b: string): boolean;
  /** An IBC voucher's (`ibc/<hash>`) balance and its base denom, on a chain with IBC. */
  voucherBalance?(holder: Uint8Array, denom: string): Promise<{ amount: bigint; base: string } | undefined>;
  /**
   * Its assets on each of its faces (/v2/fungible/assets…): the native denom, tokens (ERC20s, SPL
   * mints) and the IBC vouchers it ever received. A voucher's origin chain and metadata may be left
   * open (`origin_chain_id` "", `decimals` null): `networkAssets` in assets.ts resolves them over
   * the network's IBC paths.
   */
  assets?(): Promise<AssetInfo[]>;
  /**
   * Called when the routing API starts, before it listens: checks what the adapter was configured
   * with (an EVM chain's `[routing] erc20-tokens`); a problem throws and the start fails.
   */
  start?(): Promise<void>;
  /** Called when the routing API stops (or its start failed): drops what the adapter subscribed to. */
  stop?(): void;
  /** Its records for /v2/info/chains. */
  records(baseUrl: string): ChainRecord[];
  gasPrices(): GasPriceTiers;
  nativeBalance(address: Uint8Array): Promise<bigint>;
  erc20Balance(contract: Uint8Array, holder: Uint8Array, denom: string): Promise<Erc20Balance>;
  /** CheckTx and mempool admission (broadcast_tx_sync). Mempool admission errors throw. */
  checkTx(tx: Uint8Array): Promise<ResponseCheckTx>;
  /** A committed tx by its CometBFT (sha256) or Ethereum (keccak) hash. */
  findTx(hash: Uint8Array): Promise<FoundTx | undefined>;
  /** A tx in the mempool by either hash. */
  pooledTx(hash: Uint8Array): PooledTx | undefined;
  block(height: number): Promise<BlockSummary | undefined>;
  /**
   * Its latest committed height. A chain that gives it has /v2/tx/status answer a tx committed at
   * or below the height it had when the routing API started without a submit or track here: on a
   * restarted home, one tracked before the stop.
   */
  height?(): number;
}

/** One IBC channel between two chains of the network: `channelA` is on `chainA`, `channelB` on `chainB`. */
export interface IbcPath {
  chainA: string;
  channelA: string;
  chainB: string;
  channelB: string;
}

/** The channel from `from` to `to` (Cosmos chain ids) over `paths`, and its counterparty on `to`. */
export function ibcChannel(paths: readonly IbcPath[] | undefined, from: string, to: string): { channel: string; counterparty: string } | undefined {
  for (const p of paths ?? []) {
    if (p.chainA === from && p.chainB === to) return { channel: p.channelA, counterparty: p.channelB };
    if (p.chainB === from && p.chainA === to) return { channel: p.channelB, counterparty: p.channelA };
  }
  return undefined;
}

export interface RoutingEnv {
  /** The chains of the network, in listing order. */
  readonly chains: readonly RoutingChain[];
  readonly config: RoutingConfig;
  readonly logger: Logger;
  readonly apiKeys: ApiKeyStore;
  /** Monotonic milliseconds (status timeouts, rate limit). */
  readonly now: Clock;
  /** What the live explorer reads (src/rpc/routing/explorer-app.ts): the first chain's RPCs. */
  readonly explorer?: {
    cometRpc?: string;
    cometWs?: string;
    ethRpc?: string;
    devnet: boolean;
    mempool?: () => ExplorerMempool;
    /** The network's other chains, each with the RPC families the page reads (its `explorer` capability, src/chains). */
    others?: ExplorerChainFeed[];
    /** The latest IBC packets with their progress, newest first (a network with IBC). */
    ibcPackets?: (limit: number) => Promise<PacketLifecycle[]>;
  };
  /** The network's IBC transfer channels (port `transfer` both ends), by the chains' Cosmos chain ids. */
  readonly ibcPaths?: readonly IbcPath[];
  /**
   * The IBC transfers a committed tx (at `height`) sent, with their packets' progress (a network
   * with IBC; a tx from before the network's start is read back from its chain's tx index).
   */
  readonly ibcTransfers?: (chainId: string, cometHash: Uint8Array, height: number) => Promise<PacketLifecycle[]>;
  /** Told of every request (the route's path pattern, or "unmatched"): Prometheus metrics. */
  readonly observe?: (route: string, status: number, seconds: number) => void;
}

/** `chainlet_9000-1` → `chainlet`. */
export function chainNameOf(chainId: string): string {
  return (chainId.split(/[_-]/)[0] || chainId).toLowerCase();
}

function attribute(result: ExecTxResult, type: string, key: string): string | undefined {
  for (const e of result.events) {
    if (e.type !== type) continue;
    for (const a of e.attributes) if (a.key === key) return a.value;
  }
  return undefined;
}

/** Cosmos EVM reports a reverted EVM tx with code 0 and an `ethereum_tx.ethereumTxFailed` attribute. */
export function outcomeOf(result: ExecTxResult): TxOutcome {
  if (result.code !== 0) return { ok: false, code: result.code, log: result.log };
  const failed = attribute(result, 'ethereum_tx', 'ethereumTxFailed');
  return failed === undefined ? { ok: true, code: 0, log: result.log } : { ok: false, code: 0, log: failed || 'execution reverted' };
}
