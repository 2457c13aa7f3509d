/** Connection and channel ends as stored (ICS-24 paths), and the checks a packet's channel must pass. */
import { Channel, Order, State as ChanState, type Packet } from 'cosmjs-types/ibc/core/channel/v1/channel';
import { ConnectionEnd, State as ConnState } from 'cosmjs-types/ibc/core/connection/v1/connection';
import type { Height } from 'cosmjs-types/ibc/core/client/v1/client';
import { CosmosTxError } from '../sdk/errors.js';
import { err, read, write, type IbcExecContext } from './exec-context.js';
import { hostKeys, packetCommitment, TRANSFER_PORT } from './keys.js';

export function getConnection(ctx: IbcExecContext, id: string): ConnectionEnd {
  const raw = read(ctx, hostKeys.connection(id));
  if (!raw) throw err.connectionNotFound(id);
  return ConnectionEnd.decode(raw);
}

export function putConnection(ctx: IbcExecContext, id: string, end: ConnectionEnd): void {
  write(ctx, hostKeys.connection(id), ConnectionEnd.encode(end).finish());
}

export function getChannel(ctx: IbcExecContext, port: string, id: string): Channel {
  const raw = read(ctx, hostKeys.channel(port, id));
  if (!raw) throw err.channelNotFound(port, id);
  return Channel.decode(raw);
}

export function putChannel(ctx: IbcExecContext, port: string, id: string, end: Channel): void {
  write(ctx, hostKeys.channel(port, id), Channel.encode(end).finish());
}

export function checkTransferChannel(portId: string, channel: Channel): void {
  if (portId !== TRANSFER_PORT) throw err.invalidRequest(`port ${portId} is not bound: only the transfer port is`);
  if (channel.ordering !== Order.ORDER_UNORDERED)
    throw new CosmosTxError(3, `expected ${Order[Order.ORDER_UNORDERED]} channel, got ${Order[channel.ordering]}: invalid channel ordering`, 'transfer');
  if (channel.connectionHops.length !== 1) throw err.invalidRequest('a channel has exactly one connection hop');
}

export function openChannelOf(ctx: IbcExecContext, port: string, channel: string): { end: Channel; conn: ConnectionEnd } {
  const end = getChannel(ctx, port, channel);
  if (end.state !== ChanState.STATE_OPEN) throw err.channelState(`channel state is not OPEN (got ${ChanState[end.state]})`);
  const conn = getConnection(ctx, end.connectionHops[0]!);
  if (conn.state !== ConnState.STATE_OPEN) throw err.connectionState(`connection state is not OPEN (got ${ConnState[conn.state]})`);
  return { end, conn };
}

/** ibc-go's check that a packet comes from (receive) or went to (acknowledge, timeout) the channel's counterparty. */
export function checkCounterparty(end: Channel, side: 'source' | 'destination', port: string, channel: string): void {
  if (port !== end.counterparty.portId)
    throw err.invalidPacket(`packet ${side} port doesn't match the counterparty's port (${port} ≠ ${end.counterparty.portId})`);
  if (channel !== end.counterparty.channelId)
    throw err.invalidPacket(`packet ${side} channel doesn't match the counterparty's channel (${channel} ≠ ${end.counterparty.channelId})`);
}

/** ibc-go's timeout rule: a packet's timeout has passed at `height` with block time `timeNs` (the relayer asks it too). */
export function elapsed(timeoutHeight: Height, timeoutTimestamp: bigint, height: bigint, timeNs: bigint): boolean {
  return (timeoutHeight.revisionHeight !== 0n && height >= timeoutHeight.revisionHeight) || (timeoutTimestamp !== 0n && timeNs >= timeoutTimestamp);
}

export function checkCommitment(stored: Uint8Array, p: Packet): void {
  const want = packetCommitment(p.timeoutTimestamp, p.timeoutHeight.revisionNumber, p.timeoutHeight.revisionHeight, p.data);
  if (Buffer.compare(Buffer.from(stored), Buffer.from(want)) !== 0) throw err.invalidPacket('commitment bytes are not equal: got and expected differ');
}
