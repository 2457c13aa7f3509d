/**
 * A range of empty blocks mined at once (anvil_mine / hardhat_mine). The blocks are real CometBFT
 * blocks (header hashes chained through `last_block_id`, a LastCommit signed by every validator
 * with ed25519) but everything that repeats from one empty block to the next is computed once:
 *
 *   per range:  validators / params / app / results / evidence / data hashes, their merkle leaves,
 *               the right half of the header merkle tree
 *   per block:  4 header leaves + 6 inner hashes, the block's proto bytes (part-set hash),
 *               one precommit signature per validator, the commit hash for the next header
 *
 * Only the per-block results are kept (hash, part-set hash, size, signatures: ~130 bytes a block,
 * one db entry for the whole range); blocks, metas, commits, validator sets, FinalizeBlock
 * responses and EVM block records are rebuilt from them on read (range-synthesis.ts).
 */
import { BlockIDFlag } from '../../abci/types.js';
import type { ChainState } from '../../store/chain-state.js';
import type { LocalValidator } from '../../consensus/validator.js';
import { encodeBytesValue, encodeConsensusVersion, encodeStringValue } from '../../types/proto.js';
import { ed25519Sign } from '../../crypto/ed25519.js';
import { sha256 } from '../../crypto/hash.js';
import { BLOCK_PROTOCOL } from '../../consensus/block-executor.js';
import { type BlockID, type Commit, type CommitSig, type Header, type Validator } from '../../types/block.js';
import { consensusParamsHash } from '../../types/params-hash.js';
import type { ConsensusParams } from '../../types/params.js';
import { lastResultsHash } from '../../types/results.js';
import { timestampFromMs, timestampToMs, type Timestamp } from '../../types/time.js';
import { txsHash } from '../../types/txs.js';
import { evidenceHash } from '../../types/evidence.js';
import { PART_SIZE } from '../../types/part-set.js';
import { merkleRoot } from '../../crypto/merkle.js';
import { ValidatorSet } from '../../types/validator-set.js';
import { blockIdBytes, bytesValue, commitSigBytes, emptyBlockBytes, int64Value, precommitSignBytes, timestampBytes } from './empty-block-codec.js';
import { DevnetStoppedError, RangeNotApplicableError } from './errors.js';

/** What the EVM side of the range needs (the app's view of the same blocks). */
export interface EmptyRangeEvm {
  /** Base fee of the first block; later ones follow the fee market for an empty parent. */
  baseFees: bigint[];
  gasLimit: bigint;
  /** Coinbase override; undefined = each block's proposer address. */
  coinbase: Uint8Array | undefined;
  stateRoot: Uint8Array;
  /** CometBFT hash of the block before the range (zero hash before height 1). */
  parentHash: Uint8Array;
}

/** One range; persisted as is (v8), so every field is plain data. */
export interface EmptyRange {
  readonly from: number;
  readonly to: number;
  readonly chainId: string;
  readonly appVersion: number;
  /** Validators of height `from` (set order, with priorities) and their proposer. */
  readonly validators: Validator[];
  /** Per height (N > 1 validators only): proposer index, and N priorities of that height's set. */
  readonly proposers: Uint16Array | undefined;
  readonly priorities: Float64Array | undefined;
  readonly consensusParams: ConsensusParams;
  readonly validatorsHash: Uint8Array;
  readonly appHash: Uint8Array;
  /** `last_results_hash` of block `from` (the results of the block before); later blocks: empty results. */
  readonly firstLastResultsHash: Uint8Array;
  readonly prevBlockId: BlockID;
  /** LastCommit of block `from`. */
  readonly prevCommit: Commit;
  readonly firstTimeMs: number;
  readonly intervalMs: number;
  /** Per block, `count` × 32 bytes. */
  readonly hashes: Uint8Array;
  readonly partHashes: Uint8Array;
  readonly sizes: Uint32Array;
  /** Per block, N × 64 bytes of precommit signatures (validator-set order). */
  readonly signatures: Uint8Array;
  readonly evm: EmptyRangeEvm;
}

