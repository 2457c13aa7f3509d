/**
 * What the CometBFT RPC handlers may touch, as CometBFT's rpc/core `Environment`: store readers,
 * indexers, the mempool, the event bus, the app's query and mempool connections, a consensus
 * view, the genesis and the `[rpc]` config. Handlers see nothing else of the node, and the
 * node fills this once (`cometEnvFromNode`).
 */
import type { Logger } from 'pino';
import type { AppConnMempool, AppConnQuery } from '../../abci/application.js';
import type { ResponseCheckTx, ResponseFinalizeBlock } from '../../abci/types.js';
import type { RpcConfig } from '../../config/types.js';
import { toHex } from '../../crypto/encoding.js';
import { sha256 } from '../../crypto/hash.js';
import type { SubscribeOptions } from '../../events/bus.js';
import type { Subscription } from '../../events/subscription.js';
import type { Query } from '../../events/query/query.js';
import type { TxResult } from '../../events/types.js';
import { genesisToJson, type GenesisDoc } from '../../genesis/genesis-doc.js';
import type { ChainletNode } from '../../node/node.js';
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

const P2P_DEFAULT_LADDR = 'tcp://0.0.0.0:26656';
const STEP_NEW_HEIGHT = 1;

/** Builds the environment from a running node: the only place that knows NodeInternals. */
export function cometEnvFromNode(node: ChainletNode): CometEnv {
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
