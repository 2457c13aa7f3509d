/**
 * Computes an empty segment (store/segments/empty-segment.ts): the blocks `from … to` the engine
 * would produce with no txs, everything that repeats from one empty block to the next computed once:
 *
 *   per segment: validators / params / app / results / evidence / data hashes, their merkle leaves,
 *                the right half of the header merkle tree
 *   per block:   4 header leaves + 6 inner hashes, the block's proto bytes (part-set hash),
 *                one precommit signature per validator, the commit hash for the next header
 *
 * The block executor commits what this returns (`BlockExecutor.commitEmptySegment`).
 */
import { BlockIDFlag, type ResponseFinalizeBlock } from '../abci/types.js';
import type { ChainState } from '../store/chain-state.js';
import { segmentBlockId, segmentTime, validatorSetAt, type EmptySegment } from '../store/segments/empty-segment.js';
import type { LocalValidator } from './validator.js';
import { encodeBytesValue, encodeConsensusVersion, encodeStringValue } from '../types/proto.js';
import { ed25519Sign } from '../crypto/ed25519.js';
import { sha256 } from '../crypto/hash.js';
import { BLOCK_PROTOCOL } from '../version.js';
import { type BlockID, type Commit, type CommitSig, type Header } from '../types/block.js';
import { consensusParamsHash } from '../types/params-hash.js';
import { lastResultsHash } from '../types/results.js';
import { timestampFromMs, timestampToMs, type Timestamp } from '../types/time.js';
import { txsHash } from '../types/txs.js';
import { evidenceHash } from '../types/evidence.js';
import { PART_SIZE } from '../types/part-set.js';
import { merkleRoot } from '../crypto/merkle.js';
import { blockIdBytes, bytesValue, commitSigBytes, emptyBlockBytes, int64Value, precommitSignBytes, timestampBytes } from './empty-block-codec.js';
import { NodeStoppedError, SegmentNotApplicableError } from './errors.js';

export interface BuildSegmentInput {
  /** The head the segment extends (its lastBlockHeight + 1 is the first height). */
  state: ChainState;
  /** LastCommit for the first block (the seen commit of the head). */
  lastCommit: Commit;
  /** The in-process validators, each must be online. */
  signers: readonly LocalValidator[];
  count: number;
  firstTime: Timestamp;
  intervalMs: number;
  /** The app's FinalizeBlock responses of the first heights (later ones repeat the last) and its own record. */
  results: ResponseFinalizeBlock[];
  app: unknown;
  /** Checked between chunks: true ends the build with a NodeStoppedError (the node is stopping). */
  cancelled?: () => boolean;
}

const EMPTY = new Uint8Array(0);

// RFC-6962 merkle nodes, as crypto/merkle.ts builds them (the header tree is assembled by hand
// here), hashed from one scratch buffer: the loop hashes ~14 short inputs per block.
const scratch = new Uint8Array(1 << 16);
function leaf(bytes: Uint8Array): Uint8Array {
  if (bytes.length >= scratch.length) {
    const buf = new Uint8Array(1 + bytes.length);
    buf.set(bytes, 1);
    return sha256(buf);
  }
  scratch[0] = 0;
  scratch.set(bytes, 1);
  return sha256(scratch.subarray(0, 1 + bytes.length));
}
function inner(l: Uint8Array, r: Uint8Array): Uint8Array {
  scratch[0] = 1;
  scratch.set(l, 1);
  scratch.set(r, 33);
  return sha256(scratch.subarray(0, 65));
}

/** Blocks computed between two turns of the event loop (≈ 30–60 ms of signing with one validator). */
export const SEGMENT_CHUNK_BLOCKS = 512;

/** One turn of the event loop, I/O included: the node answers other requests while a segment is built. */
const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/**
 * Computes the blocks `state.lastBlockHeight + 1 … + count`, giving the event loop a turn every
 * SEGMENT_CHUNK_BLOCKS blocks. Throws if a validator is offline or a validator-set change is still
 * pending (the caller mines those heights the normal way).
 */
