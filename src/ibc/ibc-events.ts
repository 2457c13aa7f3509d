/** The IBC events ibc-go emits (handshakes, packets, ICS-20), and reading a packet back from one. */
import type { Channel, Packet } from 'cosmjs-types/ibc/core/channel/v1/channel';
import type { ConnectionEnd } from 'cosmjs-types/ibc/core/connection/v1/connection';
import type { AbciEvent } from '../abci/types.js';
import { ev } from './bank.js';
import type { decodePacketData } from './keys.js';

/** A connection handshake event: ibc-go's four attributes, read from the stored end. */
export function connectionEvent(type: string, connectionId: string, end: ConnectionEnd): AbciEvent {
  return ev(
    type,
    ['connection_id', connectionId],
    ['client_id', end.clientId],
    ['counterparty_client_id', end.counterparty.clientId],
    ['counterparty_connection_id', end.counterparty.connectionId],
  );
}

/** A channel handshake event: ibc-go's five attributes, read from the stored end, then any extra ones. */
export function channelEvent(type: string, portId: string, channelId: string, end: Channel, ...extra: [string, string][]): AbciEvent {
  return ev(
    type,
    ['port_id', portId],
    ['channel_id', channelId],
    ['counterparty_port_id', end.counterparty.portId],
    ['counterparty_channel_id', end.counterparty.channelId],
    ['connection_id', end.connectionHops[0]!],
    ...extra,
  );
}

/** ICS-20's `fungible_token_packet` attributes for a packet's data (empty when it did not decode), then the outcome ones. */
export function tokenPacketEvent(data: ReturnType<typeof decodePacketData>, ...outcome: [string, string][]): AbciEvent {
  return ev(
    'fungible_token_packet',
    ['sender', data?.sender ?? ''],
    ['receiver', data?.receiver ?? ''],
    ['denom', data?.denom ?? ''],
    ['amount', data?.amount ?? ''],
    ['memo', data?.memo ?? ''],
    ...outcome,
  );
}

/** An attribute of an event ("" when absent). */
export function attrOf(e: AbciEvent, key: string): string {
  return e.attributes.find((a) => a.key === key)?.value ?? '';
}

/** The packet a `send_packet` or `recv_packet` event carries (`packetAttrs` with the data), as relayers and indexers read it back. */
export function packetOfEvent(e: AbciEvent): Packet {
  const [revisionNumber, revisionHeight] = attrOf(e, 'packet_timeout_height').split('-');
  return {
    sequence: BigInt(attrOf(e, 'packet_sequence')),
    sourcePort: attrOf(e, 'packet_src_port'),
    sourceChannel: attrOf(e, 'packet_src_channel'),
    destinationPort: attrOf(e, 'packet_dst_port'),
    destinationChannel: attrOf(e, 'packet_dst_channel'),
    data: Uint8Array.from(Buffer.from(attrOf(e, 'packet_data_hex'), 'hex')),
    timeoutHeight: { revisionNumber: BigInt(revisionNumber ?? '0'), revisionHeight: BigInt(revisionHeight ?? '0') },
    timeoutTimestamp: BigInt(attrOf(e, 'packet_timeout_timestamp') || '0'),
  };
}

export function packetAttrs(p: Packet, connectionId: string, data?: boolean): [string, string][] {
  const out: [string, string][] = [];
  // packet_data (the bytes as text) as ibc-go v8 still emitted it beside packet_data_hex: relayers of that era read it.
  if (data) out.push(['packet_data', Buffer.from(p.data).toString('utf8')], ['packet_data_hex', Buffer.from(p.data).toString('hex')]);
  out.push(
    ['packet_timeout_height', `${p.timeoutHeight.revisionNumber}-${p.timeoutHeight.revisionHeight}`],
    ['packet_timeout_timestamp', p.timeoutTimestamp.toString()],
    ['packet_sequence', p.sequence.toString()],
    ['packet_src_port', p.sourcePort],
    ['packet_src_channel', p.sourceChannel],
    ['packet_dst_port', p.destinationPort],
    ['packet_dst_channel', p.destinationChannel],
    ['packet_channel_ordering', 'ORDER_UNORDERED'],
    ['packet_connection', connectionId],
    ['connection_id', connectionId],
  );
  return out;
}

/** ibc-go's ConvertToErrorEvents: the event of a callback whose acknowledgement is an error. */
const CALLBACK_ERROR_PREFIX = 'ibccallbackerror-';
export function asCallbackErrorEvent(e: AbciEvent): AbciEvent {
  return { type: CALLBACK_ERROR_PREFIX + e.type, attributes: e.attributes.map((a) => ({ ...a, key: CALLBACK_ERROR_PREFIX + a.key })) };
}
