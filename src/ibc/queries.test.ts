/**
 * ibc-go's gRPC queries as ibc-go v10 answers them: `proof_height` is the chain's own height with the
 * chain id's revision, listings page as `query.Paginate`, a query at a past height reads that
 * height's store (and is refused where the app keeps none), and the NotFound / InvalidArgument texts.
 */
import { PageRequest } from 'cosmjs-types/cosmos/base/query/v1beta1/pagination';
import { QueryDenomsResponse } from 'cosmjs-types/ibc/applications/transfer/v1/query';
import { Any } from 'cosmjs-types/google/protobuf/any';
import { Channel, Order, State } from 'cosmjs-types/ibc/core/channel/v1/channel';
import {
  QueryChannelClientStateRequest,
  QueryChannelClientStateResponse,
  QueryChannelRequest,
  QueryChannelResponse,
  QueryConnectionChannelsRequest,
  QueryConnectionChannelsResponse,
  QueryPacketCommitmentsRequest,
  QueryPacketCommitmentsResponse,
  QueryUnreceivedAcksRequest,
  QueryUnreceivedAcksResponse,
  QueryUnreceivedPacketsRequest,
  QueryUnreceivedPacketsResponse,
} from 'cosmjs-types/ibc/core/channel/v1/query';
import {
  QueryClientStatesResponse,
  QueryClientStatusRequest,
  QueryClientStatusResponse,
  QueryConsensusStateHeightsRequest,
  QueryConsensusStateHeightsResponse,
  QueryConsensusStateRequest,
  QueryConsensusStateResponse,
} from 'cosmjs-types/ibc/core/client/v1/query';
import { ConnectionEnd, Params as ConnectionParams, State as ConnState } from 'cosmjs-types/ibc/core/connection/v1/connection';
import { QueryConnectionRequest } from 'cosmjs-types/ibc/core/connection/v1/query';
import { ClientState as TmClientState, ConsensusState as TmConsensusState } from 'cosmjs-types/ibc/lightclients/tendermint/v1/tendermint';
import { describe, expect, it } from 'vitest';
import type { ResponseQuery } from '../abci/types.js';
import { HeightNotAvailableError } from '../sdk/errors.js';
import { buildRouteTable, routeQuery, type QueryState } from '../sdk/query-router.js';
import { IbcStore } from './ibc-store.js';
import { hostKeys } from './keys.js';
import { IBC_QUERY_ROUTES } from './queries.js';
import type { IbcQueryContext, VersionedTree } from './query-view.js';

const table = buildRouteTable(IBC_QUERY_ROUTES);
const SEC = 1_000_000_000n;
const NOW_NS = 1_000_000n * SEC;

function clientState(frozen = false): Uint8Array {
  const cs = TmClientState.fromPartial({
    chainId: 'other-3',
    trustingPeriod: { seconds: 100n, nanos: 0 },
    latestHeight: { revisionNumber: 3n, revisionHeight: 50n },
    frozenHeight: frozen ? { revisionNumber: 0n, revisionHeight: 1n } : { revisionNumber: 0n, revisionHeight: 0n },
  });
  return Any.encode({ typeUrl: '/ibc.lightclients.tendermint.v1.ClientState', value: TmClientState.encode(cs).finish() }).finish();
}

function consensusState(timeNs: bigint): Uint8Array {
  const c = TmConsensusState.fromPartial({ timestamp: { seconds: timeNs / SEC, nanos: 0 }, root: { hash: new Uint8Array(32) } });
  return Any.encode({ typeUrl: '/ibc.lightclients.tendermint.v1.ConsensusState', value: TmConsensusState.encode(c).finish() }).finish();
}

