/**
 * The block executor: the only caller of the consensus connection of the app, in CometBFT's order.
 *
 *   createProposalBlock: mempool.reap → app.PrepareProposal → header with every hash
 *   processProposal:     app.ProcessProposal
 *   applyBlock:          app.FinalizeBlock → check one result per tx → save the response
 *                        → updateState → [mempool locked: app.Commit → mempool.update (recheck)]
 *                        → save state → queue indexing (off the block path) → fire events last
 */
import type { AppConnConsensus } from '../abci/application.js';
import { ProposalStatus, type CommitInfo, type ResponseFinalizeBlock } from '../abci/types.js';
import type { EventBus } from '../events/bus.js';
import type { TxResult } from '../events/types.js';
import type { Mempool } from '../mempool/mempool.js';
import type { BlockStore } from '../store/block-store.js';
import type { IndexerService } from '../store/indexer-service.js';
import type { StateStore } from '../store/state-store.js';
import type { Block, BlockID, Commit } from '../types/block.js';
import { commitHash } from '../types/commit.js';
import { evidenceHash } from '../types/evidence.js';
import { consensusParamsHash } from '../types/params-hash.js';
import { makeBlockId } from '../types/part-set.js';
import type { Timestamp } from '../types/time.js';
import { txsHash } from '../types/txs.js';
import type { ValidatorSet } from '../types/validator-set.js';
import { updateState, type ChainState } from '../store/chain-state.js';
import type { EmptySegment } from '../store/segments/empty-segment.js';
import { segmentBlockId, segmentResult } from '../store/segments/empty-segment.js';
import { segmentBlock } from '../store/segments/segment-synthesis.js';
import { SEGMENT_CHUNK_BLOCKS, type EmptySegmentApp } from './empty-segment.js';
import { InvalidBlockError, SegmentCommitError, SegmentNotApplicableError } from './errors.js';

/** CometBFT's block version for v0.38. */
export const BLOCK_PROTOCOL = 11;
const MAX_BLOCK_SIZE_BYTES = 104_857_600;
const MAX_HEADER_BYTES = 626;
const MAX_OVERHEAD_FOR_BLOCK = 11;
const MAX_COMMIT_OVERHEAD_BYTES = 94;
const MAX_COMMIT_SIG_BYTES = 109;

/** The bytes left for txs in a block (CometBFT's types.MaxDataBytes, no evidence). */
export function maxDataBytes(maxBytes: number, valsCount: number): number {
  const limit = maxBytes === -1 ? MAX_BLOCK_SIZE_BYTES : maxBytes;
  return limit - MAX_OVERHEAD_FOR_BLOCK - MAX_HEADER_BYTES - (MAX_COMMIT_OVERHEAD_BYTES + valsCount * MAX_COMMIT_SIG_BYTES);
}

export function commitInfo(commit: Commit, vals: ValidatorSet | undefined): CommitInfo {
  if (!vals || commit.signatures.length === 0) return { round: commit.round, votes: [] };
  return {
    round: commit.round,
    votes: vals.validators.map((v, i) => ({ validatorAddress: v.address, power: v.votingPower, blockIdFlag: commit.signatures[i]!.blockIdFlag })),
  };
}

export interface BlockExecutorDeps {
  app: AppConnConsensus;
  mempool: Mempool;
  /** With `saveEmptySegment` / `reload` when it holds empty segments (store/segments). */
  blockStore: BlockStore & Partial<SegmentStore>;
  stateStore: StateStore;
  indexer: IndexerService;
  eventBus: EventBus;
  /** The app's side of empty segments (the EVM app); without it empty blocks are made one by one. */
  segmentApp?: EmptySegmentApp;
}

/** A block store that keeps empty segments (store/segments/segment-stores.ts). */
export interface SegmentStore {
  saveEmptySegment(segment: EmptySegment): Promise<void>;
  /** Re-reads what the store keeps in memory (the db was rewritten underneath). */
  reload(): Promise<void>;
}

export class BlockExecutor {
  /** Told how long each FinalizeBlock took, in ms (CometBFT's state_block_processing_time); set by the metrics only. */
  onFinalizeTime: ((ms: number) => void) | undefined;

  constructor(private readonly d: BlockExecutorDeps) {}

  /** Builds the proposal for `height` from the mempool through the app's PrepareProposal. */
  async createProposalBlock(
    state: ChainState,
    height: number,
    lastCommit: Commit,
    proposer: Uint8Array,
    time: Timestamp,
  ): Promise<{ block: Block; blockId: BlockID; size: number }> {
    const params = state.consensusParams;
    const maxBytes = maxDataBytes(params.block.maxBytes, state.validators.size());
    const txs = this.d.mempool.reapMaxBytesMaxGas(maxBytes, params.block.maxGas);
    const prepared = await this.d.app.prepareProposal({
      maxTxBytes: maxBytes,
      txs,
      localLastCommit: commitInfo(lastCommit, state.lastValidators),
      misbehavior: [],
      height,
      time,
      nextValidatorsHash: state.nextValidators.hash(),
      proposerAddress: proposer,
    });
    const block = this.makeBlock(state, height, prepared.txs, lastCommit, proposer, time);
    const { blockId, size } = makeBlockId(block);
    return { block, blockId, size };
  }

