/**
 * ibc-go's gRPC queries over ABCI Query, as ibc-go v10 answers them, from the IBC store at the
 * query's height (query-view.ts):
 *
 *   ibc.core.client.v1.Query          ClientState(s), ConsensusState(s), ConsensusStateHeights,
 *                                     ClientStatus, ClientParams
 *   ibc.core.connection.v1.Query      Connection(s), ClientConnections, ConnectionClientState,
 *                                     ConnectionConsensusState, ConnectionParams
 *   ibc.core.channel.v1.Query         Channel(s), ConnectionChannels, ChannelClientState,
 *                                     ChannelConsensusState, PacketCommitment(s), PacketReceipt,
 *                                     PacketAcknowledgement(s), UnreceivedPackets, UnreceivedAcks,
 *                                     NextSequenceReceive, NextSequenceSend
 *   ibc.applications.transfer.v1.Query  Params, Denom(s), DenomHash, EscrowAddress,
 *                                     TotalEscrowForDenom, and the pre-v10 DenomTrace(s)
 *
 * As in ibc-go, `proof` is empty and `proof_height` is the chain's own height (the chain id's
 * revision, the query's height): a relayer proves a key with `abci_query` on `/store/ibc/key`
 * (`prove: true`). Listings page as the SDK's `query.Paginate` does.
 *
 * One module per service: queries-client.ts, queries-connection.ts, queries-channel.ts (channels
 * and packets), queries-transfer.ts; the getters they share are in query-common.ts.
 */
import type { QueryRoute } from '../sdk/query-router.js';
import { CHANNEL_QUERY_ROUTES } from './queries-channel.js';
import { CLIENT_QUERY_ROUTES } from './queries-client.js';
import { CONNECTION_QUERY_ROUTES } from './queries-connection.js';
import { TRANSFER_QUERY_ROUTES } from './queries-transfer.js';

export const IBC_QUERY_ROUTES: readonly QueryRoute[] = Object.freeze([
  ...CLIENT_QUERY_ROUTES,
  ...CONNECTION_QUERY_ROUTES,
  ...CHANNEL_QUERY_ROUTES,
  ...TRANSFER_QUERY_ROUTES,
]);
