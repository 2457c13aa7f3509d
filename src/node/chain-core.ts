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
import type { ConsensusConfig, NodeConfig } from '../config/types.js';
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
import type { ChainState } from '../store/chain-state.js';
import type { ValidatorSet } from '../types/validator-set.js';
import { timestampToMs } from '../types/time.js';
import type { EmptySegmentApp } from '../consensus/empty-segment.js';
import { SegmentBlockStore, segmentBlockIndexer, segmentStateStore } from '../store/segments/segment-stores.js';
import { LEGACY_RANGE_SUBLEVEL, refuseLegacyRanges, type SegmentRegistry } from '../store/segments/segment-registry.js';
import type { ChainMetrics, MetricsRegistry } from './metrics.js';

export type Db = AbstractLevel<string | Uint8Array | Buffer, string, Uint8Array>;

export interface ChainStores {
  /** Empty segments (many empty blocks committed at once); the block store keeps them, the stores answer for them. */
  segments: SegmentRegistry;
  blockStore: SegmentBlockStore;
  stateStore: StateStore;
  /** Indexes committed blocks behind the block path; the two indexers below are its readers. */
  indexer: IndexerService;
  /** Reads wait for the blocks queued for indexing (`indexer.readers`). */
  txIndexer: TxIndexer | undefined;
  blockIndexer: BlockIndexer | undefined;
}

