/** ibc.core.connection.v1.Query (03-connection) over ABCI Query (queries.ts). */
import { BinaryWriter } from 'cosmjs-types/binary';
import { ClientPaths, ConnectionEnd } from 'cosmjs-types/ibc/core/connection/v1/connection';
import {
  QueryClientConnectionsRequest,
  QueryClientConnectionsResponse,
  QueryConnectionClientStateRequest,
  QueryConnectionClientStateResponse,
  QueryConnectionConsensusStateRequest,
  QueryConnectionConsensusStateResponse,
  QueryConnectionRequest,
  QueryConnectionResponse,
  QueryConnectionsRequest,
  QueryConnectionsResponse,
} from 'cosmjs-types/ibc/core/connection/v1/query';
import type { QueryRoute } from '../sdk/query-router.js';
import { hostKeys } from './keys.js';
import { clientStateAny, connectionEnd, consensusAny, decodeReq, EMPTY, route } from './query-common.js';
import { notFound, paginate, under, validate } from './query-view.js';

const MAX_EXPECTED_TIME_PER_BLOCK_NS = 30_000_000_000n;

export const CONNECTION_QUERY_ROUTES: readonly QueryRoute[] = [
  route('/ibc.core.connection.v1.Query/Connection', async (q, data) => {
    const req = decodeReq(QueryConnectionRequest, data);
    validate.connection(req.connectionId);
    const connection = await connectionEnd(q.view, req.connectionId);
    if (!connection) throw notFound(`${req.connectionId}: connection not found`);
    return QueryConnectionResponse.encode({ connection, proof: EMPTY, proofHeight: q.selfHeight }).finish();
  }),
  route('/ibc.core.connection.v1.Query/Connections', async (q, data) => {
    const req = decodeReq(QueryConnectionsRequest, data);
    const entries = (await under(q.view, 'connections/')).map(([k, v]): [string, ConnectionEnd & { id: string }] => [k, { id: k, ...ConnectionEnd.decode(v) }]);
    const { items, pagination } = paginate(entries, req.pagination);
    return QueryConnectionsResponse.encode({ connections: items, pagination, height: q.selfHeight }).finish();
  }),
  route('/ibc.core.connection.v1.Query/ClientConnections', async (q, data) => {
    const req = decodeReq(QueryClientConnectionsRequest, data);
    validate.client(req.clientId);
    const raw = await q.view.get(hostKeys.clientConnections(req.clientId));
    if (!raw) throw notFound(`${req.clientId}: light client connection paths not found`);
    return QueryClientConnectionsResponse.encode({ connectionPaths: ClientPaths.decode(raw).paths, proof: EMPTY, proofHeight: q.selfHeight }).finish();
  }),
  route('/ibc.core.connection.v1.Query/ConnectionClientState', async (q, data) => {
    const req = decodeReq(QueryConnectionClientStateRequest, data);
    validate.connection(req.connectionId);
    const conn = await connectionEnd(q.view, req.connectionId);
    if (!conn) throw notFound(`connection-id: ${req.connectionId}: connection not found`);
    const clientState = await clientStateAny(q.view, conn.clientId);
    if (!clientState) throw notFound(`client-id: ${conn.clientId}: light client not found`);
    return QueryConnectionClientStateResponse.encode({
      identifiedClientState: { clientId: conn.clientId, clientState },
      proof: EMPTY,
      proofHeight: q.selfHeight,
    }).finish();
  }),
  route('/ibc.core.connection.v1.Query/ConnectionConsensusState', async (q, data) => {
    const req = decodeReq(QueryConnectionConsensusStateRequest, data);
    validate.connection(req.connectionId);
    const conn = await connectionEnd(q.view, req.connectionId);
    if (!conn) throw notFound(`connection-id: ${req.connectionId}: connection not found`);
    const consensusState = await consensusAny(q.view, conn.clientId, { revisionNumber: req.revisionNumber, revisionHeight: req.revisionHeight });
    if (!consensusState) throw notFound(`client-id: ${conn.clientId}: consensus state not found`);
    return QueryConnectionConsensusStateResponse.encode({ consensusState, clientId: conn.clientId, proof: EMPTY, proofHeight: q.selfHeight }).finish();
  }),
  // ibc-go's default max_expected_time_per_block, 30 s. Written by hand: cosmjs-types types this
  // response's params as 02-client's Params, not 03-connection's.
  route('/ibc.core.connection.v1.Query/ConnectionParams', async () => {
    const w = new BinaryWriter();
    w.uint32(10).fork().uint32(8).uint64(MAX_EXPECTED_TIME_PER_BLOCK_NS).ldelim();
    return w.finish();
  }),
];
