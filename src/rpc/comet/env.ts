/**
 * What the CometBFT RPC handlers may touch, as CometBFT's rpc/core `Environment`: store readers,
 * indexers, the mempool, the event bus, the app's query and mempool connections, a consensus
 * view, the genesis and the `[rpc]` config. Handlers see nothing else of the node; the composition
 * root fills it once (src/node/rpc-comet.ts).
 */
import type { Logger } from 'pino';
import type { AppConnMempool, AppConnQuery } from '../../abci/application.js';
import type { ResponseCheckTx, ResponseFinalizeBlock } from '../../abci/types.js';
import type { RpcConfig } from '../../config/types.js';
import type { SubscribeOptions } from '../../events/bus.js';
import type { Subscription } from '../../events/subscription.js';
import type { Query } from '../../events/query/query.js';
import type { TxResult } from '../../events/types.js';
import type { GenesisDoc } from '../../genesis/genesis-doc.js';
import type { Commit, Validator } from '../../types/block.js';
import type { BlockStore } from '../../store/block-store.js';
import type { ConsensusParams } from '../../types/params.js';
import type { Timestamp } from '../../types/time.js';

/** The block store reads the handlers use. */
export type CometBlockStore = Pick<
  BlockStore,
  'base' | 'height' | 'loadBlock' | 'loadBlockByHash' | 'loadBlockMeta' | 'loadBlockMetaByHash' | 'loadBlockCommit' | 'loadSeenCommit'
>;

export interface CometStateStore {
  loadValidators(height: number): Promise<{ readonly validators: Validator[] } | undefined>;
  loadConsensusParams(height: number): Promise<ConsensusParams | undefined>;
  loadFinalizeBlockResponse(height: number): Promise<ResponseFinalizeBlock | undefined>;
}

export interface CometTxIndexer {
  get(hash: Uint8Array): Promise<TxResult | undefined>;
  /** Matching txs, ascending by (height, index). */
  search(query: Query): Promise<TxResult[]>;
}

export interface CometBlockIndexer {
  /** Matching heights, ascending. */
  search(query: Query): Promise<number[]>;
}

export interface CometMempool {
  /** Admission: cheap checks (throw CometBFT's mempool errors), then the app's CheckTx. */
  checkTx(tx: Uint8Array): Promise<ResponseCheckTx>;
  reapMaxTxs(max: number): Uint8Array[];
  /** Whether a tx with this sha256 hash waits in the pool. */
  has(hash: Uint8Array): boolean;
  size(): number;
  sizeBytes(): number;
  flush(): void;
  /** Whether a tx waits behind a nonce gap: a full pool may evict it for an executable tx. */
  hasQueued(): boolean;
  /** `[mempool]` limits, for broadcast_tx_async's synchronous pre-checks. */
  readonly limits: { readonly size: number; readonly maxTxsBytes: number; readonly maxTxBytes: number };
}

export interface CometEventBus {
  subscribe(subscriber: string, query: string | Query, opts?: SubscribeOptions): Subscription;
  unsubscribe(subscriber: string, query: string | Query): void;
  unsubscribeAll(subscriber: string): void;
  numClients(): number;
  numClientSubscriptions(subscriber: string): number;
}

/** A snapshot of consensus for consensus_state / dump_consensus_state. */
export interface RoundStateView {
  height: number;
  round: number;
  step: number;
  stepName: string;
  startTime: Timestamp;
  validators: Validator[];
  proposer: Validator | undefined;
  lastValidators: Validator[];
  lastCommit: Commit | undefined;
}

export interface CometConsensus {
  roundState(): RoundStateView;
  /** The validator key this node reports in `status` (the first in-process validator). */
  localValidator(): { address: Uint8Array; pubKey: Uint8Array } | undefined;
  /** Voting power of `address` in the set deciding the next height (0 if not in it). */
  votingPowerOf(address: Uint8Array): number;
}

export interface CometNodeInfo {
  /** 40 lower-case hex chars: the node key's address. */
  id: string;
  moniker: string;
  network: string;
  /** p2p listen address (Chainlet runs no p2p; CometBFT's default is shown). */
  listenAddr: string;
  txIndex: 'on' | 'off';
  /** `other.rpc_address`: `[rpc] laddr`, with the bound port once the server listens. */
  rpcAddress: string;
}

export interface CometEnv {
  readonly config: RpcConfig;
  readonly nodeInfo: CometNodeInfo;
  readonly genesis: GenesisDoc;
  /** The genesis as CometBFT JSON (built once). */
  genesisJson(): unknown;
  readonly blockStore: CometBlockStore;
  readonly stateStore: CometStateStore;
  readonly txIndexer: CometTxIndexer | undefined;
  readonly blockIndexer: CometBlockIndexer | undefined;
  readonly mempool: CometMempool;
  readonly eventBus: CometEventBus;
  readonly appQuery: AppConnQuery;
  readonly appMempool: AppConnMempool;
  readonly consensus: CometConsensus;
  readonly logger: Logger;
}