/** Opens the chain's stores on sublevels `blocks` (with the empty segments), `state`, `txindex` and `blockindex`. */
export async function openChainStores(sub: (name: string) => Db, config: NodeConfig): Promise<ChainStores> {
  await refuseLegacyRanges(sub(LEGACY_RANGE_SUBLEVEL));
  const blockStore = await SegmentBlockStore.open(sub('blocks'));
  const segments = blockStore.segments;
  const stateStore = segmentStateStore(await StateStore.open(sub('state')), segments);
  const kv = config.txIndex.indexer === 'kv';
  const txIndexer = kv ? await createTxIndexer(sub('txindex')) : undefined;
  const blockIndexer = kv ? segmentBlockIndexer(await createBlockIndexer(sub('blockindex')), segments) : undefined;
  const indexer = new IndexerService(txIndexer, blockIndexer, stateStore);
  return { segments, blockStore, stateStore, indexer, txIndexer: indexer.readers.tx, blockIndexer: indexer.readers.block };
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
  /** The app's side of empty segments (the EVM app): mining many empty blocks commits them as one. */
  segmentApp?: EmptySegmentApp;
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

/** An offline validator index the chain does not have (`offlineValidators`). */
export class OfflineValidatorIndexError extends RangeError {
  override name = 'OfflineValidatorIndexError';
  constructor(
    readonly index: number,
    readonly count: number,
  ) {
    super(`offline validator index ${index} is out of range: the chain runs ${count} validator(s) in this process (indices 0 to ${count - 1})`);
  }
}

/** Mempool, executor, the ABCI handshake (replaying what the app lacks) and the consensus engine, not started. */
export async function buildConsensusCore(o: ConsensusCoreOptions): Promise<ConsensusCore> {
  const { app, stores, genesis, config, logger } = o;
  const eventBus = new EventBus();
  const mempool = new Mempool(app, config.mempool, { logger: o.moduleLogger('mempool') });
  const indexer = stores.indexer;
  indexer.onFailure = (err) => logger.error({ err, height: err.height }, 'indexing failed: block production stops (restart the node to re-index)');
  const executor = new BlockExecutor({
    app,
    mempool,
    blockStore: stores.blockStore,
    stateStore: stores.stateStore,
    indexer,
    eventBus,
    segmentApp: o.segmentApp,
  });
  const { state, lastCommit } = await handshake({
    app,
    executor,
    blockStore: stores.blockStore,
    stateStore: stores.stateStore,
    segments: stores.segments,
    genesis,
    logger,
    appVersion: o.appVersion,
  });
  if (indexer.enabled) await executor.reindexFrom((await indexer.loadIndexedHeight()) + 1, state.lastBlockHeight);
  const validators = o.validatorKeys.map((k) => new LocalValidator(k, genesis.chainId));
  for (const i of o.offlineValidators ?? []) {
    if (!validators[i]) throw new OfflineValidatorIndexError(i, validators.length);
    validators[i].online = false;
  }
  const consensus = new ConsensusEngine(
    {
      executor,
      blockStore: stores.blockStore,
      stateStore: stores.stateStore,
      mempool,
      eventBus,
      validators,
      config: config.consensus,
      logger: o.moduleLogger('consensus'),
    },
    state,
    lastCommit,
  );
  return { eventBus, mempool, indexer, executor, consensus, validators, state, lastCommit };
}

/**
 * The chain's CometBFT metrics, whatever its app: in `shared` (a network's one registry) when given,
 * else in a registry of its own with `[instrumentation] prometheus = true` (the chain serves it),
 * else none: prom-client is not loaded and nothing is counted. Call it once the chain has started.
 */
export async function chainMetrics(core: ConsensusCore, config: NodeConfig, shared?: MetricsRegistry): Promise<ChainMetrics | undefined> {
  if (!shared && !config.instrumentation.prometheus) return undefined;
  const { consensus } = core;
  const src = {
    chainId: consensus.state.chainId,
    eventBus: core.eventBus,
    mempool: core.mempool,
    executor: core.executor,
    validators: () => consensus.state.validators,
    height: consensus.height,
    lastBlockTimeMs: consensus.height > 0 ? timestampToMs(consensus.state.lastBlockTime) : undefined,
  };
  if (shared) return shared.cometChain(src);
  return (await import('./metrics.js')).createChainMetrics(src, config.instrumentation.namespace);
}

/**
 * Why the online validators of this process cannot commit a block (they hold no more than 2/3 of
 * the voting power, as the consensus engine counts a quorum), or undefined when they can.
 */
export function quorumShortfall(set: ValidatorSet, locals: readonly LocalValidator[]): string | undefined {
  let online = 0;
  for (const v of set.validators) if (locals.some((l) => l.online && Buffer.compare(l.address, v.address) === 0)) online += v.votingPower;
  if (set.hasTwoThirdsMajority(online)) return undefined;
  const offline = locals.flatMap((l, i) => (l.online ? [] : [i]));
  const absent = set.validators.filter((v) => !locals.some((l) => Buffer.compare(l.address, v.address) === 0)).length;
  const who = [
    offline.length > 0 ? `validator${offline.length > 1 ? 's' : ''} ${offline.join(', ')} offline` : '',
    absent > 0 ? `${absent} not in this process` : '',
  ]
    .filter(Boolean)
    .join(', ');
  return `online voting power ${online} of ${set.totalVotingPower()} is not more than 2/3${who ? ` (${who})` : ''}`;
}

export interface StartProductionOptions {
  /** Told what the start waits for, when the first block may take a while (interval mode, offline validators). */
  onWait?: (what: string) => void;
  /** The chain's `[consensus]` section, to say why the first block takes a while. */
  consensus?: ConsensusConfig;
}

/**
 * Starts production; a fresh chain commits its block at initial_height before this resolves (as
 * CometBFT), unless its online validators cannot reach a quorum: then it resolves at once with the
 * reason, the engine waits (halted) until validators come back, and the caller serves the chain as it is.
 */
export async function startProduction(core: ConsensusCore, opts: StartProductionOptions = {}): Promise<{ halted?: string }> {
  core.consensus.start();
  const halted = quorumShortfall(core.state.validators, core.validators);
  if (halted !== undefined) return { halted };
  if (core.state.lastBlockHeight === 0) {
    const slow = opts.consensus && slowBlockReasons(opts.consensus, core.validators);
    if (slow !== undefined) opts.onWait?.(`${core.state.chainId}: waiting for block ${core.state.initialHeight} (${slow})`);
    await core.consensus.waitForHeight(core.state.initialHeight);
  }
  return {};
}

/** What makes this chain's blocks slow to come (for the waits a start announces), or undefined when they come at once. */
export function slowBlockReasons(consensus: ConsensusConfig, validators: readonly LocalValidator[]): string | undefined {
  const parts: string[] = [];
  if (consensus.mode === 'interval') parts.push(`interval mode, block time ${consensus.timeoutCommitMs} ms`);
  const offline = validators.flatMap((v, i) => (v.online ? [] : [i]));
  if (offline.length > 0)
    parts.push(
      `validator${offline.length > 1 ? 's' : ''} ${offline.join(', ')} of ${validators.length} offline: a round one of them proposes waits timeout_propose ${consensus.timeoutProposeMs} ms`,
    );
  return parts.length > 0 ? parts.join('; ') : undefined;
}
