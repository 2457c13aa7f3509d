import { afterEach, describe, expect, it } from 'vitest';
import { BlockIDFlag } from '../../abci/types.js';
import { nextBaseFee } from '../../app/fee-market.js';
import {
  encodeBlock,
  encodeBlockID,
  encodeBytesValue,
  encodeCanonicalVote,
  encodeCommitSig,
  encodeInt64Value,
  encodeTimestamp,
  lengthDelimited,
} from '../../types/proto.js';
import { updateState, type ChainState } from '../../store/chain-state.js';
import { SignedMsgType, type Block, type Commit } from '../../types/block.js';
import { makeBlockId } from '../../types/part-set.js';
import { timestampFromMs } from '../../types/time.js';
import { startNode, type ChainletNode } from '../node.js';
import { blockIdBytes, bytesValue, commitSigBytes, emptyBlockBytes, int64Value, precommitSignBytes, timestampBytes } from './empty-block-codec.js';
import { buildEmptyRange, rangeBlockId, type EmptyRange } from './empty-range.js';
import { rangeBlock, rangeCommit, rangeMeta, rangeValidators } from './range-synthesis.js';

let node: ChainletNode | undefined;
afterEach(async () => {
  await node?.stop();
  node = undefined;
});

async function rangeOn(
  validators: number,
  count: number,
): Promise<{ node: ChainletNode; range: EmptyRange; state: ChainState; lastCommit: Commit; after: ChainState }> {
  node = await startNode({ servers: false, devnet: { validators }, config: { consensus: { mode: 'manual' } } });
  await node.mine(2);
  const { state, lastCommit } = node.internals.consensus.head();
  const { range, after } = await buildEmptyRange({
    state,
    lastCommit,
    signers: node.internals.validators,
    count,
    firstTime: timestampFromMs(timestampFromMs(Date.now()).seconds * 1000 + 5000),
    intervalMs: 1000,
    evm: {
      firstBaseFee: 1_000_000_000n,
      nextBaseFee: (b) => nextBaseFee({ gasUsed: 0n, gasLimit: 30_000_000n, baseFee: b }, 0n),
      gasLimit: 30_000_000n,
      coinbase: undefined,
      stateRoot: state.appHash,
      parentHash: state.lastBlockId.hash,
    },
  });
  return { node, range, state, lastCommit, after };
}

/** The blocks the consensus engine would produce for the same heights, one by one. */
function referenceChain(n: ChainletNode, range: EmptyRange, state: ChainState, lastCommit: Commit, count: number) {
  const out: { block: Block; hash: Uint8Array; partHash: Uint8Array; commit: Commit; state: ChainState }[] = [];
  let st = state;
  let lc = lastCommit;
  for (let i = 0; i < count; i++) {
    const h = range.from + i;
    const time = timestampFromMs(range.firstTimeMs + i * range.intervalMs);
    const block = n.internals.executor.makeBlock(st, h, [], lc, st.validators.proposer.address, time);
    const { blockId } = makeBlockId(block);
    const voteTime = timestampFromMs(range.firstTimeMs + i * range.intervalMs + 1);
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

describe('empty ranges', () => {
  it.each([1, 3])('computes the blocks the engine would produce (%i validators)', async (validators) => {
    const { node: n, range, state, lastCommit, after } = await rangeOn(validators, 6);
    const { blocks, final } = referenceChain(n, range, state, lastCommit, 6);
    blocks.forEach((ref, i) => {
      const h = range.from + i;
      const id = rangeBlockId(range, h);
      expect(Buffer.from(id.hash).toString('hex')).toBe(Buffer.from(ref.hash).toString('hex'));
      expect(Buffer.from(id.partSetHeader.hash).equals(Buffer.from(ref.partHash))).toBe(true);
      // What the stores answer for the height is the same block, commit and validator set.
      expect(encodeBlock(rangeBlock(range, h))).toEqual(encodeBlock(ref.block));
      expect(rangeCommit(range, h)).toEqual(ref.commit);
      expect(rangeMeta(range, h).blockSize).toBe(encodeBlock(ref.block).length);
      expect(rangeValidators(range, h).proposer.address).toEqual(ref.state.validators.proposer.address);
      expect(rangeValidators(range, h).validators.map((v) => v.proposerPriority)).toEqual(ref.state.validators.validators.map((v) => v.proposerPriority));
    });
    expect(after.lastBlockHeight).toBe(final.lastBlockHeight);
    expect(after.lastBlockId).toEqual(final.lastBlockId);
    expect(after.validators.proposer.address).toEqual(final.validators.proposer.address);
    expect(after.nextValidators.validators.map((v) => v.proposerPriority)).toEqual(final.nextValidators.validators.map((v) => v.proposerPriority));
    expect(after.lastResultsHash).toEqual(final.lastResultsHash);
  });

  it('stops base fees at their fixed point and keeps one signature per validator and block', async () => {
    const { range } = await rangeOn(1, 400);
    expect(range.evm.baseFees.length).toBeLessThan(400);
    expect(range.evm.baseFees[0]).toBe(1_000_000_000n);
    expect(range.signatures.length).toBe(400 * 64);
    expect(range.hashes.length).toBe(400 * 32);
  });

  it('refuses when a validator is offline', async () => {
    node = await startNode({ servers: false, devnet: { validators: 4 }, config: { consensus: { mode: 'manual' } } });
    node.setValidatorOnline(3, false);
    const { state, lastCommit } = node.internals.consensus.head();
    await expect(
      buildEmptyRange({
        state,
        lastCommit,
        signers: node!.internals.validators,
        count: 2,
        firstTime: timestampFromMs(Date.now()),
        intervalMs: 1000,
        evm: { firstBaseFee: 1n, nextBaseFee: (b) => b, gasLimit: 1n, coinbase: undefined, stateRoot: state.appHash, parentHash: new Uint8Array(32) },
      }),
    ).rejects.toThrow(/offline/);
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