  makeBlock(state: ChainState, height: number, txs: Uint8Array[], lastCommit: Commit, proposer: Uint8Array, time: Timestamp): Block {
    const block: Block = {
      header: {
        version: { block: BLOCK_PROTOCOL, app: state.consensusParams.version.app },
        chainId: state.chainId,
        height,
        time,
        lastBlockId: state.lastBlockId,
        lastCommitHash: commitHash(lastCommit),
        dataHash: txsHash(txs),
        validatorsHash: state.validators.hash(),
        nextValidatorsHash: state.nextValidators.hash(),
        consensusHash: consensusParamsHash(state.consensusParams),
        appHash: state.appHash,
        lastResultsHash: state.lastResultsHash,
        evidenceHash: evidenceHash([]),
        proposerAddress: proposer,
      },
      data: { txs },
      evidence: { evidence: [] },
      lastCommit,
    };
    return block;
  }

  async processProposal(state: ChainState, block: Block, blockId: BlockID): Promise<boolean> {
    const res = await this.d.app.processProposal({
      txs: block.data.txs,
      proposedLastCommit: commitInfo(block.lastCommit, state.lastValidators),
      misbehavior: [],
      hash: blockId.hash,
      height: block.header.height,
      time: block.header.time,
      nextValidatorsHash: block.header.nextValidatorsHash,
      proposerAddress: block.header.proposerAddress,
    });
    return res.status === ProposalStatus.Accept;
  }

  /** Re-indexes stored blocks the indexer had not reached when the node last stopped. */
  async reindexFrom(from: number, to: number): Promise<void> {
    for (let height = from; height <= to; height++) {
      const block = await this.d.blockStore.loadBlock(height);
      const res = await this.d.stateStore.loadFinalizeBlockResponse(height);
      if (!block || !res) continue;
      this.d.indexer.enqueue(
        height,
        block.data.txs.map((tx, index) => ({ height, index, tx, result: res.txResults[index]! })),
        res.events,
      );
    }
    await this.d.indexer.flush();
  }

  /** Executes and commits a decided block; returns the state after it. The block must already be in the block store. */
  async applyBlock(state: ChainState, blockId: BlockID, block: Block, beforeEvents?: (next: ChainState) => void): Promise<ChainState> {
    const res = await this.finalize(state, blockId, block);
    return this.commitAndSave(state, blockId, block, res, false, beforeEvents);
  }

  async finalize(state: ChainState, blockId: BlockID, block: Block): Promise<ResponseFinalizeBlock> {
    // A failed index write stops the chain here (the engine stops on the throw), as CometBFT stops
    // on a failed store: no block is committed that the indexes would silently miss.
    this.d.indexer.throwIfFailed();
    const h = block.header;
    const observe = this.onFinalizeTime;
    const start = observe ? performance.now() : 0;
    const res = await this.d.app.finalizeBlock({
      txs: block.data.txs,
      decidedLastCommit: commitInfo(block.lastCommit, state.lastValidators),
      misbehavior: [],
      hash: blockId.hash,
      height: h.height,
      time: h.time,
      nextValidatorsHash: h.nextValidatorsHash,
      proposerAddress: h.proposerAddress,
    });
    observe?.(performance.now() - start);
    if (res.txResults.length !== block.data.txs.length) {
      throw new InvalidBlockError(
        `expected tx results length to match size of transactions in block. Expected ${block.data.txs.length}, got ${res.txResults.length}`,
      );
    }
    // Saved before Commit so that a crash after the app commits can be recovered without re-execution.
    await this.d.stateStore.saveFinalizeBlockResponse(h.height, res);
    return res;
  }

  /** The second half of applyBlock (also used by the handshake when the app already committed the block). */
  async commitAndSave(
    state: ChainState,
    blockId: BlockID,
    block: Block,
    res: ResponseFinalizeBlock,
    appAlreadyCommitted = false,
    beforeEvents?: (next: ChainState) => void,
  ): Promise<ChainState> {
    const h = block.header;
    const next = updateState(state, h, blockId, res);
    const release = await this.d.mempool.lock();
    try {
      if (!appAlreadyCommitted) await this.d.app.commit();
      await this.d.mempool.update(h.height, block.data.txs, res.txResults);
    } finally {
      release();
    }
    await this.d.stateStore.save(next);
    const txResults: TxResult[] = block.data.txs.map((tx, index) => ({ height: h.height, index, tx, result: res.txResults[index]! }));
    this.d.indexer.enqueue(h.height, txResults, res.events);
    // Subscribers must see the node at the new height when the block's events reach them.
    beforeEvents?.(next);
    this.fireEvents(block, blockId, res, txResults);
    return next;
  }

