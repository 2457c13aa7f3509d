import { Any } from 'cosmjs-types/google/protobuf/any';
import { Channel, Order, State } from 'cosmjs-types/ibc/core/channel/v1/channel';
import { ConnectionEnd, State as ConnState } from 'cosmjs-types/ibc/core/connection/v1/connection';
import { ClientState as TmClientState } from 'cosmjs-types/ibc/lightclients/tendermint/v1/tendermint';
import { describe, expect, it } from 'vitest';
import type { AbciEvent } from '../../abci/types.js';
import { IbcStore } from '../../ibc/ibc-store.js';
import { hostKeys, TRANSFER_PORT } from '../../ibc/keys.js';
import { findOpenPath, inFlightPackets, type TxEventSearch } from './resume.js';

/** A store with an OPEN transfer channel `channel` on `connection-0`, whose client tracks `counterparty`. */
function chainStore(channel: string, counterpartyChannel: string, counterparty: string, state = State.STATE_OPEN): IbcStore {
  const s = new IbcStore();
  const cs = TmClientState.fromPartial({ chainId: counterparty });
  s.set(
    hostKeys.clientState('07-tendermint-0'),
    Any.encode({ typeUrl: '/ibc.lightclients.tendermint.v1.ClientState', value: TmClientState.encode(cs).finish() }).finish(),
  );
  s.set(
    hostKeys.connection('connection-0'),
    ConnectionEnd.encode(ConnectionEnd.fromPartial({ clientId: '07-tendermint-0', state: ConnState.STATE_OPEN })).finish(),
  );
  s.set(
    hostKeys.channel(TRANSFER_PORT, channel),
    Channel.encode(
      Channel.fromPartial({
        state,
        ordering: Order.ORDER_UNORDERED,
        counterparty: { portId: TRANSFER_PORT, channelId: counterpartyChannel },
        connectionHops: ['connection-0'],
      }),
    ).finish(),
  );
  return s;
}

const attrs = (type: string, kv: Record<string, string>): AbciEvent => ({
  type,
  attributes: Object.entries(kv).map(([key, value]) => ({ key, value, index: true })),
});
const packetAttrs = (seq: number) => ({
  packet_data_hex: Buffer.from(`{"amount":"${seq}"}`).toString('hex'),
  packet_timeout_height: '0-0',
  packet_timeout_timestamp: '999',
  packet_sequence: String(seq),
  packet_src_port: TRANSFER_PORT,
  packet_src_channel: 'channel-0',
  packet_dst_port: TRANSFER_PORT,
  packet_dst_channel: 'channel-3',
});

/** A tx index holding these events (one tx each), matched on the query's type, channel and sequence. */
function index(events: AbciEvent[]): TxEventSearch & { queries: string[] } {
  const queries: string[] = [];
  const search = async (q: string) => {
    queries.push(q);
    const [type] = q.split('.');
    const seq = /packet_sequence = '(\d+)'/.exec(q)![1];
    return events.filter((e) => e.type === type && e.attributes.some((a) => a.key === 'packet_sequence' && a.value === seq)).map((e) => [e]);
  };
  return Object.assign(search, { queries });
}

describe('a relayer restarted on persisted chains', () => {
  it('finds the open channel whose ends name each other, each client tracking the other chain', () => {
    const a = chainStore('channel-0', 'channel-3', 'chain-b');
    const b = chainStore('channel-3', 'channel-0', 'chain-a');
    expect(findOpenPath(a, 'chain-a', b, 'chain-b')).toEqual({
      a: { clientId: '07-tendermint-0', connectionId: 'connection-0', channelId: 'channel-0' },
      b: { clientId: '07-tendermint-0', connectionId: 'connection-0', channelId: 'channel-3' },
    });
    // A client of another chain, a counterparty that names another channel, or an end not open: no path (a new handshake).
    expect(findOpenPath(a, 'chain-a', b, 'chain-c')).toBeUndefined();
    expect(findOpenPath(a, 'chain-a', chainStore('channel-3', 'channel-9', 'chain-a'), 'chain-b')).toBeUndefined();
    expect(findOpenPath(a, 'chain-a', chainStore('channel-3', 'channel-0', 'chain-a', State.STATE_TRYOPEN), 'chain-b')).toBeUndefined();
    expect(findOpenPath(new IbcStore(), 'chain-a', b, 'chain-b')).toBeUndefined();
  });

  it('takes up every packet the source still commits to, with the ack the destination wrote, and names those it cannot read back', async () => {
    const src = new IbcStore();
    const dst = new IbcStore();
    for (const seq of [1n, 2n, 3n]) src.set(hostKeys.commitment(TRANSFER_PORT, 'channel-0', seq), new Uint8Array([1]));
    // Packet 2 was received and acknowledged on the destination; packet 3's send event is not in the index.
    dst.set(hostKeys.ack(TRANSFER_PORT, 'channel-3', 2n), new Uint8Array([2]));
    const srcIndex = index([attrs('send_packet', packetAttrs(1)), attrs('send_packet', packetAttrs(2))]);
    const dstIndex = index([attrs('write_acknowledgement', { ...packetAttrs(2), packet_ack_hex: Buffer.from('{"result":"AQ=="}').toString('hex') })]);
    const found = await inFlightPackets({ store: src, search: srcIndex, channelId: 'channel-0' }, { store: dst, search: dstIndex, channelId: 'channel-3' });
    expect(found.packets.map((p) => p.packet.sequence)).toEqual([1n, 2n]);
    expect(found.packets[0]!.ack).toBeUndefined();
    expect(found.packets[0]!.packet).toMatchObject({ sourceChannel: 'channel-0', destinationChannel: 'channel-3', timeoutTimestamp: 999n });
    expect(Buffer.from(found.packets[1]!.ack!).toString()).toBe('{"result":"AQ=="}');
    expect(found.missing).toEqual([3n]);
    expect(srcIndex.queries[0]).toBe("send_packet.packet_src_channel = 'channel-0' AND send_packet.packet_sequence = '1'");
    expect(dstIndex.queries).toEqual(["write_acknowledgement.packet_dst_channel = 'channel-3' AND write_acknowledgement.packet_sequence = '2'"]);
  });
});
