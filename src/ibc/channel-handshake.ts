/** 04-channel: the four-step channel handshake (ICS-20 transfer channels only), each counterparty step verified by proof. */
import { Channel, State as ChanState } from 'cosmjs-types/ibc/core/channel/v1/channel';
import { State as ConnState } from 'cosmjs-types/ibc/core/connection/v1/connection';
import type { AbciEvent } from '../abci/types.js';
import { checkTransferChannel, getChannel, getConnection, putChannel } from './channel-ends.js';
import { verifyState } from './client-exec.js';
import { err, nextId, setSeq, type IbcExecContext } from './exec-context.js';
import { channelEvent } from './ibc-events.js';
import { hostKeys, ICS20_VERSION } from './keys.js';
import type { IbcMsg } from './msgs.js';

type ChannelMsg = Extract<IbcMsg, { kind: 'chanOpenInit' | 'chanOpenTry' | 'chanOpenAck' | 'chanOpenConfirm' }>;

/** Runs a channel handshake step; returns the message's response fields. */
export function runChannelHandshake(msg: ChannelMsg, ctx: IbcExecContext, events: AbciEvent[]): Record<string, unknown> {
  let response: Record<string, unknown> = {};
  switch (msg.kind) {
    case 'chanOpenInit':
    case 'chanOpenTry': {
      const { portId, channel } = msg.m;
      checkTransferChannel(portId, channel);
      const conn = getConnection(ctx, channel.connectionHops[0] ?? '');
      if (msg.kind === 'chanOpenTry') {
        if (conn.state !== ConnState.STATE_OPEN) throw err.connectionState(`connection state is not OPEN (got ${ConnState[conn.state]})`);
        const expected: Channel = {
          state: ChanState.STATE_INIT,
          ordering: channel.ordering,
          counterparty: { portId, channelId: '' },
          connectionHops: [conn.counterparty.connectionId],
          version: msg.m.counterpartyVersion,
        };
        verifyState(
          ctx,
          'channel handshake open try failed',
          'channel state',
          conn,
          msg.m.proofHeight,
          msg.m.proofInit,
          hostKeys.channel(channel.counterparty.portId, channel.counterparty.channelId),
          Channel.encode(expected).finish(),
        );
        if (msg.m.counterpartyVersion !== ICS20_VERSION) throw err.invalidVersion(`expected ${ICS20_VERSION}, got ${msg.m.counterpartyVersion}`);
      }
      const id = nextId(ctx, hostKeys.nextChannelSequence, 'channel');
      const end: Channel = { ...channel, version: ICS20_VERSION, state: msg.kind === 'chanOpenInit' ? ChanState.STATE_INIT : ChanState.STATE_TRYOPEN };
      putChannel(ctx, portId, id, end);
      setSeq(ctx, hostKeys.nextSequenceSend(portId, id), 1n);
      setSeq(ctx, hostKeys.nextSequenceRecv(portId, id), 1n);
      setSeq(ctx, hostKeys.nextSequenceAck(portId, id), 1n);
      events.push(channelEvent(msg.kind === 'chanOpenInit' ? 'channel_open_init' : 'channel_open_try', portId, id, end, ['version', ICS20_VERSION]));
      response = { channelId: id, version: ICS20_VERSION };
      break;
    }
    case 'chanOpenAck':
    case 'chanOpenConfirm': {
      const { portId, channelId } = msg.m;
      const end = getChannel(ctx, portId, channelId);
      const want = msg.kind === 'chanOpenAck' ? ChanState.STATE_INIT : ChanState.STATE_TRYOPEN;
      if (end.state !== want) throw err.channelState(`channel state is not ${ChanState[want]} (got ${ChanState[end.state]})`);
      const conn = getConnection(ctx, end.connectionHops[0]!);
      const ack = msg.kind === 'chanOpenAck';
      const counterpartyChannelId = ack ? msg.m.counterpartyChannelId : end.counterparty.channelId;
      const expected: Channel = {
        state: ack ? ChanState.STATE_TRYOPEN : ChanState.STATE_OPEN,
        ordering: end.ordering,
        counterparty: { portId, channelId },
        connectionHops: [conn.counterparty.connectionId],
        version: ack ? msg.m.counterpartyVersion : end.version,
      };
      verifyState(
        ctx,
        ack ? 'channel handshake open ack failed' : 'channel handshake open confirm failed',
        'channel state',
        conn,
        msg.m.proofHeight,
        ack ? msg.m.proofTry : msg.m.proofAck,
        hostKeys.channel(end.counterparty.portId, counterpartyChannelId),
        Channel.encode(expected).finish(),
      );
      end.state = ChanState.STATE_OPEN;
      if (msg.kind === 'chanOpenAck') {
        if (msg.m.counterpartyVersion !== ICS20_VERSION) throw err.invalidVersion(`expected ${ICS20_VERSION}, got ${msg.m.counterpartyVersion}`);
        end.counterparty = { ...end.counterparty, channelId: msg.m.counterpartyChannelId };
      }
      putChannel(ctx, portId, channelId, end);
      events.push(channelEvent(msg.kind === 'chanOpenAck' ? 'channel_open_ack' : 'channel_open_confirm', portId, channelId, end));
      break;
    }
  }
  return response;
}
