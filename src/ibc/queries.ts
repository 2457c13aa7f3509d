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
 */
import { exactSizeBuffers } from '../codec/cosmjs-types.js';
import { BinaryWriter } from 'cosmjs-types/binary';
import { Any } from 'cosmjs-types/google/protobuf/any';
import { DenomTrace } from 'cosmjs-types/ibc/applications/transfer/v1/denomtrace';
import {
  QueryDenomHashRequest,
  QueryDenomHashResponse,
  QueryDenomRequest,
  QueryDenomResponse,
  QueryDenomsRequest,
  QueryDenomsResponse,
  QueryEscrowAddressRequest,
  QueryEscrowAddressResponse,
  QueryParamsResponse as TransferParamsResponse,
  QueryTotalEscrowForDenomRequest,
  QueryTotalEscrowForDenomResponse,
} from 'cosmjs-types/ibc/applications/transfer/v1/query';
import { Channel, type IdentifiedChannel, Order } from 'cosmjs-types/ibc/core/channel/v1/channel';
import {
  QueryChannelClientStateRequest,
  QueryChannelClientStateResponse,
  QueryChannelConsensusStateRequest,
  QueryChannelConsensusStateResponse,
  QueryChannelRequest,
  QueryChannelResponse,
  QueryChannelsRequest,
  QueryChannelsResponse,
  QueryConnectionChannelsRequest,
  QueryConnectionChannelsResponse,
  QueryNextSequenceReceiveRequest,
  QueryNextSequenceReceiveResponse,
  QueryNextSequenceSendRequest,
  QueryNextSequenceSendResponse,
  QueryPacketAcknowledgementRequest,
  QueryPacketAcknowledgementResponse,
  QueryPacketAcknowledgementsRequest,
  QueryPacketAcknowledgementsResponse,
  QueryPacketCommitmentRequest,
  QueryPacketCommitmentResponse,
  QueryPacketCommitmentsRequest,
  QueryPacketCommitmentsResponse,
  QueryPacketReceiptRequest,
  QueryPacketReceiptResponse,
  QueryUnreceivedAcksRequest,
  QueryUnreceivedAcksResponse,
  QueryUnreceivedPacketsRequest,
  QueryUnreceivedPacketsResponse,
} from 'cosmjs-types/ibc/core/channel/v1/query';
import { ClientPaths } from 'cosmjs-types/ibc/core/connection/v1/connection';
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
import { ConnectionEnd } from 'cosmjs-types/ibc/core/connection/v1/connection';
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
import type { Height } from 'cosmjs-types/ibc/core/client/v1/client';
import { ClientState as TmClientState, ConsensusState as TmConsensusState } from 'cosmjs-types/ibc/lightclients/tendermint/v1/tendermint';
import type { QueryRoute } from '../sdk/query-router.js';
import { toBech32 } from '../crypto/bech32.js';
import { CLIENT_TYPE, decodeSeq, denomHashHex, denomPath, escrowAddress, hostKeys, parseDenomPath, type Denom } from './keys.js';
import { invalidArgument, notFound, openQuery, paginate, under, validate, type IbcQuery, type IbcQueryContext, type IbcStoreView } from './query-view.js';

exactSizeBuffers();

const EMPTY = new Uint8Array(0);
const MAX_EXPECTED_TIME_PER_BLOCK_NS = 30_000_000_000n;
const text = new TextDecoder();

function decodeReq<T>(codec: { decode(b: Uint8Array): T }, data: Uint8Array): T {
  try {
    return codec.decode(data);
  } catch (e) {
    throw invalidArgument(`invalid request: ${(e as Error).message}`);
  }
}

const route = (path: string, handle: (q: IbcQuery, data: Uint8Array) => Promise<Uint8Array>): QueryRoute => ({
  path,
  stateless: true,
  async handle(ctx, _state, _args, req) {
    return handle(await openQuery(ctx as IbcQueryContext, req.height), req.data);
  },
});

/** `…/sequences/7` → 7n. */
const seqOfKey = (k: string) => BigInt(k.slice(k.lastIndexOf('/') + 1));
/** `1-42` → {1, 42}. */
function parseHeight(s: string): Height | undefined {
  const m = /^(\d+)-(\d+)$/.exec(s);
  return m ? { revisionNumber: BigInt(m[1]!), revisionHeight: BigInt(m[2]!) } : undefined;
}

