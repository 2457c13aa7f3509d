/**
 * CometBFT v0.38 JSON of the event-bus payloads (REFERENCE §1.6), of `abci.TxResult` and of
 * `types.TxProof`. Each event is wrapped as amino `{"type":"tendermint/event/X","value":…}`; the
 * consensus-internal round-state events share `tendermint/event/RoundState` as CometBFT registers
 * them. Chainlet's own demo events use the `chainlet/event/` prefix.
 */
import type { EventData, TxResult } from '../../events/types.js';
import type { TxProof } from '../../types/txs.js';
import {
  b64,
  encodeBlock,
  encodeBlockId,
  encodeHeader,
  encodeValidator,
  encodeVote,
  hex,
  i64,
  type BlockIdJson,
  type BlockJson,
  type HeaderJson,
  type ValidatorJson,
  type VoteJson,
} from './comet-json.js';
import {
  encodeEvent,
  encodeExecTxResult,
  encodeResponseFinalizeBlock,
  type EventJson,
  type ExecTxResultJson,
  type ResponseFinalizeBlockJson,
} from './comet-json-abci.js';

/** abci.TxResult under cmtjson: `index` is `omitempty` (left out for the first tx of a block). */
export interface TxResultJson {
  height: string;
  index?: number;
  tx: string;
  result: ExecTxResultJson;
}

export interface TxProofJson {
  root_hash: string;
  data: string;
  proof: { total: string; index: string; leaf_hash: string; aunts: string[] };
}

export interface EventDataJson {
  type: string;
  value: unknown;
}

/** Value shapes of the block events, for callers that read them back (tests, docs). */
export interface NewBlockValueJson {
  block: BlockJson;
  block_id: BlockIdJson;
  result_finalize_block: ResponseFinalizeBlockJson;
}
export interface NewBlockHeaderValueJson {
  header: HeaderJson;
}
export interface NewBlockEventsValueJson {
  height: string;
  events: EventJson[];
  num_txs: string;
}
export interface TxValueJson {
  TxResult: TxResultJson;
}
export interface ValidatorSetUpdatesValueJson {
  validator_updates: ValidatorJson[];
}
export interface VoteValueJson {
  Vote: VoteJson;
}

export function encodeTxResult(r: TxResult): TxResultJson {
  return r.index === 0
    ? { height: i64(r.height), tx: b64(r.tx), result: encodeExecTxResult(r.result) }
    : { height: i64(r.height), index: r.index, tx: b64(r.tx), result: encodeExecTxResult(r.result) };
}

/**
 * `aunts` is always an array: CometBFT leaves it out for a one-tx block (`omitempty`), which
 * cosmjs's decoder rejects; `[]` reads the same to every other client.
 */
export function encodeTxProof(p: TxProof): TxProofJson {
  return {
    root_hash: hex(p.rootHash),
    data: b64(p.data),
    proof: {
      total: i64(p.proof.total),
      index: i64(p.proof.index),
      leaf_hash: b64(p.proof.leafHash),
      aunts: p.proof.aunts.map(b64),
    },
  };
}

const TM = 'tendermint/event/';
const CHAINLET = 'chainlet/event/';

export function encodeEventData(d: EventData): EventDataJson {
  switch (d.type) {
    case 'NewBlock':
      return {
        type: TM + 'NewBlock',
        value: {
          block: encodeBlock(d.value.block),
          block_id: encodeBlockId(d.value.blockId),
          result_finalize_block: encodeResponseFinalizeBlock(d.value.resultFinalizeBlock),
        } satisfies NewBlockValueJson,
      };
    case 'NewBlockHeader':
      return { type: TM + 'NewBlockHeader', value: { header: encodeHeader(d.value.header) } satisfies NewBlockHeaderValueJson };
    case 'NewBlockEvents':
      return {
        type: TM + 'NewBlockEvents',
        value: { height: i64(d.value.height), events: d.value.events.map(encodeEvent), num_txs: i64(d.value.numTxs) } satisfies NewBlockEventsValueJson,
      };
    case 'NewEvidence':
      return { type: TM + 'NewEvidence', value: { evidence: d.value.evidence, height: i64(d.value.height) } };
    case 'Tx':
      return { type: TM + 'Tx', value: { TxResult: encodeTxResult(d.value.txResult) } satisfies TxValueJson };
    case 'ValidatorSetUpdates':
      return {
        type: TM + 'ValidatorSetUpdates',
        value: { validator_updates: d.value.validatorUpdates.map(encodeValidator) } satisfies ValidatorSetUpdatesValueJson,
      };
    case 'NewRound':
      return {
        type: TM + 'NewRound',
        value: {
          height: i64(d.value.height),
          round: d.value.round,
          step: d.value.step,
          proposer: { address: hex(d.value.proposer.address), index: d.value.proposer.index },
        },
      };
    case 'CompleteProposal':
      return {
        type: TM + 'CompleteProposal',
        value: { height: i64(d.value.height), round: d.value.round, step: d.value.step, block_id: encodeBlockId(d.value.blockId) },
      };
    case 'Vote':
      return { type: TM + 'Vote', value: { Vote: encodeVote(d.value.vote) } satisfies VoteValueJson };
    case 'NewRoundStep':
    case 'Polka':
    case 'Lock':
    case 'Unlock':
    case 'Relock':
    case 'TimeoutPropose':
    case 'TimeoutWait':
    case 'ValidBlock':
      return { type: TM + 'RoundState', value: { height: i64(d.value.height), round: d.value.round, step: d.value.step } };
    case 'ValidatorOnline':
    case 'ValidatorOffline': {
      const value: Record<string, unknown> = { height: i64(d.value.height), address: hex(d.value.address) };
      if (d.value.reason !== undefined) value.reason = d.value.reason;
      return { type: CHAINLET + d.type, value };
    }
    case 'ChainHalted':
      return { type: CHAINLET + 'ChainHalted', value: { height: i64(d.value.height), reason: d.value.reason } };
  }
}
