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
import { InvalidBlockError } from './errors.js';

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
  blockStore: BlockStore;
  stateStore: StateStore;
  indexer: IndexerService;
  eventBus: EventBus;
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