// ── reads shared by several queries (ibc-go's keeper getters) ──

async function clientStateAny(view: IbcStoreView, clientId: string): Promise<Any | undefined> {
  const raw = await view.get(hostKeys.clientState(clientId));
  return raw ? Any.decode(raw) : undefined;
}

async function consensusAny(view: IbcStoreView, clientId: string, h: Height): Promise<Any | undefined> {
  const raw = await view.get(hostKeys.consensusState(clientId, h.revisionNumber, h.revisionHeight));
  return raw ? Any.decode(raw) : undefined;
}

async function connectionEnd(view: IbcStoreView, id: string): Promise<ConnectionEnd | undefined> {
  const raw = await view.get(hostKeys.connection(id));
  return raw ? ConnectionEnd.decode(raw) : undefined;
}

async function channelEnd(view: IbcStoreView, port: string, channel: string): Promise<Channel | undefined> {
  const raw = await view.get(hostKeys.channel(port, channel));
  return raw ? Channel.decode(raw) : undefined;
}

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

/** The channel's connection and client (ibc-go's GetChannelClientState path), NotFound at each missing step. */
async function channelClient(q: IbcQuery, port: string, channel: string): Promise<{ clientId: string }> {
  const ch = await channelEnd(q.view, port, channel);
  if (!ch) throw notFound(`port-id: ${port}, channel-id: ${channel}: channel not found`);
  const connId = ch.connectionHops[0] ?? '';
  const conn = await connectionEnd(q.view, connId);
  if (!conn) throw notFound(`connection-id: ${connId}: connection not found`);
  return { clientId: conn.clientId };
}

/** ibc-go checks the channel exists before reading its packets. */
async function requireChannel(q: IbcQuery, port: string, channel: string): Promise<Channel> {
  validate.portChannel(port, channel);
  const ch = await channelEnd(q.view, port, channel);
  if (!ch) throw notFound(`port ID (${port}) channel ID (${channel}): channel not found`);
  return ch;
}

