/**
 * ibc-go's gRPC queries over ABCI Query, answered from the committed IBC store (latest height):
 *
 *   ibc.core.client.v1.Query          ClientState, ClientStates, ConsensusState
 *   ibc.core.connection.v1.Query      Connection, Connections
 *   ibc.core.channel.v1.Query         Channel, Channels, PacketCommitment(s), PacketReceipt,
 *                                     PacketAcknowledgement(s), UnreceivedPackets, UnreceivedAcks,
 *                                     NextSequenceReceive, NextSequenceSend
 *   ibc.applications.transfer.v1.Query  Denom, Denoms, DenomHash, EscrowAddress, TotalEscrowForDenom,
 *                                     and the pre-v10 DenomTrace / DenomTraces
 *
 * Proofs are empty (the store makes none: docs/network.md); proof heights are the latest height.
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
  QueryDenomsResponse,
  QueryEscrowAddressRequest,
  QueryEscrowAddressResponse,
  QueryTotalEscrowForDenomRequest,
  QueryTotalEscrowForDenomResponse,
} from 'cosmjs-types/ibc/applications/transfer/v1/query';
import { Channel } from 'cosmjs-types/ibc/core/channel/v1/channel';
import {
  QueryChannelRequest,
  QueryChannelResponse,
  QueryChannelsResponse,
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
import {
  QueryClientStateRequest,
  QueryClientStateResponse,
  QueryClientStatesResponse,
  QueryConsensusStateRequest,
  QueryConsensusStateResponse,
} from 'cosmjs-types/ibc/core/client/v1/query';
import { ConnectionEnd } from 'cosmjs-types/ibc/core/connection/v1/connection';
import { QueryConnectionRequest, QueryConnectionResponse, QueryConnectionsResponse } from 'cosmjs-types/ibc/core/connection/v1/query';
import type { Height } from 'cosmjs-types/ibc/core/client/v1/client';
import { QueryError, type Codespace } from '../sdk/errors.js';
import type { QueryContext, QueryRoute } from '../sdk/query-router.js';
import { toBech32 } from '../crypto/bech32.js';
import type { IbcStore } from './ibc-store.js';
import { denomHashHex, denomPath, escrowAddress, hostKeys, parseDenomPath, type Denom } from './keys.js';

exactSizeBuffers();

const SDK = 'sdk' as Codespace;
const notFound = (desc: string) => new QueryError(22, SDK, `rpc error: code = NotFound desc = ${desc}: key not found`);
const invalidArgument = (desc: string) => new QueryError(18, SDK, `rpc error: code = InvalidArgument desc = ${desc}: invalid request`);
const EMPTY = new Uint8Array(0);
const text = new TextDecoder();

/** The app's part these routes read (the EVM app and the hub give it in their query context). */
type IbcQueryContext = QueryContext & { cosmos?: { ibc?: () => IbcStore } };

function storeOf(ctx: IbcQueryContext): IbcStore {
  const s = ctx.cosmos?.ibc?.();
  if (!s) throw new QueryError(6, SDK, 'the IBC queries are not served by this app: unknown request');
  return s;
}

function decodeReq<T>(codec: { decode(b: Uint8Array): T }, data: Uint8Array): T {
  try {
    return codec.decode(data);
  } catch (e) {
    throw invalidArgument(`invalid request: ${(e as Error).message}`);
  }
}

const heightOf = (ctx: QueryContext): Height => ({ revisionNumber: 0n, revisionHeight: BigInt(ctx.latestHeight()) });
const all = (n: number) => ({ nextKey: EMPTY, total: BigInt(n) });

const route = (path: string, handle: (ctx: QueryContext, store: IbcStore, data: Uint8Array) => Uint8Array): QueryRoute => ({
  path,
  async handle(ctx, _state, _args, req) {
    return handle(ctx, storeOf(ctx), req.data);
  },
});

/** `commitments/ports/transfer/channels/channel-0/sequences/7` → 7n. */
const seqOfKey = (k: string) => BigInt(k.slice(k.lastIndexOf('/') + 1));