/** One client (two consensus states), a connection, two channels on it, packets 1, 2 and 10 sent on channel-0. */
function store(): IbcStore {
  const s = new IbcStore();
  s.set(hostKeys.clientState('07-tendermint-0'), clientState());
  s.set(hostKeys.consensusState('07-tendermint-0', 3n, 40n), consensusState(NOW_NS - 50n * SEC));
  s.set(hostKeys.consensusState('07-tendermint-0', 3n, 50n), consensusState(NOW_NS - 10n * SEC));
  s.set(hostKeys.clientState('07-tendermint-1'), clientState(true));
  s.set(
    hostKeys.connection('connection-0'),
    ConnectionEnd.encode(
      ConnectionEnd.fromPartial({ clientId: '07-tendermint-0', state: ConnState.STATE_OPEN, counterparty: { clientId: '07-tendermint-9' } }),
    ).finish(),
  );
  for (const ch of ['channel-0', 'channel-1'])
    s.set(
      hostKeys.channel('transfer', ch),
      Channel.encode(
        Channel.fromPartial({
          state: State.STATE_OPEN,
          ordering: Order.ORDER_UNORDERED,
          connectionHops: ['connection-0'],
          counterparty: { portId: 'transfer', channelId: 'channel-5' },
          version: 'ics20-1',
        }),
      ).finish(),
    );
  for (const seq of [1n, 2n, 10n]) s.set(hostKeys.commitment('transfer', 'channel-0', seq), new Uint8Array(32).fill(Number(seq)));
  s.set(hostKeys.receipt('transfer', 'channel-0', 2n), new Uint8Array([1]));
  return s;
}

function ctx(committed: IbcStore, latest = 7, ibcTree?: VersionedTree) {
  const c: IbcQueryContext = {
    latestHeight: () => latest,
    // As the hub: accounts at the latest height only (the IBC routes open none).
    stateAt: async (h) => {
      if (h !== latest) throw new HeightNotAvailableError(h, latest);
      return {} as QueryState;
    },
    denom: 'uhub',
    bech32Prefix: 'hub',
    cosmos: {
      ibc: () => committed,
      env: () => ({ chainId: 'chainlethub-1', ibc: { timeNs: NOW_NS } }),
      ...(ibcTree ? { ibcTree: () => ibcTree } : {}),
    },
  };
  return c;
}

async function ask<T>(c: IbcQueryContext, path: string, data: Uint8Array, decode: { decode(b: Uint8Array): T }, height = 0): Promise<T> {
  const r = await routeQuery(c, table, { path, data, height, prove: false });
  if (r.code !== 0) throw new Error(`${r.code} ${r.log}`);
  return decode.decode(r.value!);
}

const fail = (c: IbcQueryContext, path: string, data: Uint8Array, height = 0): Promise<ResponseQuery> =>
  routeQuery(c, table, { path, data, height, prove: false });

