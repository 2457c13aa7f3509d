/**
 * What every chain of the process is made of, whatever its ABCI application: the stores (block,
 * state, indexers, on sublevels of one database), the event bus, the mempool, the block executor,
 * the ABCI handshake and the consensus engine with its in-process validators. The EVM node
 * (node.ts) and the other chains of a network (src/network) build their core here, so one engine
 * drives any application through the ABCI interface only.
 */
import type { AbstractLevel } from 'abstract-level';
import type { Logger } from 'pino';
import type { Application } from '../abci/application.js';
import type { NodeConfig } from '../config/types.js';
import { BlockExecutor } from '../consensus/block-executor.js';
import { ConsensusEngine } from '../consensus/engine.js';
import { handshake } from '../consensus/handshake.js';
import { LocalValidator } from '../consensus/validator.js';
import type { Ed25519Key } from '../crypto/ed25519.js';
import { EventBus } from '../events/bus.js';
import type { GenesisDoc } from '../genesis/genesis-doc.js';
import { Mempool } from '../mempool/mempool.js';
import { createBlockIndexer, type BlockIndexer } from '../store/block-indexer.js';
import { IndexerService } from '../store/indexer-service.js';
import { StateStore } from '../store/state-store.js';
import { createTxIndexer, type TxIndexer } from '../store/tx-indexer.js';
import type { Commit } from '../types/block.js';
import type { ChainState } from '../types/chain-state.js';
import { RangeRegistry } from './devnet/range-registry.js';
import { RangeAwareBlockStore, rangeAwareBlockIndexer, rangeAwareStateStore } from './devnet/range-stores.js';

export type Db = AbstractLevel<string | Uint8Array | Buffer, string, Uint8Array>;

export interface ChainStores {
  /** Ranges of empty blocks mined at once (devnet fast mining); the stores answer for them. */
  ranges: RangeRegistry;
  blockStore: RangeAwareBlockStore;
  stateStore: StateStore;
  /** Indexes committed blocks behind the block path; the two indexers below are its readers. */
  indexer: IndexerService;
  /** Reads wait for the blocks queued for indexing (`indexer.readers`). */
  txIndexer: TxIndexer | undefined;
  blockIndexer: BlockIndexer | undefined;
}

/** Opens the chain's stores on sublevels `blocks`, `state`, `txindex`, `blockindex` and `devnet`. */
export async function openChainStores(sub: (name: string) => Db, config: NodeConfig): Promise<ChainStores> {
  const ranges = await RangeRegistry.open(sub('devnet'));
  const blockStore = await RangeAwareBlockStore.open(sub('blocks'), ranges);
  const stateStore = rangeAwareStateStore(await StateStore.open(sub('state')), ranges);
  const kv = config.txIndex.indexer === 'kv';
  const txIndexer = kv ? await createTxIndexer(sub('txindex')) : undefined;
  const blockIndexer = kv ? rangeAwareBlockIndexer(await createBlockIndexer(sub('blockindex')), ranges) : undefined;
  const indexer = new IndexerService(txIndexer, blockIndexer, stateStore);
  return { ranges, blockStore, stateStore, indexer, txIndexer: indexer.readers.tx, blockIndexer: indexer.readers.block };
}

export interface ConsensusCore {
  eventBus: EventBus;
  mempool: Mempool;
  indexer: IndexerService;
  executor: BlockExecutor;
  consensus: ConsensusEngine;
  validators: LocalValidator[];
  /** The chain state after the handshake (before the first block of a fresh chain). */
  state: ChainState;
  lastCommit: Commit | undefined;
}

export interface ConsensusCoreOptions {
  app: Application;
  stores: ChainStores;
  genesis: GenesisDoc;
  validatorKeys: Ed25519Key[];
  config: NodeConfig;
  logger: Logger;
  moduleLogger: (module: string) => Logger;
  /** Indices (genesis order) of validators that start offline. */
  offlineValidators?: number[];
  appVersion: string;
}

/** Mempool, executor, the ABCI handshake (replaying what the app lacks) and the consensus engine, not started. */
export async function buildConsensusCore(o: ConsensusCoreOptions): Promise<ConsensusCore> {
  const { app, stores, genesis, config, logger } = o;
  const eventBus = new EventBus();
  const mempool = new Mempool(app, config.mempool, { logger: o.moduleLogger('mempool') });
  const indexer = stores.indexer;
  const executor = new BlockExecutor({ app, mempool, blockStore: stores.blockStore, stateStore: stores.stateStore, indexer, eventBus });
  const { state, lastCommit } = await handshake({ app, executor, blockStore: stores.blockStore, stateStore: stores.stateStore, genesis, logger, appVersion: o.appVersion });
  if (indexer.enabled) await executor.reindexFrom((await indexer.loadIndexedHeight()) + 1, state.lastBlockHeight);
  const validators = o.validatorKeys.map((k) => new LocalValidator(k, genesis.chainId));
  for (const i of o.offlineValidators ?? []) if (validators[i]) validators[i].online = false;
  const consensus = new ConsensusEngine(
    { executor, blockStore: stores.blockStore, mempool, eventBus, validators, config: config.consensus, logger: o.moduleLogger('consensus') },
    state,
    lastCommit,
  );
  return { eventBus, mempool, indexer, executor, consensus, validators, state, lastCommit };
}

/** Starts production; a fresh chain commits its block at initial_height before this resolves (as CometBFT). */
export async function startProduction(core: ConsensusCore): Promise<void> {
  core.consensus.start();
  if (core.state.lastBlockHeight === 0) await core.consensus.waitForHeight(core.state.initialHeight);
}