function denomJson(store: IbcStore, hash: string): Denom | undefined {
  return store.getJson<Denom>(hostKeys.denom(hash.replace(/^ibc\//i, '').toUpperCase()));
}

export const IBC_QUERY_ROUTES: readonly QueryRoute[] = Object.freeze([
  // ── 02-client ──
  route('/ibc.core.client.v1.Query/ClientState', (ctx, s, data) => {
    const req = decodeReq(QueryClientStateRequest, data);
    const raw = s.get(hostKeys.clientState(req.clientId));
    if (!raw) throw notFound(`client ${req.clientId} not found`);
    return QueryClientStateResponse.encode({ clientState: Any.decode(raw), proof: EMPTY, proofHeight: heightOf(ctx) }).finish();
  }),
  route('/ibc.core.client.v1.Query/ClientStates', (_ctx, s) => {
    const states = s
      .entries('clients/')
      .filter(([k]) => k.endsWith('/clientState'))
      .map(([k, v]) => ({ clientId: k.split('/')[1]!, clientState: Any.decode(v) }));
    return QueryClientStatesResponse.encode({ clientStates: states, pagination: all(states.length) }).finish();
  }),
  route('/ibc.core.client.v1.Query/ConsensusState', (ctx, s, data) => {
    const req = decodeReq(QueryConsensusStateRequest, data);
    let key = hostKeys.consensusState(req.clientId, req.revisionNumber, req.revisionHeight);
    if (req.latestHeight) {
      const heights = s.entries(`clients/${req.clientId}/consensusStates/`).map(([k]) => k);
      const h = (k: string) => BigInt(k.slice(k.lastIndexOf('-') + 1));
      key = heights.sort((a, b) => (h(a) < h(b) ? -1 : 1)).at(-1) ?? key;
    }
    const raw = s.get(key);
    if (!raw) throw notFound(`consensus state for client ${req.clientId} not found`);
    return QueryConsensusStateResponse.encode({ consensusState: Any.decode(raw), proof: EMPTY, proofHeight: heightOf(ctx) }).finish();
  }),

  // ── 03-connection ──
  route('/ibc.core.connection.v1.Query/Connection', (ctx, s, data) => {
    const req = decodeReq(QueryConnectionRequest, data);
    const raw = s.get(hostKeys.connection(req.connectionId));
    if (!raw) throw notFound(`connection ${req.connectionId} not found`);
    return QueryConnectionResponse.encode({ connection: ConnectionEnd.decode(raw), proof: EMPTY, proofHeight: heightOf(ctx) }).finish();
  }),
  route('/ibc.core.connection.v1.Query/Connections', (ctx, s) => {
    const conns = s.entries('connections/').map(([k, v]) => ({ id: k.slice('connections/'.length), ...ConnectionEnd.decode(v) }));
    return QueryConnectionsResponse.encode({ connections: conns, pagination: all(conns.length), height: heightOf(ctx) }).finish();
  }),

  // ── 04-channel ──
  route('/ibc.core.channel.v1.Query/Channel', (ctx, s, data) => {
    const req = decodeReq(QueryChannelRequest, data);
    const raw = s.get(hostKeys.channel(req.portId, req.channelId));
    if (!raw) throw notFound(`channel ${req.portId}/${req.channelId} not found`);
    return QueryChannelResponse.encode({ channel: Channel.decode(raw), proof: EMPTY, proofHeight: heightOf(ctx) }).finish();
  }),
  route('/ibc.core.channel.v1.Query/Channels', (ctx, s) => {
    const channels = s.entries('channelEnds/').map(([k, v]) => {
      const parts = k.split('/');
      return { ...Channel.decode(v), portId: parts[2]!, channelId: parts[4]! };
    });
    return QueryChannelsResponse.encode({ channels, pagination: all(channels.length), height: heightOf(ctx) }).finish();
  }),
  route('/ibc.core.channel.v1.Query/PacketCommitment', (ctx, s, data) => {
    const req = decodeReq(QueryPacketCommitmentRequest, data);
    const c = s.get(hostKeys.commitment(req.portId, req.channelId, req.sequence));
    if (!c) throw notFound('packet commitment hash not found');
    return QueryPacketCommitmentResponse.encode({ commitment: c, proof: EMPTY, proofHeight: heightOf(ctx) }).finish();
  }),
  route('/ibc.core.channel.v1.Query/PacketCommitments', (ctx, s, data) => {
    const req = decodeReq(QueryPacketCommitmentsRequest, data);
    const items = s
      .entries(hostKeys.commitmentPrefix(req.portId, req.channelId))
      .map(([k, v]) => ({ portId: req.portId, channelId: req.channelId, sequence: seqOfKey(k), data: v }));
    items.sort((a, b) => (a.sequence < b.sequence ? -1 : 1));
    return QueryPacketCommitmentsResponse.encode({ commitments: items, pagination: all(items.length), height: heightOf(ctx) }).finish();
  }),
  route('/ibc.core.channel.v1.Query/PacketReceipt', (ctx, s, data) => {
    const req = decodeReq(QueryPacketReceiptRequest, data);
    return QueryPacketReceiptResponse.encode({
      received: s.has(hostKeys.receipt(req.portId, req.channelId, req.sequence)),
      proof: EMPTY,
      proofHeight: heightOf(ctx),
    }).finish();
  }),
  route('/ibc.core.channel.v1.Query/PacketAcknowledgement', (ctx, s, data) => {
    const req = decodeReq(QueryPacketAcknowledgementRequest, data);
    const a = s.get(hostKeys.ack(req.portId, req.channelId, req.sequence));
    if (!a) throw notFound('packet acknowledgement hash not found');
    return QueryPacketAcknowledgementResponse.encode({ acknowledgement: a, proof: EMPTY, proofHeight: heightOf(ctx) }).finish();
  }),
  route('/ibc.core.channel.v1.Query/PacketAcknowledgements', (ctx, s, data) => {
    const req = decodeReq(QueryPacketAcknowledgementsRequest, data);
    const only = new Set(req.packetCommitmentSequences.map(String));
    const items = s
      .entries(hostKeys.ackPrefix(req.portId, req.channelId))
      .map(([k, v]) => ({ portId: req.portId, channelId: req.channelId, sequence: seqOfKey(k), data: v }))
      .filter((a) => only.size === 0 || only.has(a.sequence.toString()))
      .sort((a, b) => (a.sequence < b.sequence ? -1 : 1));
    return QueryPacketAcknowledgementsResponse.encode({ acknowledgements: items, pagination: all(items.length), height: heightOf(ctx) }).finish();
  }),
  route('/ibc.core.channel.v1.Query/UnreceivedPackets', (ctx, s, data) => {
    const req = decodeReq(QueryUnreceivedPacketsRequest, data);
    const sequences = req.packetCommitmentSequences.filter((q) => !s.has(hostKeys.receipt(req.portId, req.channelId, q)));
    return QueryUnreceivedPacketsResponse.encode({ sequences, height: heightOf(ctx) }).finish();
  }),
  route('/ibc.core.channel.v1.Query/UnreceivedAcks', (ctx, s, data) => {
    const req = decodeReq(QueryUnreceivedAcksRequest, data);
    const sequences = req.packetAckSequences.filter((q) => s.has(hostKeys.commitment(req.portId, req.channelId, q)));
    return QueryUnreceivedAcksResponse.encode({ sequences, height: heightOf(ctx) }).finish();
  }),
  route('/ibc.core.channel.v1.Query/NextSequenceReceive', (ctx, s, data) => {
    const req = decodeReq(QueryNextSequenceReceiveRequest, data);
    const v = s.getText(hostKeys.nextSequenceRecv(req.portId, req.channelId));
    if (v === undefined) throw notFound(`channel ${req.portId}/${req.channelId} not found`);
    return QueryNextSequenceReceiveResponse.encode({ nextSequenceReceive: BigInt(v), proof: EMPTY, proofHeight: heightOf(ctx) }).finish();
  }),
  route('/ibc.core.channel.v1.Query/NextSequenceSend', (ctx, s, data) => {
    const req = decodeReq(QueryNextSequenceSendRequest, data);
    const v = s.getText(hostKeys.nextSequenceSend(req.portId, req.channelId));
    if (v === undefined) throw notFound(`channel ${req.portId}/${req.channelId} not found`);
    return QueryNextSequenceSendResponse.encode({ nextSequenceSend: BigInt(v), proof: EMPTY, proofHeight: heightOf(ctx) }).finish();
  }),

  // ── transfer ──
  route('/ibc.applications.transfer.v1.Query/Denom', (_ctx, s, data) => {
    const req = decodeReq(QueryDenomRequest, data);
    const d = denomJson(s, req.hash);
    if (!d) throw notFound(`denomination for hash ${req.hash} not found`);
    return QueryDenomResponse.encode({ denom: d }).finish();
  }),
  route('/ibc.applications.transfer.v1.Query/Denoms', (_ctx, s) => {
    const denoms = s.entries('transfer/denoms/').map(([, v]) => JSON.parse(text.decode(v)) as Denom);
    return QueryDenomsResponse.encode({ denoms, pagination: all(denoms.length) }).finish();
  }),
  route('/ibc.applications.transfer.v1.Query/DenomHash', (_ctx, s, data) => {
    const req = decodeReq(QueryDenomHashRequest, data);
    const d = parseDenomPath(req.trace);
    if (d.trace.length === 0) throw invalidArgument(`invalid denom trace: ${req.trace}`);
    const hash = denomHashHex(denomPath(d));
    if (!s.has(hostKeys.denom(hash))) throw notFound(`denomination not found for ${req.trace}`);
    return QueryDenomHashResponse.encode({ hash }).finish();
  }),
  route('/ibc.applications.transfer.v1.Query/EscrowAddress', (ctx, _s, data) => {
    const req = decodeReq(QueryEscrowAddressRequest, data);
    return QueryEscrowAddressResponse.encode({ escrowAddress: toBech32(ctx.bech32Prefix, escrowAddress(req.portId, req.channelId)) }).finish();
  }),
  route('/ibc.applications.transfer.v1.Query/TotalEscrowForDenom', (_ctx, s, data) => {
    const req = decodeReq(QueryTotalEscrowForDenomRequest, data);
    return QueryTotalEscrowForDenomResponse.encode({ amount: { denom: req.denom, amount: s.getText(hostKeys.totalEscrow(req.denom)) ?? '0' } }).finish();
  }),
  // ibc-go ≤ v8's DenomTrace queries (older clients still ask): {path, base_denom}.
  route('/ibc.applications.transfer.v1.Query/DenomTrace', (_ctx, s, data) => {
    const req = decodeReq(QueryDenomRequest, data); // same shape: hash = 1
    const d = denomJson(s, req.hash);
    if (!d) throw notFound(`denomination trace for hash ${req.hash} not found`);
    const w = new BinaryWriter();
    DenomTrace.encode(legacyTrace(d), w.uint32(10).fork()).ldelim();
    return w.finish();
  }),
  route('/ibc.applications.transfer.v1.Query/DenomTraces', (_ctx, s) => {
    const w = new BinaryWriter();
    const traces = s.entries('transfer/denoms/').map(([, v]) => JSON.parse(text.decode(v)) as Denom);
    for (const d of traces) DenomTrace.encode(legacyTrace(d), w.uint32(10).fork()).ldelim();
    w.uint32(18).fork().uint32(16).uint64(BigInt(traces.length)).ldelim();
    return w.finish();
  }),
]);

function legacyTrace(d: Denom): DenomTrace {
  return { path: d.trace.map((h) => `${h.portId}/${h.channelId}`).join('/'), baseDenom: d.base };
}