  // ───────────────────────────── empty segments (many empty blocks as one commit) ─────────────────────────────

  /** The app's side of `count` empty blocks (its FinalizeBlock responses and record); throws when the chain cannot take a segment. */
  prepareEmptyBlocks(count: number): { results: ResponseFinalizeBlock[]; app: unknown } {
    const app = this.d.segmentApp;
    if (app === undefined || this.d.blockStore.saveEmptySegment === undefined) throw new SegmentNotApplicableError('this chain keeps no empty segments');
    return app.prepareEmptyBlocks(count);
  }

  /**
   * Commits an empty segment the engine computed, in applyBlock's order: the block store takes the
   * segment and its new height (one batch) → the app commits it → the state after it is saved, with
   * the indexed height (the stores answer block_search for segment heights from the record). A
   * failure after the block store's write is a SegmentCommitError (the engine halts on it).
   */
  async commitEmptySegment(segment: EmptySegment, after: ChainState): Promise<void> {
    this.d.indexer.throwIfFailed();
    const store = this.d.blockStore;
    if (this.d.segmentApp === undefined || store.saveEmptySegment === undefined) throw new SegmentNotApplicableError('this chain keeps no empty segments');
    await this.d.indexer.flush();
    await store.saveEmptySegment(segment);
    try {
      await this.finishEmptySegment(segment, after, false);
    } catch (err) {
      // The block store is ahead of the app or the state now: only the handshake can finish it.
      throw new SegmentCommitError(segment.from, segment.to, err);
    }
  }

  /** The handshake's end of a segment commit a crash cut short (the block store holds it): the app's part if missing, then the state. */
  async recoverEmptySegment(segment: EmptySegment, after: ChainState, appCommitted: boolean): Promise<ChainState> {
    if (!appCommitted && this.d.segmentApp === undefined) throw new SegmentNotApplicableError('the app of this chain keeps no empty segments');
    await this.finishEmptySegment(segment, after, appCommitted);
    return after;
  }

  private async finishEmptySegment(segment: EmptySegment, after: ChainState, appCommitted: boolean): Promise<void> {
    if (!appCommitted) {
      const release = await this.d.mempool.lock();
      try {
        await this.d.segmentApp!.commitEmptySegment(segment);
      } finally {
        release();
      }
    }
    // The indexed height first: the stores answer block_search for segment heights, so there is
    // nothing to index. Saved after the state, a crash between the two would have the next start
    // re-index every height of the segment (a million synthesized blocks) into the real index.
    await this.d.stateStore.saveIndexedHeight(segment.to);
    await this.d.stateStore.save(after);
  }

  /** Publishes a committed segment's blocks (event bus, the app's listeners), a turn of the event loop every chunk. */
  async announceEmptySegment(segment: EmptySegment, onError: (err: unknown) => void): Promise<void> {
    const bus = this.d.eventBus;
    const wantsBus = bus.wants('NewBlock') || bus.wants('NewBlockHeader') || bus.wants('NewBlockEvents');
    for (let h = segment.from; h <= segment.to; h++) {
      if (h > segment.from && (h - segment.from) % SEGMENT_CHUNK_BLOCKS === 0) await new Promise<void>((resolve) => setImmediate(resolve));
      if (wantsBus) {
        const block = segmentBlock(segment, h);
        const res = segmentResult(segment, h);
        bus.publishNewBlock({ block, blockId: segmentBlockId(segment, h), resultFinalizeBlock: res });
        bus.publishNewBlockHeader({ header: block.header });
        bus.publishNewBlockEvents({ height: h, events: res.events, numTxs: 0 });
      }
      try {
        this.d.segmentApp?.announceEmptyBlock(segment, h);
      } catch (err) {
        onError(err);
      }
    }
  }

  /** Saves a head whose next-block fields changed between heights (ConsensusAdmin.amendHead). */
  saveState(state: ChainState): Promise<void> {
    return this.d.stateStore.save(state);
  }

  /** Re-reads what the stores keep in memory after the db was rewritten underneath (revert, state load). */
  async reloadStores(): Promise<void> {
    await this.d.blockStore.reload?.();
  }

  /** Waits until every committed block is indexed. */
  flushIndex(): Promise<void> {
    return this.d.indexer.flush();
  }

  private fireEvents(block: Block, blockId: BlockID, res: ResponseFinalizeBlock, txResults: TxResult[]): void {
    const bus = this.d.eventBus;
    bus.publishNewBlock({ block, blockId, resultFinalizeBlock: res });
    bus.publishNewBlockHeader({ header: block.header });
    bus.publishNewBlockEvents({ height: block.header.height, events: res.events, numTxs: block.data.txs.length });
    for (const r of txResults) bus.publishTx(r);
    if (res.validatorUpdates.length > 0) {
      bus.publishValidatorSetUpdates({
        validatorUpdates: res.validatorUpdates.map((u) => ({ address: new Uint8Array(0), pubKey: u.pubKey, votingPower: u.power, proposerPriority: 0 })),
      });
    }
  }
}
