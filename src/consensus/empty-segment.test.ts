import { afterEach, describe, expect, it } from 'vitest';
import { BlockIDFlag } from '../abci/types.js';
import {
  encodeBlock,
  encodeBlockID,
  encodeBytesValue,
  encodeCanonicalVote,
  encodeCommitSig,
  encodeInt64Value,
  encodeTimestamp,
  lengthDelimited,
} from '../types/proto.js';
import { updateState, type ChainState } from '../store/chain-state.js';
import { SignedMsgType, type Block, type Commit } from '../types/block.js';
import { makeBlockId } from '../types/part-set.js';
import { timestampFromMs } from '../types/time.js';
import { startNode, type ChainletNode } from '../node/node.js';
import { blockIdBytes, bytesValue, commitSigBytes, emptyBlockBytes, int64Value, precommitSignBytes, timestampBytes } from './empty-block-codec.js';
import { segmentBlockId, validatorSetAt, type EmptySegment } from '../store/segments/empty-segment.js';
import { segmentBlock, segmentCommit, segmentMeta } from '../store/segments/segment-synthesis.js';
import { BlockExecutor, type BlockExecutorDeps } from './block-executor.js';
import { buildEmptySegment, stateAfterSegment } from './empty-segment.js';
import { SegmentNotApplicableError } from './errors.js';

let node: ChainletNode | undefined;
afterEach(async () => {
  await node?.stop();
  node = undefined;
});

async function segmentOn(
  validators: number,
  count: number,
): Promise<{ node: ChainletNode; segment: EmptySegment; state: ChainState; lastCommit: Commit; after: ChainState }> {
  node = await startNode({ servers: false, devnet: { validators }, config: { consensus: { mode: 'manual' } } });
  await node.mine(2);
  const { state, lastCommit } = node.internals.consensus.admin.head();
  const { segment, after } = await buildEmptySegment({
    state,
    lastCommit,
    signers: node.internals.validators,
    count,
    firstTime: timestampFromMs(timestampFromMs(Date.now()).seconds * 1000 + 5000),
    intervalMs: 1000,
    results: [{ events: [], txResults: [], validatorUpdates: [], appHash: state.appHash }],
    app: undefined,
  });
  return { node, segment, state, lastCommit, after };
}

/** The blocks the consensus engine would produce for the same heights, one by one. */
function referenceChain(n: ChainletNode, segment: EmptySegment, state: ChainState, lastCommit: Commit, count: number) {
  const out: { block: Block; hash: Uint8Array; partHash: Uint8Array; commit: Commit; state: ChainState }[] = [];
  let st = state;
  let lc = lastCommit;
  for (let i = 0; i < count; i++) {
    const h = segment.from + i;
    const time = timestampFromMs(segment.firstTimeMs + i * segment.intervalMs);
    const block = n.internals.executor.makeBlock(st, h, [], lc, st.validators.proposer.address, time);
    const { blockId } = makeBlockId(block);
    const voteTime = timestampFromMs(segment.firstTimeMs + i * segment.intervalMs + 1);
    const signatures = st.validators.validators.map((v, k) => {
      const signer = n.internals.validators.find((x) => Buffer.compare(x.address, v.address) === 0)!;
      const vote = signer.signVote(SignedMsgType.Precommit, h, 0, blockId, k, voteTime);
      return { blockIdFlag: BlockIDFlag.Commit, validatorAddress: v.address, timestamp: voteTime, signature: vote.signature };
    });
    lc = { height: h, round: 0, blockId, signatures };
    out.push({ block, hash: blockId.hash, partHash: blockId.partSetHeader.hash, commit: lc, state: st });
    st = updateState(st, block.header, blockId, { events: [], txResults: [], validatorUpdates: [], appHash: st.appHash });
  }
  return { blocks: out, final: st };
}

/** The node's executor's parts, for an executor of their own. */
function executorDeps(n: ChainletNode): BlockExecutorDeps {
  const i = n.internals;
  return { app: i.app, mempool: i.mempool, blockStore: i.blockStore, stateStore: i.stateStore, indexer: i.indexer, eventBus: i.eventBus };
}

