/**
 * The `result` of each method, in wire form (rpc/core/types/responses.go under cmtjson). Handlers
 * build these from the domain types with the encoders of `src/codec/json/comet-json*.ts`.
 */
import type {
  BlockIdJson,
  BlockJson,
  BlockMetaJson,
  CommitJson,
  ConsensusParamsJson,
  HeaderJson,
  PubKeyJson,
  ValidatorJson,
} from '../../codec/json/comet-json.js';
import type {
  EventJson,
  ExecTxResultJson,
  ResponseCheckTxJson,
  ResponseInfoJson,
  ResponseQueryJson,
  ValidatorUpdateJson,
} from '../../codec/json/comet-json-abci.js';
import type { TxProofJson } from '../../codec/json/comet-json-events.js';

/** `{}`: health, subscribe, unsubscribe, unsubscribe_all, unsafe_flush_mempool. */
export type ResultEmpty = Record<string, never>;

export interface ResultStatus {
  node_info: {
    protocol_version: { p2p: string; block: string; app: string };
    id: string;
    listen_addr: string;
    network: string;
    version: string;
    channels: string;
    moniker: string;
    other: { tx_index: string; rpc_address: string };
  };
  sync_info: {
    latest_block_hash: string;
    latest_app_hash: string;
    latest_block_height: string;
    latest_block_time: string;
    earliest_block_hash: string;
    earliest_app_hash: string;
    earliest_block_height: string;
    earliest_block_time: string;
    catching_up: boolean;
  };
  validator_info: { address: string; pub_key: PubKeyJson; voting_power: string };
}

export interface ResultNetInfo {
  listening: boolean;
  listeners: string[];
  n_peers: string;
  peers: unknown[];
}

export interface ResultDialLog {
  log?: string;
}

export interface ResultGenesis {
  genesis: unknown;
}

export interface ResultGenesisChunk {
  chunk: string;
  total: string;
  data: string;
}

export interface ResultBlockchainInfo {
  last_height: string;
  block_metas: BlockMetaJson[];
}

export interface ResultBlock {
  block_id: BlockIdJson;
  block: BlockJson | null;
}

export interface ResultHeader {
  header: HeaderJson | null;
}

export interface ResultCommit {
  signed_header: { header: HeaderJson; commit: CommitJson | null };
  canonical: boolean;
}

export interface ResultBlockResults {
  height: string;
  txs_results: ExecTxResultJson[] | null;
  finalize_block_events: EventJson[] | null;
  validator_updates: ValidatorUpdateJson[] | null;
  consensus_param_updates: ConsensusParamsJson | null;
  app_hash: string | null;
}

export interface ResultBlockSearch {
  blocks: ResultBlock[];
  total_count: string;
}

export interface ResultValidators {
  block_height: string;
  validators: ValidatorJson[];
  count: string;
  total: string;
}

export interface ResultConsensusParams {
  block_height: string;
  consensus_params: ConsensusParamsJson;
}

export interface ResultTx {
  hash: string;
  height: string;
  index: number;
  tx_result: ExecTxResultJson;
  tx: string;
  proof?: TxProofJson;
}

export interface ResultTxSearch {
  txs: ResultTx[];
  total_count: string;
}

export interface ResultBroadcastTx {
  code: number;
  data: string;
  log: string;
  codespace: string;
  hash: string;
}

export interface ResultBroadcastTxCommit {
  check_tx: ResponseCheckTxJson;
  tx_result: ExecTxResultJson;
  hash: string;
  height: string;
}

export type ResultCheckTx = ResponseCheckTxJson;

export interface ResultUnconfirmedTxs {
  n_txs: string;
  total: string;
  total_bytes: string;
  txs: string[] | null;
}

export interface ResultABCIInfo {
  response: ResponseInfoJson;
}

export interface ResultABCIQuery {
  response: ResponseQueryJson;
}

export interface ResultBroadcastEvidence {
  hash: string;
}

export interface ValidatorSetJson {
  validators: ValidatorJson[];
  proposer: ValidatorJson | null;
}

export interface ResultConsensusState {
  round_state: {
    'height/round/step': string;
    start_time: string;
    proposal_block_hash: string;
    locked_block_hash: string;
    valid_block_hash: string;
    height_vote_set: unknown[];
    proposer: { address: string; index: number };
  };
}

export interface ResultDumpConsensusState {
  round_state: Record<string, unknown>;
  peers: unknown[];
}
