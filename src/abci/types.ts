/**
 * ABCI 2.0 (CometBFT v0.38) request and response types, as plain data.
 *
 * Byte fields are Uint8Array; int64 fields are JS numbers (heights, gas and powers stay far below
 * 2^53 on a devnet). Wire encodings (strings for int64, base64, hex) belong to `src/codec`, never here.
 */
import { BlockIDFlag } from '../types/block.js';
import type { Timestamp } from '../types/time.js';
import type { ConsensusParams } from '../types/params.js';

/** A vote's flag is CometBFT's types.BlockIDFlag (defined with the commit it describes). */
export { BlockIDFlag };

export interface EventAttribute {
  key: string;
  value: string;
  index: boolean;
}

export interface AbciEvent {
  type: string;
  attributes: EventAttribute[];
}

/** Result codes. 0 is OK; anything else is an error in `codespace`. */
export const CodeTypeOK = 0;

export interface RequestInfo {
  version: string;
  blockVersion: number;
  p2pVersion: number;
  abciVersion: string;
}

export interface ResponseInfo {
  data: string;
  version: string;
  appVersion: number;
  lastBlockHeight: number;
  lastBlockAppHash: Uint8Array;
}

export interface ValidatorUpdate {
  /** ed25519 public key, 32 bytes. */
  pubKey: Uint8Array;
  power: number;
}

export interface RequestInitChain {
  time: Timestamp;
  chainId: string;
  consensusParams: ConsensusParams;
  validators: ValidatorUpdate[];
  /** The genesis `app_state`, as raw JSON bytes (as CometBFT passes it). */
  appStateBytes: Uint8Array;
  initialHeight: number;
}

export interface ResponseInitChain {
  consensusParams?: ConsensusParams;
  validators: ValidatorUpdate[];
  appHash: Uint8Array;
}

export enum CheckTxType {
  New = 0,
  Recheck = 1,
}

export interface RequestCheckTx {
  tx: Uint8Array;
  type: CheckTxType;
}

/**
 * What the app says of a tx it checked. The wire fields are those of v0.38's ResponseCheckTx; the
 * `mempool*` fields are Chainlet-internal (never serialised) and let the mempool order txs per
 * sender by nonce and across senders by fee, as an app-side EVM mempool does.
 */
export interface ResponseCheckTx {
  code: number;
  data: Uint8Array;
  log: string;
  info: string;
  gasWanted: number;
  gasUsed: number;
  events: AbciEvent[];
  codespace: string;
  /** Lower-case 0x sender address (recovered once, reused by FinalizeBlock through the app's cache). */
  sender?: string;
  nonce?: bigint;
  /** Effective tip per gas at the current base fee: the cross-sender priority. */
  priority?: bigint;
  /** Max fee per gas (legacy: gas price); used to decide same-nonce replacement. */
  maxFeePerGas?: bigint;
  /** The sender's next nonce in the committed state when this tx was checked. */
  senderStateNonce?: bigint;
  /** keccak-256 hash of the tx envelope (the EVM tx hash). */
  ethHash?: Uint8Array;
}

export interface Misbehavior {
  type: 'duplicate_vote' | 'light_client_attack';
  validatorAddress: Uint8Array;
  height: number;
  time: Timestamp;
  totalVotingPower: number;
}

export interface VoteInfo {
  validatorAddress: Uint8Array;
  power: number;
  blockIdFlag: BlockIDFlag;
}

export interface CommitInfo {
  round: number;
  votes: VoteInfo[];
}

export interface RequestPrepareProposal {
  maxTxBytes: number;
  txs: Uint8Array[];
  localLastCommit: CommitInfo;
  misbehavior: Misbehavior[];
  height: number;
  time: Timestamp;
  nextValidatorsHash: Uint8Array;
  proposerAddress: Uint8Array;
}

export interface ResponsePrepareProposal {
  txs: Uint8Array[];
}

export interface RequestProcessProposal {
  txs: Uint8Array[];
  proposedLastCommit: CommitInfo;
  misbehavior: Misbehavior[];
  hash: Uint8Array;
  height: number;
  time: Timestamp;
  nextValidatorsHash: Uint8Array;
  proposerAddress: Uint8Array;
}

export enum ProposalStatus {
  Unknown = 0,
  Accept = 1,
  Reject = 2,
}

export interface ResponseProcessProposal {
  status: ProposalStatus;
}

export interface RequestFinalizeBlock {
  txs: Uint8Array[];
  decidedLastCommit: CommitInfo;
  misbehavior: Misbehavior[];
  hash: Uint8Array;
  height: number;
  time: Timestamp;
  nextValidatorsHash: Uint8Array;
  proposerAddress: Uint8Array;
}

export interface ExecTxResult {
  code: number;
  data: Uint8Array;
  log: string;
  info: string;
  gasWanted: number;
  gasUsed: number;
  events: AbciEvent[];
  codespace: string;
}

export interface ResponseFinalizeBlock {
  events: AbciEvent[];
  txResults: ExecTxResult[];
  validatorUpdates: ValidatorUpdate[];
  consensusParamUpdates?: ConsensusParams;
  appHash: Uint8Array;
}

export interface ResponseCommit {
  retainHeight: number;
}

export interface RequestQuery {
  data: Uint8Array;
  path: string;
  /** 0 = latest. */
  height: number;
  prove: boolean;
}

export interface ProofOp {
  type: string;
  key: Uint8Array;
  data: Uint8Array;
}

export interface ResponseQuery {
  code: number;
  log: string;
  info: string;
  index: number;
  key: Uint8Array | null;
  value: Uint8Array | null;
  proofOps: ProofOp[] | null;
  height: number;
  codespace: string;
}
