/**
 * The ABCI 2.0 application interface and the three connections CometBFT splits it into, so each
 * caller can only send the messages that belong to it (proxy/app_conn.go):
 *
 *   BlockExecutor ── AppConnConsensus ─┐
 *   Mempool       ── AppConnMempool   ─┼──> Application
 *   RPC / handshake── AppConnQuery     ─┘
 */
import type {
  RequestCheckTx,
  RequestFinalizeBlock,
  RequestInfo,
  RequestInitChain,
  RequestPrepareProposal,
  RequestProcessProposal,
  RequestQuery,
  ResponseCheckTx,
  ResponseCommit,
  ResponseFinalizeBlock,
  ResponseInfo,
  ResponseInitChain,
  ResponsePrepareProposal,
  ResponseProcessProposal,
  ResponseQuery,
} from './types.js';

export interface AppConnConsensus {
  initChain(req: RequestInitChain): Promise<ResponseInitChain>;
  prepareProposal(req: RequestPrepareProposal): Promise<ResponsePrepareProposal>;
  processProposal(req: RequestProcessProposal): Promise<ResponseProcessProposal>;
  finalizeBlock(req: RequestFinalizeBlock): Promise<ResponseFinalizeBlock>;
  commit(): Promise<ResponseCommit>;
}

export interface AppConnMempool {
  checkTx(req: RequestCheckTx): Promise<ResponseCheckTx>;
}

export interface AppConnQuery {
  info(req: RequestInfo): Promise<ResponseInfo>;
  query(req: RequestQuery): Promise<ResponseQuery>;
}

export interface Application extends AppConnConsensus, AppConnMempool, AppConnQuery {}
