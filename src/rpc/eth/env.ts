/**
 * EthEnv: everything an eth_* handler may touch, as narrow interfaces the composition root builds
 * once from a node (src/node/rpc-eth.ts; as CometBFT's rpc/core Environment). Handlers never see the node, the consensus engine or
 * the app object. A node has one env, shared by its HTTP/WS server and every in-process provider,
 * so its stateful parts live here too: filters, call executor, subscriptions, the debug profiler.
 */
import type { MempoolContent } from '../../mempool/types.js';
import type { Logger } from 'pino';
import type { TypedTransaction } from '@ethereumjs/tx';
import type { Address } from '@ethereumjs/util';
import type { ResponseCheckTx } from '../../abci/types.js';
import type { EvmView } from '../../app/views/evm-view.js';
import type { JsonRpcConfig } from '../../config/types.js';
import { VERSION } from '../../version.js';
import type { CallService } from './call-service.js';
import type { NamespaceServices } from './namespaces/services.js';
import type { PendingHeader } from './exec/call-executor.js';
import type { FilterRegistry } from './filter-registry.js';
import type { ProfilerSlot } from './namespaces/debug-profiling.js';
import type { SubscriptionRegistry } from './subscriptions.js';

/** A tx waiting in the mempool, decoded for the eth view. */
export interface PendingTx {
  tx: TypedTransaction;
  sender: Address;
  hash: Uint8Array;
}

export interface EthTxPool {
  /** CheckTx + admission (eth_sendRawTransaction). Mempool pre-check errors throw. */
  submit(raw: Uint8Array): Promise<ResponseCheckTx>;
  /** Next nonce after `sender`'s executable pending txs; undefined when it has none. */
  pendingNonce(sender: string): bigint | undefined;
  /** A pending tx by its EVM hash. */
  pending(ethHash: Uint8Array): PendingTx | undefined;
  /** EVM hashes of txs as they are admitted (newPendingTransactions). */
  onNewTx(listener: (ethHash: Uint8Array) => void): () => void;
  /** Pending and queued txs per sender (txpool_*). */
  content(): MempoolContent;
}

export interface DevSigner {
  address: Address;
  /** Lower-case 0x. */
  hex: string;
  privateKey: Uint8Array;
}

export interface EthEnv {
  readonly chainId: bigint;
  readonly config: JsonRpcConfig;
  readonly view: EvmView;
  readonly txpool: EthTxPool;
  readonly signers: readonly DevSigner[];
  readonly calls: CallService;
  readonly filters: FilterRegistry;
  /** eth_subscribe's subscriptions, per session. */
  readonly subscriptions: SubscriptionRegistry;
  /** debug_* profiling (made on first use). */
  readonly profiler: ProfilerSlot;
  readonly clientVersion: string;
  readonly logger: Logger;
  /** personal / admin / miner / devnet services (src/rpc/eth/namespaces/services.ts). */
  readonly namespaces?: NamespaceServices;
  /** The header the next block will have if it is proposed now: the `pending` block of calls and estimates. */
  pendingHeader(): PendingHeader;
  /** Told of every call (served methods by name, others as "unknown"): Prometheus metrics. */
  observe?: (method: string, seconds: number, ok: boolean) => void;
}

/**
 * web3_clientVersion. With devnet control on, the answer starts with `anvil-compatible`: the node
 * serves Anvil's method set, and hardhat-network-helpers and Foundry tools accept a development
 * network only when the version starts with `anvil` (or `hardhatnetwork`); Chainlet's own name and
 * version follow, so the answer stays truthful. `[json-rpc] client-version` replaces it.
 */
export function clientVersion(cfg: { clientVersion: string } = { clientVersion: '' }, devnet = false): string {
  if (cfg.clientVersion !== '') return cfg.clientVersion;
  const own = `Chainlet/v${VERSION}/${process.platform}-${process.arch}/node${process.versions.node}`;
  return devnet ? `anvil-compatible ${own}` : own;
}
