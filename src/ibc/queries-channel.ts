/** ibc.core.channel.v1.Query (04-channel: channels and packets) over ABCI Query (queries.ts). */
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
import type { QueryRoute } from '../sdk/query-router.js';
import { decodeSeq, hostKeys } from './keys.js';
import { channelEnd, clientStateAny, connectionEnd, consensusAny, decodeReq, EMPTY, route } from './query-common.js';
import { invalidArgument, notFound, paginate, under, validate, type IbcQuery, type IbcStoreView } from './query-view.js';

/** `…/sequences/7` → 7n. */
const seqOfKey = (k: string) => BigInt(k.slice(k.lastIndexOf('/') + 1));

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

const packetStates = (port: string, channel: string, entries: [string, Uint8Array][]) =>
  entries.map(([k, v]): [string, { portId: string; channelId: string; sequence: bigint; data: Uint8Array }] => [
    k,
    { portId: port, channelId: channel, sequence: seqOfKey(k), data: v },
  ]);

/** Every channel end with its port and channel ids, keyed relative to `channelEnds/` (store order). */
async function identifiedChannels(view: IbcStoreView): Promise<[string, IdentifiedChannel][]> {
  return (await under(view, 'channelEnds/')).map(([k, v]) => {
    const parts = k.split('/'); // ports/<port>/channels/<channel>
    return [k, { ...Channel.decode(v), portId: parts[1]!, channelId: parts[3]! }];
  });
}

export const CHANNEL_QUERY_ROUTES: readonly QueryRoute[] = [
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
];
