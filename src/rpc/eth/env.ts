/**
 * EthEnv: everything an eth_* handler may touch, as narrow interfaces the composition root builds
 * once from a node (src/node/rpc-eth.ts; as CometBFT's rpc/core Environment). Handlers never see the node, the consensus engine or
 * the app object. A node has one env, shared by its HTTP/WS server and every in-process provider,
 * so its stateful parts live here too: filters, call executor, subscriptions, the debug profiler.
 * Those are interfaces too (EthCalls, EthFilters, EthSubscriptions): only the composition root
 * names the classes behind them (test/core/layers.test.ts checks it).
 */
import type { MempoolContent } from '../../mempool/types.js';
import type { Logger } from 'pino';
import type { Block } from '@ethereumjs/block';
import type { TypedTransaction } from '@ethereumjs/tx';
import type { Address } from '@ethereumjs/util';
import type { ResponseCheckTx } from '../../abci/types.js';
import type { AccessListEntry, CallMessage } from '../../app/evm/message.js';
import type { ExecutionPoint, OffchainExecutor, PendingHeader } from '../../app/evm/offchain.js';
import type { OverlayState } from '../../app/evm/overlay-state.js';
import type { StateOverrides } from '../../app/evm/overrides.js';
import type { MessageResult, PooledEvm, RunOptions } from '../../app/evm/run-message.js';
import type { EvmView } from '../../app/views/evm-view.js';
import type { JsonRpcConfig } from '../../config/types.js';
import { VERSION } from '../../version.js';
import type { LogCriteria } from './log-filter.js';
import type { NamespaceServices } from './namespaces/services.js';
import type { ProfilerSlot } from './namespaces/debug-profiling.js';
import type { WsSession } from './route.js';
import type { TxArgs } from './tx-args.js';

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

/** One read-only call's outcome (`readContract`): its return data, or geth's text for its failure. */
export type ContractRead = { returnValue: Uint8Array } | { error: string; timedOut: boolean };

/**
 * eth_call and what runs like it, with geth's defaults for a call object and geth's errors, bounded
 * by `[json-rpc] gas-cap` and `evm-timeout` (call-service.ts), over the chain's off-chain EVM.
 */
export interface EthCalls {
  /** The off-chain EVM (src/app/evm): memoised state readers (state methods, traces), runs (eth_simulateV1), forget. */
  readonly executor: OffchainExecutor;
  /** eth_call: the result of one execution (reverts and halts are results, not throws). */
  call(args: TxArgs, at: ExecutionPoint, overrides?: StateOverrides): Promise<MessageResult>;
  estimate(args: TxArgs, at: ExecutionPoint, overrides?: StateOverrides): Promise<{ gas: bigint; runs: number }>;
  createAccessList(args: TxArgs, at: ExecutionPoint): Promise<{ accessList: AccessListEntry[]; gasUsed: bigint; error?: string }>;
  /** Read-only calls to the contract at `to` on the latest state (the routing API's ERC-20 reads); undefined without code there. */
  readContract(to: Uint8Array, inputs: readonly Uint8Array[]): Promise<ContractRead[] | undefined>;
  /** The deadline of one request: `evm-timeout` bounds it whole, however many executions it takes. */
  deadline(): number;
  /** A CallMessage for `args` in `block`'s environment with `gasLimit`. */
  message(args: TxArgs, block: Block, gasLimit: bigint): CallMessage;
  /** Runs `msg` until `deadline`; refusals and timeouts throw geth's errors. */
  exec(evm: PooledEvm, state: OverlayState, block: Block, msg: CallMessage, opts: Omit<RunOptions, 'timeoutMs'>, deadline?: number): Promise<MessageResult>;
}

export type FilterKind = 'blocks' | 'pendingTransactions' | 'logs';

/** Polling filters (eth_newFilter & co.), removed when not polled for `filter-timeout` (filter-registry.ts). */
export interface EthFilters {
  /** A new filter's id; throws when `filter-cap` filters exist. */
  install(kind: FilterKind, criteria?: LogCriteria): string;
  /** The filter, marked as polled now; undefined when unknown or expired. */
  get(id: string): { kind: FilterKind; criteria?: LogCriteria } | undefined;
  /** Everything buffered since the last poll (eth_getFilterChanges); undefined when unknown or expired. */
  takeChanges(id: string): unknown[] | undefined;
  uninstall(id: string): boolean;
  /** Drops every filter and stops listening (the service closes). */
  close(): void;
}

/** eth_subscribe's subscriptions per session (subscriptions.ts). */
export interface EthSubscriptions {
  /** The session's subscriptions (id → stop), ended when the session closes. */
  of(session: WsSession): Map<string, () => void>;
}

export interface EthEnv {
  readonly chainId: bigint;
  readonly config: JsonRpcConfig;
  readonly view: EvmView;
  readonly txpool: EthTxPool;
  readonly signers: readonly DevSigner[];
  readonly calls: EthCalls;
  readonly filters: EthFilters;
  /** eth_subscribe's subscriptions, per session. */
  readonly subscriptions: EthSubscriptions;
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