async function denomOf(view: IbcStoreView, hash: string): Promise<Denom | undefined> {
  const raw = await view.get(hostKeys.denom(hash.replace(/^ibc\//i, '').toUpperCase()));
  return raw ? (JSON.parse(text.decode(raw)) as Denom) : undefined;
}

const packetStates = (port: string, channel: string, entries: [string, Uint8Array][]) =>
  entries.map(([k, v]): [string, { portId: string; channelId: string; sequence: bigint; data: Uint8Array }] => [
    k,
    { portId: port, channelId: channel, sequence: seqOfKey(k), data: v },
  ]);

export const IBC_QUERY_ROUTES: readonly QueryRoute[] = Object.freeze([
  // ── 02-client ──
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

  // ── 03-connection ──
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

  // ── 04-channel ──
  route('/ibc.core.channel.v1.Query/Channel', async (q, data) => {
    const req = decodeReq(QueryChannelRequest, data);
    validate.portChannel(req.portId, req.channelId);
    const channel = await channelEnd(q.view, req.portId, req.channelId);
    if (!channel) throw notFound(`port-id: ${req.portId}, channel-id ${req.channelId}: channel not found`);
    return QueryChannelResponse.encode({ channel, proof: EMPTY, proofHeight: q.selfHeight }).finish();
  }),
  route('/ibc.core.channel.v1.Query/Channels', async (q, data) => {
    const req = decodeReq(QueryChannelsRequest, data);
    const { items, pagination } = paginate(await identifiedChannels(q.view), req.pagination);
    return QueryChannelsResponse.encode({ channels: items, pagination, height: q.selfHeight }).finish();
  }),
  route('/ibc.core.channel.v1.Query/ConnectionChannels', async (q, data) => {
    const req = decodeReq(QueryConnectionChannelsRequest, data);
    validate.connection(req.connection);
    const { items, pagination } = paginate(
      (await identifiedChannels(q.view)).filter(([, c]) => c.connectionHops[0] === req.connection),
      req.pagination,
    );
    return QueryConnectionChannelsResponse.encode({ channels: items, pagination, height: q.selfHeight }).finish();
  }),
  route('/ibc.core.channel.v1.Query/ChannelClientState', async (q, data) => {
    const req = decodeReq(QueryChannelClientStateRequest, data);
    validate.portChannel(req.portId, req.channelId);
    const { clientId } = await channelClient(q, req.portId, req.channelId);
    const clientState = await clientStateAny(q.view, clientId);
    if (!clientState) throw notFound(`client-id: ${clientId}: light client not found`);
    return QueryChannelClientStateResponse.encode({ identifiedClientState: { clientId, clientState }, proof: EMPTY, proofHeight: q.selfHeight }).finish();
  }),
  route('/ibc.core.channel.v1.Query/ChannelConsensusState', async (q, data) => {
    const req = decodeReq(QueryChannelConsensusStateRequest, data);
    validate.portChannel(req.portId, req.channelId);
    const { clientId } = await channelClient(q, req.portId, req.channelId);
    const consensusState = await consensusAny(q.view, clientId, { revisionNumber: req.revisionNumber, revisionHeight: req.revisionHeight });
    if (!consensusState) throw notFound(`client-id: ${clientId}: consensus state not found`);
    return QueryChannelConsensusStateResponse.encode({ consensusState, clientId, proof: EMPTY, proofHeight: q.selfHeight }).finish();
  }),
  route('/ibc.core.channel.v1.Query/PacketCommitment', async (q, data) => {
    const req = decodeReq(QueryPacketCommitmentRequest, data);
    validate.portChannel(req.portId, req.channelId);
    if (req.sequence === 0n) throw invalidArgument('packet sequence cannot be 0');
    await requireChannel(q, req.portId, req.channelId);
    const commitment = await q.view.get(hostKeys.commitment(req.portId, req.channelId, req.sequence));
    if (!commitment || commitment.length === 0) throw notFound('packet commitment hash not found');
    return QueryPacketCommitmentResponse.encode({ commitment, proof: EMPTY, proofHeight: q.selfHeight }).finish();
  }),
  route('/ibc.core.channel.v1.Query/PacketCommitments', async (q, data) => {
    const req = decodeReq(QueryPacketCommitmentsRequest, data);
    await requireChannel(q, req.portId, req.channelId);
    const entries = packetStates(req.portId, req.channelId, await under(q.view, hostKeys.commitmentPrefix(req.portId, req.channelId)));
    const { items, pagination } = paginate(entries, req.pagination);
    return QueryPacketCommitmentsResponse.encode({ commitments: items, pagination, height: q.selfHeight }).finish();
  }),
  route('/ibc.core.channel.v1.Query/PacketReceipt', async (q, data) => {
    const req = decodeReq(QueryPacketReceiptRequest, data);
    validate.portChannel(req.portId, req.channelId);
    if (req.sequence === 0n) throw invalidArgument('packet sequence cannot be 0');
    await requireChannel(q, req.portId, req.channelId);
    const received = (await q.view.get(hostKeys.receipt(req.portId, req.channelId, req.sequence))) !== undefined;
    return QueryPacketReceiptResponse.encode({ received, proof: EMPTY, proofHeight: q.selfHeight }).finish();
  }),
  route('/ibc.core.channel.v1.Query/PacketAcknowledgement', async (q, data) => {
    const req = decodeReq(QueryPacketAcknowledgementRequest, data);
    validate.portChannel(req.portId, req.channelId);
    if (req.sequence === 0n) throw invalidArgument('packet sequence cannot be 0');
    await requireChannel(q, req.portId, req.channelId);
    const acknowledgement = await q.view.get(hostKeys.ack(req.portId, req.channelId, req.sequence));
    if (!acknowledgement || acknowledgement.length === 0) throw notFound('packet acknowledgement hash not found');
    return QueryPacketAcknowledgementResponse.encode({ acknowledgement, proof: EMPTY, proofHeight: q.selfHeight }).finish();
  }),
  route('/ibc.core.channel.v1.Query/PacketAcknowledgements', async (q, data) => {
    const req = decodeReq(QueryPacketAcknowledgementsRequest, data);
    await requireChannel(q, req.portId, req.channelId);
    // Given sequences: those with an acknowledgement, unpaged; otherwise a page of every one (as ibc-go).
    if (req.packetCommitmentSequences.length > 0) {
      const acks = [];
      for (const sequence of req.packetCommitmentSequences) {
        const a = await q.view.get(hostKeys.ack(req.portId, req.channelId, sequence));
        if (a && a.length > 0) acks.push({ portId: req.portId, channelId: req.channelId, sequence, data: a });
      }
      return QueryPacketAcknowledgementsResponse.encode({ acknowledgements: acks, height: q.selfHeight }).finish();
    }
    const entries = packetStates(req.portId, req.channelId, await under(q.view, hostKeys.ackPrefix(req.portId, req.channelId)));
    const { items, pagination } = paginate(entries, req.pagination);
    return QueryPacketAcknowledgementsResponse.encode({ acknowledgements: items, pagination, height: q.selfHeight }).finish();
  }),
  route('/ibc.core.channel.v1.Query/UnreceivedPackets', async (q, data) => {
    const req = decodeReq(QueryUnreceivedPacketsRequest, data);
    validate.portChannel(req.portId, req.channelId);
    const ch = await channelEnd(q.view, req.portId, req.channelId);
    if (!ch) throw notFound(`port-id: ${req.portId}, channel-id ${req.channelId}: channel not found`);
    const sequences: bigint[] = [];
    if (ch.ordering === Order.ORDER_ORDERED) {
      const next = await q.view.get(hostKeys.nextSequenceRecv(req.portId, req.channelId));
      if (!next) throw notFound(`destination port: ${req.portId}, destination channel: ${req.channelId}: sequence receive not found`);
      for (const s of req.packetCommitmentSequences) if (s >= decodeSeq(next)) sequences.push(s);
    } else {
      for (const [i, s] of req.packetCommitmentSequences.entries()) {
        if (s === 0n) throw invalidArgument(`packet sequence ${i} cannot be 0`);
        if ((await q.view.get(hostKeys.receipt(req.portId, req.channelId, s))) === undefined) sequences.push(s);
      }
    }
    return QueryUnreceivedPacketsResponse.encode({ sequences, height: q.selfHeight }).finish();
  }),
  route('/ibc.core.channel.v1.Query/UnreceivedAcks', async (q, data) => {
    const req = decodeReq(QueryUnreceivedAcksRequest, data);
    await requireChannel(q, req.portId, req.channelId);
    // An acknowledgement is unreceived while the packet's commitment is still here.
    const sequences: bigint[] = [];
    for (const [i, s] of req.packetAckSequences.entries()) {
      if (s === 0n) throw invalidArgument(`packet sequence ${i} cannot be 0`);
      const c = await q.view.get(hostKeys.commitment(req.portId, req.channelId, s));
      if (c && c.length > 0) sequences.push(s);
    }
    return QueryUnreceivedAcksResponse.encode({ sequences, height: q.selfHeight }).finish();
  }),
  route('/ibc.core.channel.v1.Query/NextSequenceReceive', async (q, data) => {
    const req = decodeReq(QueryNextSequenceReceiveRequest, data);
    validate.portChannel(req.portId, req.channelId);
    const v = await q.view.get(hostKeys.nextSequenceRecv(req.portId, req.channelId));
    if (v === undefined) throw notFound(`port-id: ${req.portId}, channel-id ${req.channelId}: sequence receive not found`);
    return QueryNextSequenceReceiveResponse.encode({ nextSequenceReceive: decodeSeq(v), proof: EMPTY, proofHeight: q.selfHeight }).finish();
  }),
  route('/ibc.core.channel.v1.Query/NextSequenceSend', async (q, data) => {
    const req = decodeReq(QueryNextSequenceSendRequest, data);
    validate.portChannel(req.portId, req.channelId);
    const v = await q.view.get(hostKeys.nextSequenceSend(req.portId, req.channelId));
    if (v === undefined) throw notFound(`port-id: ${req.portId}, channel-id ${req.channelId}: sequence send not found`);
    return QueryNextSequenceSendResponse.encode({ nextSequenceSend: decodeSeq(v), proof: EMPTY, proofHeight: q.selfHeight }).finish();
  }),

  // ── transfer ──
  route('/ibc.applications.transfer.v1.Query/Params', async () =>
    TransferParamsResponse.encode({ params: { sendEnabled: true, receiveEnabled: true } }).finish(),
  ),
  route('/ibc.applications.transfer.v1.Query/Denom', async (q, data) => {
    const req = decodeReq(QueryDenomRequest, data);
    const d = await denomOf(q.view, req.hash);
    if (!d) throw notFound(`denomination for hash ${req.hash} not found`);
    return QueryDenomResponse.encode({ denom: d }).finish();
  }),
  route('/ibc.applications.transfer.v1.Query/Denoms', async (q, data) => {
    const req = decodeReq(QueryDenomsRequest, data);
    const entries = (await under(q.view, 'transfer/denoms/')).map(([k, v]): [string, Denom] => [k, JSON.parse(text.decode(v)) as Denom]);
    const { items, pagination } = paginate(entries, req.pagination);
    return QueryDenomsResponse.encode({ denoms: items, pagination }).finish();
  }),
  route('/ibc.applications.transfer.v1.Query/DenomHash', async (q, data) => {
    const req = decodeReq(QueryDenomHashRequest, data);
    const d = parseDenomPath(req.trace);
    if (d.trace.length === 0) throw invalidArgument(`invalid denom trace: ${req.trace}`);
    const hash = denomHashHex(denomPath(d));
    if ((await q.view.get(hostKeys.denom(hash))) === undefined) throw notFound(`denomination not found for ${req.trace}`);
    return QueryDenomHashResponse.encode({ hash }).finish();
  }),
  route('/ibc.applications.transfer.v1.Query/EscrowAddress', async (q, data) => {
    const req = decodeReq(QueryEscrowAddressRequest, data);
    validate.portChannel(req.portId, req.channelId);
    return QueryEscrowAddressResponse.encode({ escrowAddress: toBech32(q.bech32Prefix, escrowAddress(req.portId, req.channelId)) }).finish();
  }),
  route('/ibc.applications.transfer.v1.Query/TotalEscrowForDenom', async (q, data) => {
    const req = decodeReq(QueryTotalEscrowForDenomRequest, data);
    const v = await q.view.get(hostKeys.totalEscrow(req.denom));
    return QueryTotalEscrowForDenomResponse.encode({ amount: { denom: req.denom, amount: v ? text.decode(v) : '0' } }).finish();
  }),
  // ibc-go ≤ v8's DenomTrace queries (older clients still ask): {path, base_denom}.
  route('/ibc.applications.transfer.v1.Query/DenomTrace', async (q, data) => {
    const req = decodeReq(QueryDenomRequest, data); // same shape: hash = 1
    const d = await denomOf(q.view, req.hash);
    if (!d) throw notFound(`denomination trace for hash ${req.hash} not found`);
    const w = new BinaryWriter();
    DenomTrace.encode(legacyTrace(d), w.uint32(10).fork()).ldelim();
    return w.finish();
  }),
  route('/ibc.applications.transfer.v1.Query/DenomTraces', async (q, data) => {
    const req = decodeReq(QueryDenomsRequest, data); // same shape: pagination = 1
    const entries = (await under(q.view, 'transfer/denoms/')).map(([k, v]): [string, Denom] => [k, JSON.parse(text.decode(v)) as Denom]);
    const { items, pagination } = paginate(entries, req.pagination);
    const w = new BinaryWriter();
    for (const d of items) DenomTrace.encode(legacyTrace(d), w.uint32(10).fork()).ldelim();
    w.uint32(18).fork();
    if (pagination.nextKey.length > 0) w.uint32(10).bytes(pagination.nextKey);
    if (pagination.total > 0n) w.uint32(16).uint64(pagination.total);
    w.ldelim();
    return w.finish();
  }),
]);

/** Every channel end with its port and channel ids, keyed relative to `channelEnds/` (store order). */
async function identifiedChannels(view: IbcStoreView): Promise<[string, IdentifiedChannel][]> {
  return (await under(view, 'channelEnds/')).map(([k, v]) => {
    const parts = k.split('/'); // ports/<port>/channels/<channel>
    return [k, { ...Channel.decode(v), portId: parts[1]!, channelId: parts[3]! }];
  });
}

function legacyTrace(d: Denom): DenomTrace {
  return { path: d.trace.map((h) => `${h.portId}/${h.channelId}`).join('/'), baseDenom: d.base };
}
