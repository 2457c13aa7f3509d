/**
 * Event names and payloads of the event bus (CometBFT types/events.go), built from the domain
 * types. Wire shapes (`tendermint/event/X` wrappers, int64 as strings) belong to `src/codec`.
 */
import type { AbciEvent, ExecTxResult, ResponseFinalizeBlock } from '../abci/types.js';
import type { Block, BlockID, Header, Validator, Vote } from '../types/block.js';

export const EventType = {
  // Published by the block executor, in this order per block.
  NewBlock: 'NewBlock',
  NewBlockHeader: 'NewBlockHeader',
  NewBlockEvents: 'NewBlockEvents',
  NewEvidence: 'NewEvidence',
  Tx: 'Tx',
  ValidatorSetUpdates: 'ValidatorSetUpdates',
  // Consensus-internal.
  NewRound: 'NewRound',
  NewRoundStep: 'NewRoundStep',
  CompleteProposal: 'CompleteProposal',
  Vote: 'Vote',
  Polka: 'Polka',
  Lock: 'Lock',
  Unlock: 'Unlock',
  Relock: 'Relock',
  TimeoutPropose: 'TimeoutPropose',
  TimeoutWait: 'TimeoutWait',
  ValidBlock: 'ValidBlock',
  // Chainlet's own, for demos of validator churn and halts.
  ValidatorOnline: 'ValidatorOnline',
  ValidatorOffline: 'ValidatorOffline',
  ChainHalted: 'ChainHalted',
} as const;

export type EventTypeName = (typeof EventType)[keyof typeof EventType];

/** Reserved event-map keys. */
export const EVENT_TYPE_KEY = 'tm.event';
export const TX_HASH_KEY = 'tx.hash';
export const TX_HEIGHT_KEY = 'tx.height';
export const BLOCK_HEIGHT_KEY = 'block.height';

/** One executed tx as the bus publishes it and the tx indexer stores it (abci.TxResult). */
export interface TxResult {
  height: number;
  index: number;
  tx: Uint8Array;
  result: ExecTxResult;
}

export interface EventDataNewBlock {
  block: Block;
  blockId: BlockID;
  resultFinalizeBlock: ResponseFinalizeBlock;
}

export interface EventDataNewBlockHeader {
  header: Header;
}

export interface EventDataNewBlockEvents {
  height: number;
  events: AbciEvent[];
  numTxs: number;
}

export interface EventDataNewEvidence {
  height: number;
  evidence: unknown;
}

export interface EventDataTx {
  txResult: TxResult;
}

export interface EventDataValidatorSetUpdates {
  validatorUpdates: Validator[];
}

/** Payload of NewRoundStep, Polka, Lock, Unlock, Relock, TimeoutPropose, TimeoutWait, ValidBlock. */
export interface EventDataRoundState {
  height: number;
  round: number;
  /** CometBFT's step name, e.g. "RoundStepPropose". */
  step: string;
}

export interface EventDataNewRound extends EventDataRoundState {
  proposer: { address: Uint8Array; index: number };
}

export interface EventDataCompleteProposal extends EventDataRoundState {
  blockId: BlockID;
}

export interface EventDataVote {
  vote: Vote;
}

export interface EventDataValidatorStatus {
  height: number;
  address: Uint8Array;
  reason?: string;
}

export interface EventDataChainHalted {
  height: number;
  reason: string;
}

/** The payload type of each event. */
export interface EventPayloads {
  NewBlock: EventDataNewBlock;
  NewBlockHeader: EventDataNewBlockHeader;
  NewBlockEvents: EventDataNewBlockEvents;
  NewEvidence: EventDataNewEvidence;
  Tx: EventDataTx;
  ValidatorSetUpdates: EventDataValidatorSetUpdates;
  NewRound: EventDataNewRound;
  NewRoundStep: EventDataRoundState;
  CompleteProposal: EventDataCompleteProposal;
  Vote: EventDataVote;
  Polka: EventDataRoundState;
  Lock: EventDataRoundState;
  Unlock: EventDataRoundState;
  Relock: EventDataRoundState;
  TimeoutPropose: EventDataRoundState;
  TimeoutWait: EventDataRoundState;
  ValidBlock: EventDataRoundState;
  ValidatorOnline: EventDataValidatorStatus;
  ValidatorOffline: EventDataValidatorStatus;
  ChainHalted: EventDataChainHalted;
}

/** Discriminated union of all events, shaped like CometBFT's `{type, value}` wire wrapper. */
export type EventData = { [K in EventTypeName]: { type: K; value: EventPayloads[K] } }[EventTypeName];

/** What a subscriber receives: the event and its flattened map (always with `tm.event`). */
export interface EventMessage {
  data: EventData;
  events: Record<string, string[]>;
}

/** `tm.event = 'X'`: the ready-made query for one event type (types/events.go EventQueryX). */
export function queryForEvent(type: EventTypeName): string {
  return `${EVENT_TYPE_KEY} = '${type}'`;
}