describe('empty segments', () => {
  it.each([1, 3])('computes the blocks the engine would produce (%i validators)', async (validators) => {
    const { node: n, segment, state, lastCommit, after } = await segmentOn(validators, 6);
    const { blocks, final } = referenceChain(n, segment, state, lastCommit, 6);
    blocks.forEach((ref, i) => {
      const h = segment.from + i;
      const id = segmentBlockId(segment, h);
      expect(Buffer.from(id.hash).toString('hex')).toBe(Buffer.from(ref.hash).toString('hex'));
      expect(Buffer.from(id.partSetHeader.hash).equals(Buffer.from(ref.partHash))).toBe(true);
      // What the stores answer for the height is the same block, commit and validator set.
      expect(encodeBlock(segmentBlock(segment, h))).toEqual(encodeBlock(ref.block));
      expect(segmentCommit(segment, h)).toEqual(ref.commit);
      expect(segmentMeta(segment, h).blockSize).toBe(encodeBlock(ref.block).length);
      expect(validatorSetAt(segment, h).proposer.address).toEqual(ref.state.validators.proposer.address);
      expect(validatorSetAt(segment, h).validators.map((v) => v.proposerPriority)).toEqual(ref.state.validators.validators.map((v) => v.proposerPriority));
    });
    expect(after.lastBlockHeight).toBe(final.lastBlockHeight);
    expect(after.lastBlockId).toEqual(final.lastBlockId);
    expect(after.validators.proposer.address).toEqual(final.validators.proposer.address);
    expect(after.nextValidators.validators.map((v) => v.proposerPriority)).toEqual(final.nextValidators.validators.map((v) => v.proposerPriority));
    expect(after.lastResultsHash).toEqual(final.lastResultsHash);
    // The handshake's rebuild of the state after a segment (crash recovery) is the builder's.
    const rebuilt = stateAfterSegment(state, segment);
    const sets = (st: ChainState) =>
      [st.lastValidators, st.validators, st.nextValidators].map(
        (v) => v && [Buffer.from(v.proposer.address).toString('hex'), v.validators.map((x) => x.proposerPriority)],
      );
    expect(sets(rebuilt)).toEqual(sets(after));
    expect({ ...rebuilt, lastValidators: 0, validators: 0, nextValidators: 0 }).toEqual({ ...after, lastValidators: 0, validators: 0, nextValidators: 0 });
  });

  it('keeps one signature per validator and block', async () => {
    const { segment } = await segmentOn(1, 400);
    expect(segment.signatures.length).toBe(400 * 64);
    expect(segment.hashes.length).toBe(400 * 32);
  });

  it('refuses when a validator is offline', async () => {
    node = await startNode({ servers: false, devnet: { validators: 4 }, config: { consensus: { mode: 'manual' } } });
    node.setValidatorOnline(3, false);
    const { state, lastCommit } = node.internals.consensus.admin.head();
    await expect(
      buildEmptySegment({
        state,
        lastCommit,
        signers: node!.internals.validators,
        count: 2,
        firstTime: timestampFromMs(Date.now()),
        intervalMs: 1000,
        results: [],
        app: undefined,
      }),
    ).rejects.toThrow(/offline/);
  });
});

