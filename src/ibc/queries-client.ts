/** ibc.core.client.v1.Query (02-client) over ABCI Query (queries.ts). */
import { Any } from 'cosmjs-types/google/protobuf/any';
import type { Height } from 'cosmjs-types/ibc/core/client/v1/client';
import {
  QueryClientParamsResponse,
  QueryClientStateRequest,
  QueryClientStateResponse,
  QueryClientStatesRequest,
  QueryClientStatesResponse,
  QueryClientStatusRequest,
  QueryClientStatusResponse,
  QueryConsensusStateHeightsRequest,
  QueryConsensusStateHeightsResponse,
  QueryConsensusStateRequest,
  QueryConsensusStateResponse,
  QueryConsensusStatesRequest,
  QueryConsensusStatesResponse,
} from 'cosmjs-types/ibc/core/client/v1/query';
import { ClientState as TmClientState, ConsensusState as TmConsensusState } from 'cosmjs-types/ibc/lightclients/tendermint/v1/tendermint';
import type { QueryRoute } from '../sdk/query-router.js';
import { CLIENT_TYPE } from './keys.js';
import { clientStateAny, consensusAny, decodeReq, EMPTY, parseHeight, route } from './query-common.js';
import { invalidArgument, notFound, paginate, under, validate, type IbcQuery } from './query-view.js';

/** 07-tendermint's status at the query's block time: Frozen, Expired or Active; Unknown without a client. */
async function clientStatus(q: IbcQuery, clientId: string): Promise<string> {
  const any = await clientStateAny(q.view, clientId);
  if (!any) return 'Unknown';
  const cs = TmClientState.decode(any.value);
  if (cs.frozenHeight && (cs.frozenHeight.revisionNumber !== 0n || cs.frozenHeight.revisionHeight !== 0n)) return 'Frozen';
  const latest = cs.latestHeight ? await consensusAny(q.view, clientId, cs.latestHeight) : undefined;
  if (!latest) return 'Expired';
  const ts = TmConsensusState.decode(latest.value).timestamp;
  const ns = (d: { seconds: bigint; nanos: number } | undefined) => (d ? d.seconds * 1_000_000_000n + BigInt(d.nanos) : 0n);
  return ns(ts) + ns(cs.trustingPeriod) <= q.timeNs ? 'Expired' : 'Active';
}

export const CLIENT_QUERY_ROUTES: readonly QueryRoute[] = [
  route('/ibc.core.client.v1.Query/ClientState', async (q, data) => {
    const req = decodeReq(QueryClientStateRequest, data);
    validate.client(req.clientId);
    const clientState = await clientStateAny(q.view, req.clientId);
    if (!clientState) throw notFound(`${req.clientId}: light client not found`);
    return QueryClientStateResponse.encode({ clientState, proof: EMPTY, proofHeight: q.selfHeight }).finish();
  }),
  route('/ibc.core.client.v1.Query/ClientStates', async (q, data) => {
    const req = decodeReq(QueryClientStatesRequest, data);
    const entries = (await under(q.view, 'clients/'))
      .filter(([k]) => k.endsWith('/clientState') && k.split('/').length === 2)
      .map(([k, v]): [string, { clientId: string; clientState: Any }] => [k, { clientId: k.split('/')[0]!, clientState: Any.decode(v) }]);
    const { items, pagination } = paginate(entries, req.pagination);
    items.sort((a, b) => (a.clientId < b.clientId ? -1 : a.clientId > b.clientId ? 1 : 0));
    return QueryClientStatesResponse.encode({ clientStates: items, pagination }).finish();
  }),
  route('/ibc.core.client.v1.Query/ConsensusState', async (q, data) => {
    const req = decodeReq(QueryConsensusStateRequest, data);
    validate.client(req.clientId);
    let height: Height = { revisionNumber: req.revisionNumber, revisionHeight: req.revisionHeight };
    if (req.latestHeight) {
      const any = await clientStateAny(q.view, req.clientId);
      const latest = any ? TmClientState.decode(any.value).latestHeight : undefined;
      if (latest) height = latest;
    } else if (req.revisionHeight === 0n) throw invalidArgument('consensus state height cannot be 0');
    const consensusState = await consensusAny(q.view, req.clientId, height);
    if (!consensusState) throw notFound(`client-id: ${req.clientId}, height: ${height.revisionNumber}-${height.revisionHeight}: consensus state not found`);
    return QueryConsensusStateResponse.encode({ consensusState, proof: EMPTY, proofHeight: q.selfHeight }).finish();
  }),
  route('/ibc.core.client.v1.Query/ConsensusStates', async (q, data) => {
    const req = decodeReq(QueryConsensusStatesRequest, data);
    validate.client(req.clientId);
    const entries = (await under(q.view, `clients/${req.clientId}/consensusStates/`))
      .filter(([k]) => !k.includes('/') && parseHeight(k))
      .map(([k, v]): [string, { height: Height; consensusState: Any }] => [k, { height: parseHeight(k)!, consensusState: Any.decode(v) }]);
    const { items, pagination } = paginate(entries, req.pagination);
    return QueryConsensusStatesResponse.encode({ consensusStates: items, pagination }).finish();
  }),
  route('/ibc.core.client.v1.Query/ConsensusStateHeights', async (q, data) => {
    const req = decodeReq(QueryConsensusStateHeightsRequest, data);
    validate.client(req.clientId);
    const entries = (await under(q.view, `clients/${req.clientId}/consensusStates/`))
      .filter(([k]) => !k.includes('/') && parseHeight(k))
      .map(([k]): [string, Height] => [k, parseHeight(k)!]);
    const { items, pagination } = paginate(entries, req.pagination);
    return QueryConsensusStateHeightsResponse.encode({ consensusStateHeights: items, pagination }).finish();
  }),
  route('/ibc.core.client.v1.Query/ClientStatus', async (q, data) => {
    const req = decodeReq(QueryClientStatusRequest, data);
    validate.client(req.clientId);
    return QueryClientStatusResponse.encode({ status: await clientStatus(q, req.clientId) }).finish();
  }),
  // Only 07-tendermint clients exist here (ibc-go's default allows every registered type: "*").
  route('/ibc.core.client.v1.Query/ClientParams', async () => QueryClientParamsResponse.encode({ params: { allowedClients: [CLIENT_TYPE] } }).finish()),
];
