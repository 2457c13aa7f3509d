/**
 * CometBFT v0.38 JSON of the ABCI results the node RPC returns.
 *
 * Two encoders meet here, as in CometBFT:
 *  - gogo jsonpb with EmitDefaults (ExecTxResult, ResponseCheckTx, ResponseQuery, EventAttribute):
 *    every field present, int64 as strings, bytes base64 with an empty (nil) value as `null`,
 *    repeated fields `[]` when empty, proto JSON names (`proofOps`);
 *  - cmtjson with `omitempty` (ResponseInfo, Event, ValidatorUpdate, ResponseFinalizeBlock): zero
 *    fields left out.
 */
import type {
  AbciEvent,
  EventAttribute,
  ExecTxResult,
  ProofOp,
  ResponseCheckTx,
  ResponseFinalizeBlock,
  ResponseInfo,
  ResponseQuery,
  ValidatorUpdate,
} from '../../abci/types.js';
import { fromBase64, toBase64 } from '../../crypto/encoding.js';
import { b64OrNull, encodeConsensusParams, i64, type ConsensusParamsJson } from './comet-json.js';

export interface EventAttributeJson {
  key: string;
  value: string;
  index: boolean;
}

export interface EventJson {
  type: string;
  attributes?: EventAttributeJson[];
}

/** jsonpb ExecTxResult / ResponseCheckTx (v0.38 dropped sender, priority and mempool_error). */
export interface ExecTxResultJson {
  code: number;
  data: string | null;
  log: string;
  info: string;
  gas_wanted: string;
  gas_used: string;
  events: EventJson[];
  codespace: string;
}

export type ResponseCheckTxJson = ExecTxResultJson;

export interface ProofOpJson {
  type: string;
  key: string | null;
  data: string | null;
}

export interface ResponseQueryJson {
  code: number;
  log: string;
  info: string;
  index: string;
  key: string | null;
  value: string | null;
  proofOps: { ops: ProofOpJson[] } | null;
  height: string;
  codespace: string;
}

export interface ResponseInfoJson {
  data?: string;
  version?: string;
  app_version?: string;
  last_block_height?: string;
  last_block_app_hash?: string;
}

export interface ValidatorUpdateJson {
  pub_key: { Sum: { type: string; value: { ed25519: string } } };
  power?: string;
}

export interface ResponseFinalizeBlockJson {
  events?: EventJson[];
  tx_results?: ExecTxResultJson[];
  validator_updates: ValidatorUpdateJson[];
  consensus_param_updates?: ConsensusParamsJson;
  app_hash?: string;
}

// ------------------------------------------------------------------------------ jsonpb

export function encodeEventAttribute(a: EventAttribute): EventAttributeJson {
  return { key: a.key, value: a.value, index: a.index };
}

/** An event inside a jsonpb message: `attributes` is always present. */
function encodeEventPb(e: AbciEvent): EventJson {
  return { type: e.type, attributes: e.attributes.map(encodeEventAttribute) };
}

export function encodeExecTxResult(r: ExecTxResult): ExecTxResultJson {
  return {
    code: r.code,
    data: b64OrNull(r.data),
    log: r.log,
    info: r.info,
    gas_wanted: i64(r.gasWanted),
    gas_used: i64(r.gasUsed),
    events: r.events.map(encodeEventPb),
    codespace: r.codespace,
  };
}

/** jsonpb ExecTxResult / ResponseCheckTx → ours (a CometBFT RPC answer read by a client). */
export function decodeExecTxResult(j: ExecTxResultJson): ExecTxResult {
  return {
    code: j.code ?? 0,
    data: j.data ? fromBase64(j.data) : new Uint8Array(0),
    log: j.log ?? '',
    info: j.info ?? '',
    gasWanted: Number(j.gas_wanted ?? 0),
    gasUsed: Number(j.gas_used ?? 0),
    events: (j.events ?? []).map((e) => ({ type: e.type, attributes: (e.attributes ?? []).map((a) => ({ key: a.key, value: a.value, index: a.index })) })),
    codespace: j.codespace ?? '',
  };
}

/** The wire fields only: Chainlet's internal mempool fields (sender, nonce…) never leave. */
export function encodeResponseCheckTx(r: ResponseCheckTx): ResponseCheckTxJson {
  return encodeExecTxResult(r);
}

/** An empty ExecTxResult (`abci.ExecTxResult{}`), as broadcast_tx_commit returns before inclusion. */
export function emptyExecTxResult(): ExecTxResultJson {
  return { code: 0, data: null, log: '', info: '', gas_wanted: '0', gas_used: '0', events: [], codespace: '' };
}

function encodeProofOp(op: ProofOp): ProofOpJson {
  return { type: op.type, key: b64OrNull(op.key), data: b64OrNull(op.data) };
}

export function encodeResponseQuery(r: ResponseQuery): ResponseQueryJson {
  return {
    code: r.code,
    log: r.log,
    info: r.info,
    index: i64(r.index),
    key: b64OrNull(r.key),
    value: b64OrNull(r.value),
    proofOps: r.proofOps ? { ops: r.proofOps.map(encodeProofOp) } : null,
    height: i64(r.height),
    codespace: r.codespace,
  };
}

// ------------------------------------------------------------------------------ cmtjson

/** An event outside jsonpb (block events): `attributes` left out when empty. */
export function encodeEvent(e: AbciEvent): EventJson {
  return e.attributes.length > 0 ? { type: e.type, attributes: e.attributes.map(encodeEventAttribute) } : { type: e.type };
}

export function encodeResponseInfo(r: ResponseInfo): ResponseInfoJson {
  const out: ResponseInfoJson = {};
  if (r.data !== '') out.data = r.data;
  if (r.version !== '') out.version = r.version;
  if (r.appVersion !== 0) out.app_version = i64(r.appVersion);
  if (r.lastBlockHeight !== 0) out.last_block_height = i64(r.lastBlockHeight);
  if (r.lastBlockAppHash.length > 0) out.last_block_app_hash = toBase64(r.lastBlockAppHash);
  return out;
}

/** abci.ValidatorUpdate: the proto PublicKey oneof, not the amino form. */
export function encodeValidatorUpdate(u: ValidatorUpdate): ValidatorUpdateJson {
  const out: ValidatorUpdateJson = {
    pub_key: { Sum: { type: 'tendermint.crypto.PublicKey_Ed25519', value: { ed25519: toBase64(u.pubKey) } } },
  };
  if (u.power !== 0) out.power = i64(u.power);
  return out;
}

/** `result_finalize_block` of a NewBlock event (keys in Go's field order). */
export function encodeResponseFinalizeBlock(r: ResponseFinalizeBlock): ResponseFinalizeBlockJson {
  const out = {} as ResponseFinalizeBlockJson;
  if (r.events.length > 0) out.events = r.events.map(encodeEvent);
  if (r.txResults.length > 0) out.tx_results = r.txResults.map(encodeExecTxResult);
  out.validator_updates = r.validatorUpdates.map(encodeValidatorUpdate);
  if (r.consensusParamUpdates) out.consensus_param_updates = encodeConsensusParams(r.consensusParamUpdates);
  if (r.appHash.length > 0) out.app_hash = toBase64(r.appHash);
  return out;
}