describe('empty segments through the block executor', () => {
  it('commits a segment as one step of every store and the app, and refuses one that no longer follows the head', async () => {
    node = await startNode({ servers: false, config: { consensus: { mode: 'manual' } } });
    await node.mine(1);
    const { admin } = node.internals.consensus;
    const segment = await admin.exclusive(() => admin.mineEmptySegment(100));
    expect([segment.from, segment.to]).toEqual([3, 102]);
    expect([node.height, node.internals.blockStore.height(), node.internals.app.evm.latestHeight()]).toEqual([102, 102, 102]);
    expect((await node.internals.stateStore.loadState())?.lastBlockHeight).toBe(102);
    // The same segment again no longer follows the head: the block store refuses it before anything is written.
    const after = admin.head().state;
    await expect(admin.exclusive(() => node!.internals.executor.commitEmptySegment(segment, after))).rejects.toThrow(/does not follow the stored height 102/);
    expect([node.height, node.internals.blockStore.height(), node.internals.app.evm.latestHeight()]).toEqual([102, 102, 102]);
    await node.mine(1);
    expect((await node.internals.blockStore.loadBlock(103))?.header.lastBlockId.hash).toEqual(segment.hashes.slice(99 * 32));
  });

  it('records the indexed height before the state: a crash between the two does not re-index the segment at the next start', async () => {
    node = await startNode({ servers: false, config: { consensus: { mode: 'manual' } } });
    await node.mine(1);
    const i = node.internals;
    // The process dies at the state's write.
    const stateStore = Object.assign(Object.create(i.stateStore) as typeof i.stateStore, {
      save: () => Promise.reject(new Error('killed at the state write')),
    });
    const executor = new BlockExecutor({ ...executorDeps(node), stateStore, segmentApp: i.app });
    const { admin } = i.consensus;
    const to = await admin.exclusive(async () => {
      const { state, lastCommit } = admin.head();
      const { results, app } = executor.prepareEmptyBlocks(20);
      const firstTime = timestampFromMs((state.lastBlockTime.seconds + 1) * 1000);
      const { segment, after } = await buildEmptySegment({ state, lastCommit, signers: i.validators, count: 20, firstTime, intervalMs: 1000, results, app });
      await expect(executor.commitEmptySegment(segment, after)).rejects.toThrow(/killed/);
      return segment.to;
    });
    // The start's re-index (chain-core: from the indexed height + 1 to the state's height) has nothing to do.
    expect(await i.stateStore.loadIndexedHeight()).toBe(to);
  });

  it('is refused on a chain whose app keeps no segments', async () => {
    node = await startNode({ servers: false, config: { consensus: { mode: 'manual' } } });
    const bare = new BlockExecutor({ ...executorDeps(node), segmentApp: undefined });
    expect(() => bare.prepareEmptyBlocks(10)).toThrow(SegmentNotApplicableError);
  });
});

describe('empty block codec', () => {
  const time = { seconds: 1_700_000_123, nanos: 456_000_000 };
  const blockId = { hash: new Uint8Array(32).fill(7), partSetHeader: { total: 1, hash: new Uint8Array(32).fill(9) } };
  const sig = { blockIdFlag: BlockIDFlag.Commit, validatorAddress: new Uint8Array(20).fill(3), timestamp: time, signature: new Uint8Array(64).fill(5) };

  it('writes the bytes types/proto.ts writes', () => {
    expect(int64Value(123_456)).toEqual(encodeInt64Value(123_456));
    expect(bytesValue(new Uint8Array([1, 2, 3]))).toEqual(encodeBytesValue(new Uint8Array([1, 2, 3])));
    expect(timestampBytes(time)).toEqual(encodeTimestamp(time));
    expect(blockIdBytes(blockId)).toEqual(encodeBlockID(blockId));
    expect(commitSigBytes(sig)).toEqual(encodeCommitSig(sig));
    const chainId = 'chainlet_9000-1';
    expect(precommitSignBytes(new TextEncoder().encode(chainId), 77, 0, blockId, time)).toEqual(
      lengthDelimited(encodeCanonicalVote(chainId, { type: SignedMsgType.Precommit, height: 77, round: 0, blockId, timestamp: time })),
    );
  });

  it('writes an empty block as encodeBlock does', async () => {
    node = await startNode({ servers: false, config: { consensus: { mode: 'manual' } } });
    await node.mine(3);
    const block = (await node.internals.blockStore.loadBlock(3))!;
    expect(emptyBlockBytes(block.header, new TextEncoder().encode(block.header.chainId), block.lastCommit)).toEqual(encodeBlock(block));
  });
});
