/** abci_info and abci_query (rpc/core/abci.go): the app's query connection. */
import { encodeResponseInfo, encodeResponseQuery } from '../../codec/json/comet-json-abci.js';
import { BLOCK_PROTOCOL, COMET_VERSION, P2P_PROTOCOL } from '../../version.js';
import type { CometEnv } from './env.js';
import type { ResultABCIInfo, ResultABCIQuery } from './results.js';

/** proxy.RequestInfo: what CometBFT tells the app about itself. */
const REQUEST_INFO = { version: COMET_VERSION, blockVersion: BLOCK_PROTOCOL, p2pVersion: P2P_PROTOCOL, abciVersion: '2.0.0' };

/** More: https://docs.cometbft.com/v0.38/rpc/#/ABCI/abci_info */
export async function abciInfo(env: CometEnv): Promise<ResultABCIInfo> {
  return { response: encodeResponseInfo(await env.appQuery.info(REQUEST_INFO)) };
}

/** `height` 0 = latest. More: https://docs.cometbft.com/v0.38/rpc/#/ABCI/abci_query */
export async function abciQuery(env: CometEnv, args: { path: string; data: Uint8Array; height: number; prove: boolean }): Promise<ResultABCIQuery> {
  return { response: encodeResponseQuery(await env.appQuery.query(args)) };
}