export interface BuildRangeInput {
  /** The head the range extends (its lastBlockHeight + 1 is the first height). */
  state: ChainState;
  /** LastCommit for the first block (the seen commit of the head). */
  lastCommit: Commit;
  /** The in-process validators, each must be online. */
  signers: readonly LocalValidator[];
  count: number;
  firstTime: Timestamp;
  intervalMs: number;
  evm: Omit<EmptyRangeEvm, 'baseFees'> & { firstBaseFee: bigint; nextBaseFee(parent: bigint): bigint };
  /** Checked between chunks: true ends the build with a DevnetStoppedError (the node is stopping). */
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

export function rangeTime(r: Pick<EmptyRange, 'from' | 'firstTimeMs' | 'intervalMs'>, height: number): Timestamp {
  return timestampFromMs(r.firstTimeMs + (height - r.from) * r.intervalMs);
}

/** Vote time of the range's precommits: 1 ms after the block time (deterministic, never stored). */
export function rangeVoteTime(r: Pick<EmptyRange, 'from' | 'firstTimeMs' | 'intervalMs'>, height: number): Timestamp {
  return timestampFromMs(r.firstTimeMs + (height - r.from) * r.intervalMs + 1);
}

/** Blocks computed between two turns of the event loop (≈ 30–60 ms of signing with one validator). */
export const RANGE_CHUNK_BLOCKS = 512;

/** One turn of the event loop, I/O included: the node answers other requests while a range is built. */
const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/**
 * Computes the blocks `state.lastBlockHeight + 1 … + count`, giving the event loop a turn every
 * RANGE_CHUNK_BLOCKS blocks. Throws if a validator is offline or a validator-set change is still
 * pending (the caller mines those heights the normal way).
 */
export async function buildEmptyRange(input: BuildRangeInput): Promise<{ range: EmptyRange; after: ChainState }> {
  const { state, count, signers } = input;
  const from = state.lastBlockHeight + 1;
  const to = from + count - 1;
  const n = state.validators.size();
  const signerAt = state.validators.validators.map((v) => signers.find((s) => bytesEq(s.address, v.address)));
  if (signerAt.some((s) => s === undefined || !s.online)) throw new RangeNotApplicableError('a validator is offline or not in this process');
  if (!bytesEq(state.validators.hash(), state.nextValidators.hash())) throw new RangeNotApplicableError('a validator set change is pending');

  // ── per range ──
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
    if (i > 0 && i % RANGE_CHUNK_BLOCKS === 0) {
      await nextTurn();
      if (input.cancelled?.()) throw new DevnetStoppedError();
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

  const baseFees = [input.evm.firstBaseFee];
  for (let i = 1; i < count; i++) {
    const nextFee = input.evm.nextBaseFee(baseFees[i - 1]!);
    if (nextFee === baseFees[i - 1]) break; // fixed point: the rest are equal
    baseFees.push(nextFee);
  }

  const range: EmptyRange = {
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
    evm: {
      baseFees,
      gasLimit: input.evm.gasLimit,
      coinbase: input.evm.coinbase,
      stateRoot: input.evm.stateRoot,
      parentHash: input.evm.parentHash,
    },
  };
  const after: ChainState = {
    ...state,
    lastBlockHeight: to,
    lastBlockId,
    lastBlockTime: rangeTime(range, to),
    validators: cur,
    nextValidators: next,
    lastValidators: lastValidators.copy(),
    lastResultsHash: emptyResults,
  };
  return { range, after };
}

export function rangeBlockId(r: EmptyRange, height: number): BlockID {
  if (height === r.from - 1) return r.prevBlockId;
  const i = height - r.from;
  return {
    hash: r.hashes.slice(i * 32, i * 32 + 32),
    partSetHeader: { total: Math.ceil(r.sizes[i]! / PART_SIZE), hash: r.partHashes.slice(i * 32, i * 32 + 32) },
  };
}

/** The validator set of a height inside the range (with that height's priorities and proposer). */
export function validatorSetAt(r: EmptyRange, height: number): ValidatorSet {
  const i = height - r.from;
  if (r.proposers === undefined || r.priorities === undefined) return ValidatorSet.fromValidators(r.validators, r.validators[0]!.address);
  const n = r.validators.length;
  const vals = r.validators.map((v, k) => ({ ...v, proposerPriority: r.priorities![i * n + k]! }));
  return ValidatorSet.fromValidators(vals, r.validators[r.proposers[i]!]!.address);
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