export async function buildEmptySegment(input: BuildSegmentInput): Promise<{ segment: EmptySegment; after: ChainState }> {
  const { state, count, signers } = input;
  const from = state.lastBlockHeight + 1;
  const to = from + count - 1;
  const n = state.validators.size();
  const signerAt = state.validators.validators.map((v) => signers.find((s) => bytesEq(s.address, v.address)));
  if (signerAt.some((s) => s === undefined || !s.online)) throw new SegmentNotApplicableError('a validator is offline or not in this process');
  if (!bytesEq(state.validators.hash(), state.nextValidators.hash())) throw new SegmentNotApplicableError('a validator set change is pending');

  // ── per segment ──
  const version = { block: BLOCK_PROTOCOL, app: state.consensusParams.version.app };
  const valsHash = state.validators.hash();
  const emptyResults = lastResultsHash([]);
  const leaves: Uint8Array[] = [
    leaf(encodeConsensusVersion(version)),
    leaf(encodeStringValue(state.chainId)),
    EMPTY, // height
    EMPTY, // time
    EMPTY, // last block id
    EMPTY, // last commit hash
    leaf(encodeBytesValue(txsHash([]))),
    leaf(encodeBytesValue(valsHash)),
    leaf(encodeBytesValue(state.nextValidators.hash())),
    leaf(encodeBytesValue(consensusParamsHash(state.consensusParams))),
    leaf(encodeBytesValue(state.appHash)),
    EMPTY, // last results hash
    leaf(encodeBytesValue(evidenceHash([]))),
    EMPTY, // proposer
  ];
  const node01 = inner(leaves[0]!, leaves[1]!);
  const node67 = inner(leaves[6]!, leaves[7]!);
  const node89 = inner(leaves[8]!, leaves[9]!);
  const emptyResultsLeaf = leaf(encodeBytesValue(emptyResults));
  const rightHalf = (resultsLeaf: Uint8Array, proposerLeaf: Uint8Array) =>
    inner(inner(node89, inner(leaves[10]!, resultsLeaf)), inner(leaves[12]!, proposerLeaf));

  const hashes = new Uint8Array(count * 32);
  const partHashes = new Uint8Array(count * 32);
  const sizes = new Uint32Array(count);
  const signatures = new Uint8Array(count * n * 64);
  const proposers = n > 1 ? new Uint16Array(count) : undefined;
  const priorities = n > 1 ? new Float64Array(count * n) : undefined;

  let cur = state.validators;
  let next = state.nextValidators;
  let lastValidators = cur;
  let lastBlockId = state.lastBlockId;
  let lastCommit = input.lastCommit;
  let right = rightHalf(leaf(encodeBytesValue(state.lastResultsHash)), leaf(encodeBytesValue(cur.proposer.address)));
  let rightProposer = cur.proposer.address;
  const header: Header = {
    version,
    chainId: state.chainId,
    height: 0,
    time: input.firstTime,
    lastBlockId,
    lastCommitHash: EMPTY,
    dataHash: txsHash([]),
    validatorsHash: valsHash,
    nextValidatorsHash: state.nextValidators.hash(),
    consensusHash: consensusParamsHash(state.consensusParams),
    appHash: state.appHash,
    lastResultsHash: state.lastResultsHash,
    evidenceHash: evidenceHash([]),
    proposerAddress: cur.proposer.address,
  };
  const chainIdBytes = new TextEncoder().encode(state.chainId);
  const firstMs = timestampToMs(input.firstTime);

  for (let i = 0; i < count; i++) {
    if (i > 0 && i % SEGMENT_CHUNK_BLOCKS === 0) {
      await nextTurn();
      if (input.cancelled?.()) throw new NodeStoppedError();
    }
    const height = from + i;
    const time = timestampFromMs(firstMs + i * input.intervalMs);
    const proposer = cur.proposer.address;
    const lastCommitHash = merkleRoot(lastCommit.signatures.map(commitSigBytes));
    if (i === 1 || !bytesEq(proposer, rightProposer)) {
      right = rightHalf(i === 0 ? leaf(encodeBytesValue(state.lastResultsHash)) : emptyResultsLeaf, leaf(encodeBytesValue(proposer)));
      rightProposer = proposer;
    }
    const left = inner(
      inner(node01, inner(leaf(int64Value(height)), leaf(timestampBytes(time)))),
      inner(inner(leaf(blockIdBytes(lastBlockId)), leaf(bytesValue(lastCommitHash))), node67),
    );
    const hash = inner(left, right);

    header.height = height;
    header.time = time;
    header.lastBlockId = lastBlockId;
    header.lastCommitHash = lastCommitHash;
    header.lastResultsHash = i === 0 ? state.lastResultsHash : emptyResults;
    header.proposerAddress = proposer;
    const bytes = emptyBlockBytes(header, chainIdBytes, lastCommit);
    const partHash = bytes.length <= PART_SIZE ? leaf(bytes) : merkleRoot(splitParts(bytes));
    const blockId: BlockID = { hash, partSetHeader: { total: Math.ceil(bytes.length / PART_SIZE), hash: partHash } };
    hashes.set(hash, i * 32);
    partHashes.set(partHash, i * 32);
    sizes[i] = bytes.length;

    // ── every validator precommits the block ──
    const voteTime = timestampFromMs(firstMs + i * input.intervalMs + 1);
    const sigs: CommitSig[] = new Array(n);
    for (let v = 0; v < n; v++) {
      const signer = signerAt[v]!;
      const signature = ed25519Sign(signer.key, precommitSignBytes(chainIdBytes, height, 0, blockId, voteTime));
      signatures.set(signature, (i * n + v) * 64);
      sigs[v] = { blockIdFlag: BlockIDFlag.Commit, validatorAddress: signer.address, timestamp: voteTime, signature };
    }
    if (proposers !== undefined && priorities !== undefined) {
      proposers[i] = cur.getByAddress(proposer)!.index;
      cur.validators.forEach((val, k) => (priorities[i * n + k] = val.proposerPriority));
    }
    // CometBFT's updateState for a block without validator updates. A single validator's set is
    // the same after every increment (priority back to 0), so only the last steps matter there.
    if (n > 1 || i >= count - 2) {
      lastValidators = cur;
      cur = next.copy();
      next = next.copyIncrementProposerPriority(1);
    }
    lastBlockId = blockId;
    lastCommit = { height, round: 0, blockId, signatures: sigs };
  }

  const segment: EmptySegment = {
    from,
    to,
    chainId: state.chainId,
    appVersion: version.app,
    validators: state.validators.validators.map((v) => ({ ...v })),
    proposers,
    priorities,
    consensusParams: state.consensusParams,
    validatorsHash: valsHash,
    appHash: state.appHash,
    firstLastResultsHash: state.lastResultsHash,
    prevBlockId: state.lastBlockId,
    prevCommit: input.lastCommit,
    firstTimeMs: firstMs,
    intervalMs: input.intervalMs,
    hashes,
    partHashes,
    sizes,
    signatures,
    results: input.results,
    app: input.app,
  };
  const after: ChainState = {
    ...state,
    lastBlockHeight: to,
    lastBlockId,
    lastBlockTime: timestampFromMs(firstMs + (count - 1) * input.intervalMs),
    validators: cur,
    nextValidators: next,
    lastValidators: lastValidators.copy(),
    lastResultsHash: emptyResults,
  };
  return { segment, after };
}