describe('IBC queries', () => {
  it('answer proof_height as the chain’s own height (revision from the chain id) and an empty proof, as ibc-go', async () => {
    const r = await ask(
      ctx(store()),
      '/ibc.core.channel.v1.Query/Channel',
      QueryChannelRequest.encode({ portId: 'transfer', channelId: 'channel-0' }).finish(),
      QueryChannelResponse,
    );
    expect(r.proofHeight).toEqual({ revisionNumber: 1n, revisionHeight: 7n });
    expect(r.proof).toHaveLength(0);
    expect(r.channel?.connectionHops).toEqual(['connection-0']);
  });

  it('page packet commitments as query.Paginate: store order, limit, next_key, count_total and reverse', async () => {
    const c = ctx(store());
    const path = '/ibc.core.channel.v1.Query/PacketCommitments';
    const page = (p: Partial<PageRequest>) =>
      ask(
        c,
        path,
        QueryPacketCommitmentsRequest.encode({ portId: 'transfer', channelId: 'channel-0', pagination: PageRequest.fromPartial(p) }).finish(),
        QueryPacketCommitmentsResponse,
      );
    const all = await page({});
    // Key order of the store: sequences/1 < sequences/10 < sequences/2; limit 0 = 100 with a total.
    expect(all.commitments.map((x) => x.sequence)).toEqual([1n, 10n, 2n]);
    expect(all.pagination).toEqual({ nextKey: new Uint8Array(0), total: 3n });
    expect(all.height).toEqual({ revisionNumber: 1n, revisionHeight: 7n });
    const first = await page({ limit: 2n });
    expect(first.commitments.map((x) => x.sequence)).toEqual([1n, 10n]);
    expect(new TextDecoder().decode(first.pagination!.nextKey)).toBe('2');
    expect(first.pagination!.total).toBe(0n);
    const second = await page({ key: first.pagination!.nextKey, limit: 2n });
    expect(second.commitments.map((x) => x.sequence)).toEqual([2n]);
    expect(second.pagination!.nextKey).toHaveLength(0);
    expect((await page({ offset: 1n, limit: 1n, countTotal: true })).pagination!.total).toBe(3n);
    expect((await page({ reverse: true })).commitments.map((x) => x.sequence)).toEqual([2n, 10n, 1n]);
    const both = await fail(
      c,
      path,
      QueryPacketCommitmentsRequest.encode({
        portId: 'transfer',
        channelId: 'channel-0',
        pagination: PageRequest.fromPartial({ key: first.pagination!.nextKey, offset: 1n }),
      }).finish(),
    );
    expect(both).toMatchObject({
      code: 18,
      log: 'rpc error: code = InvalidArgument desc = invalid request, either offset or key is expected, got both: invalid request',
    });
  });

  it('answer unreceived packets (no receipt) and unreceived acks (commitment still here); sequence 0 is refused', async () => {
    const c = ctx(store());
    const unreceived = await ask(
      c,
      '/ibc.core.channel.v1.Query/UnreceivedPackets',
      QueryUnreceivedPacketsRequest.encode({ portId: 'transfer', channelId: 'channel-0', packetCommitmentSequences: [1n, 2n, 3n] }).finish(),
      QueryUnreceivedPacketsResponse,
    );
    expect(unreceived.sequences).toEqual([1n, 3n]);
    const acks = await ask(
      c,
      '/ibc.core.channel.v1.Query/UnreceivedAcks',
      QueryUnreceivedAcksRequest.encode({ portId: 'transfer', channelId: 'channel-0', packetAckSequences: [1n, 3n, 10n] }).finish(),
      QueryUnreceivedAcksResponse,
    );
    expect(acks.sequences).toEqual([1n, 10n]);
    const zero = await fail(
      c,
      '/ibc.core.channel.v1.Query/UnreceivedPackets',
      QueryUnreceivedPacketsRequest.encode({ portId: 'transfer', channelId: 'channel-0', packetCommitmentSequences: [4n, 0n] }).finish(),
    );
    expect(zero).toMatchObject({ code: 18, log: 'rpc error: code = InvalidArgument desc = packet sequence 1 cannot be 0: invalid request' });
  });

  it('answer the client, connection and channel views relayers ask (ConsensusStateHeights, ClientStatus, ConnectionChannels, ChannelClientState)', async () => {
    const c = ctx(store());
    const heights = await ask(
      c,
      '/ibc.core.client.v1.Query/ConsensusStateHeights',
      QueryConsensusStateHeightsRequest.encode({ clientId: '07-tendermint-0' }).finish(),
      QueryConsensusStateHeightsResponse,
    );
    expect(heights.consensusStateHeights).toEqual([
      { revisionNumber: 3n, revisionHeight: 40n },
      { revisionNumber: 3n, revisionHeight: 50n },
    ]);
    const latest = await ask(
      c,
      '/ibc.core.client.v1.Query/ConsensusState',
      QueryConsensusStateRequest.encode({ clientId: '07-tendermint-0', revisionNumber: 0n, revisionHeight: 0n, latestHeight: true }).finish(),
      QueryConsensusStateResponse,
    );
    expect(TmConsensusState.decode(latest.consensusState!.value).timestamp?.seconds).toBe((NOW_NS - 10n * SEC) / SEC);
    const status = (id: string) =>
      ask(c, '/ibc.core.client.v1.Query/ClientStatus', QueryClientStatusRequest.encode({ clientId: id }).finish(), QueryClientStatusResponse);
    expect((await status('07-tendermint-0')).status).toBe('Active');
    expect((await status('07-tendermint-1')).status).toBe('Frozen');
    expect((await status('07-tendermint-7')).status).toBe('Unknown');
    const chans = await ask(
      c,
      '/ibc.core.channel.v1.Query/ConnectionChannels',
      QueryConnectionChannelsRequest.encode({ connection: 'connection-0' }).finish(),
      QueryConnectionChannelsResponse,
    );
    expect(chans.channels.map((x) => [x.portId, x.channelId])).toEqual([
      ['transfer', 'channel-0'],
      ['transfer', 'channel-1'],
    ]);
    const cs = await ask(
      c,
      '/ibc.core.channel.v1.Query/ChannelClientState',
      QueryChannelClientStateRequest.encode({ portId: 'transfer', channelId: 'channel-1' }).finish(),
      QueryChannelClientStateResponse,
    );
    expect(cs.identifiedClientState?.clientId).toBe('07-tendermint-0');
  });

  it('refuse with ibc-go’s NotFound and InvalidArgument texts', async () => {
    const c = ctx(store());
    expect(
      await fail(c, '/ibc.core.channel.v1.Query/Channel', QueryChannelRequest.encode({ portId: 'transfer', channelId: 'channel-9' }).finish()),
    ).toMatchObject({
      code: 22,
      codespace: 'sdk',
      log: 'rpc error: code = NotFound desc = port-id: transfer, channel-id channel-9: channel not found: key not found',
    });
    expect(await fail(c, '/ibc.core.connection.v1.Query/Connection', QueryConnectionRequest.encode({ connectionId: 'connection-4' }).finish())).toMatchObject({
      code: 22,
      log: 'rpc error: code = NotFound desc = connection-4: connection not found: key not found',
    });
    expect(await fail(c, '/ibc.core.channel.v1.Query/Channel', QueryChannelRequest.encode({ portId: 'transfer', channelId: 'ch/0' }).finish())).toMatchObject({
      code: 18,
      log: "rpc error: code = InvalidArgument desc = identifier ch/0 cannot contain separator '/': invalid identifier: invalid request",
    });
  });

  it('answer a past height from the store of that height, and refuse one the app does not keep', async () => {
    const now = store();
    // Height 5: one client, one denom, and a key just past `transfer/denoms/` (a range read stops before it).
    const before = new IbcStore();
    before.set(hostKeys.clientState('07-tendermint-0'), clientState());
    before.set(hostKeys.denom('AB'), JSON.stringify({ base: 'uatom', trace: [{ portId: 'transfer', channelId: 'channel-0' }] }));
    before.set('transfer/denoms0', new Uint8Array([1])); // not JSON: read, it would fail the listing
    const versions = new Map<number, IbcStore>([
      [5, before],
      [7, now],
    ]);
    const utf8 = new TextDecoder();
    const tree: VersionedTree = {
      hasVersion: (v) => versions.has(v),
      getAt: async (k, v) => versions.get(v)!.get(utf8.decode(k)),
      // A tree's range read: start ≤ key < end over every key.
      entriesAt: async (v, start, end) =>
        versions
          .get(v)!
          .entries('')
          .filter(([k]) => (!start || k >= utf8.decode(start)) && (!end || k < utf8.decode(end)))
          .map(([k, x]) => [new TextEncoder().encode(k), x]),
    };
    const c = ctx(now, 7, tree);
    const req = QueryChannelRequest.encode({ portId: 'transfer', channelId: 'channel-0' }).finish();
    expect((await ask(c, '/ibc.core.channel.v1.Query/Channel', req, QueryChannelResponse, 7)).proofHeight?.revisionHeight).toBe(7n);
    expect(await fail(c, '/ibc.core.channel.v1.Query/Channel', req, 5)).toMatchObject({ code: 22 });
    const clients = await ask(c, '/ibc.core.client.v1.Query/ClientStates', new Uint8Array(0), QueryClientStatesResponse, 5);
    expect(clients.clientStates.map((x) => x.clientId)).toEqual(['07-tendermint-0']);
    expect((await ask(c, '/ibc.core.client.v1.Query/ClientStates', new Uint8Array(0), QueryClientStatesResponse, 7)).clientStates).toHaveLength(2);
    expect((await ask(c, '/ibc.applications.transfer.v1.Query/Denoms', new Uint8Array(0), QueryDenomsResponse, 5)).denoms).toEqual([
      { base: 'uatom', trace: [{ portId: 'transfer', channelId: 'channel-0' }] },
    ]);
    expect(await fail(c, '/ibc.core.channel.v1.Query/Channel', req, 6)).toMatchObject({
      code: 26,
      log: 'state at height 6 is not available (latest 7): invalid height',
    });
    // Without a versioned store only the latest height is served (never another height's answer).
    expect(await fail(ctx(now, 7), '/ibc.core.channel.v1.Query/Channel', req, 5)).toMatchObject({ code: 26 });
  });

  it('encode ConnectionParams as 03-connection’s Params (max_expected_time_per_block, 30 s)', async () => {
    const r = await routeQuery(ctx(store()), table, {
      path: '/ibc.core.connection.v1.Query/ConnectionParams',
      data: new Uint8Array(0),
      height: 0,
      prove: false,
    });
    // field 1 (params), a 6-byte message: 03-connection's Params.
    expect([...r.value!.subarray(0, 2)]).toEqual([0x0a, 6]);
    expect(ConnectionParams.decode(r.value!.subarray(2))).toEqual({ maxExpectedTimePerBlock: 30_000_000_000n });
  });
});