function splitParts(bytes: Uint8Array): Uint8Array[] {
  const parts: Uint8Array[] = [];
  for (let off = 0; off < bytes.length; off += PART_SIZE) parts.push(bytes.subarray(off, off + PART_SIZE));
  return parts;
}

function bytesEq(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * The chain state after a segment, from the state before it and the segment alone (what the
 * builder returns as `after`): the handshake recovers a segment whose commit a crash cut short.
 * A segment has no validator-set change, so each height's next set is its set incremented once.
 */
export function stateAfterSegment(state: ChainState, segment: EmptySegment): ChainState {
  const last = validatorSetAt(segment, segment.to);
  const validators = last.copyIncrementProposerPriority(1);
  return {
    ...state,
    lastBlockHeight: segment.to,
    lastBlockId: segmentBlockId(segment, segment.to),
    lastBlockTime: segmentTime(segment, segment.to),
    validators,
    nextValidators: validators.copyIncrementProposerPriority(1),
    lastValidators: last,
    lastResultsHash: lastResultsHash([]),
  };
}

/**
 * What an application offers to have empty blocks committed as one segment (Chainlet's addition to
 * ABCI, for devnet mining of many blocks). The block executor is its only caller.
 */
export interface EmptySegmentApp {
  /**
   * The app's FinalizeBlock responses for `count` empty blocks after its last one (the first ones,
   * until they repeat: every later block has the last) and its own record of them, kept in the segment.
   */
  prepareEmptyBlocks(count: number): { results: ResponseFinalizeBlock[]; app: unknown };
  /** Commits a segment the block store now holds: the app's last block is the segment's last. */
  commitEmptySegment(segment: EmptySegment): Promise<void>;
  /** Tells the app's own block listeners about one height of a committed segment. */
  announceEmptyBlock(segment: EmptySegment, height: number): void;
}
