/**
 * Executes IBC messages on a chain's IBC store, as ibc-go v10's core keeper and the ICS-20
 * transfer app do: 02-client (create, update with a verified counterparty header), 03-connection
 * and 04-channel handshakes, packets (send, receive, acknowledge, time out) and the transfer
 * app's escrow, burn, mint and refunds, with ibc-go's events in ibc-go's order.
 *
 * Every handshake and packet message's proof is verified as ibc-go does (src/ibc/proofs.ts): an
 * ICS-23 proof of the counterparty's value at the ICS-24 path under the connection's counterparty
 * prefix, against the root of the client's consensus state at the proof height; a timeout proves
 * the receipt's absence. So anyone may relay: a wrong or empty proof is refused with ibc-go's error.
 */
import { exactSizeBuffers } from '../codec/cosmjs-types.js';
import type { AbciEvent } from '../abci/types.js';
import { ev } from './bank.js';
import { runChannelHandshake } from './channel-handshake.js';
import { createClient, updateClient } from './client-exec.js';
import { runConnectionHandshake } from './connection-handshake.js';
import type { IbcExecContext, IbcMsgResult } from './exec-context.js';
import { acknowledgePacket, recvPacket, timeoutPacket } from './packets.js';
import { sendTransfer } from './transfer-app.js';
import { responseCodec, type IbcMsg } from './msgs.js';

exactSizeBuffers();

export async function runIbcMsg(msg: IbcMsg, ctx: IbcExecContext): Promise<IbcMsgResult> {
  const events: AbciEvent[] = [];
  let response: Record<string, unknown> = {};
  switch (msg.kind) {
    case 'createClient':
      response = createClient(ctx, msg.m.clientState, msg.m.consensusState, events);
      break;
    case 'updateClient':
      updateClient(ctx, msg.m.clientId, msg.m.clientMessage, events);
      break;
    case 'connOpenInit':
    case 'connOpenTry':
    case 'connOpenAck':
    case 'connOpenConfirm':
      runConnectionHandshake(msg, ctx, events);
      break;
    case 'chanOpenInit':
    case 'chanOpenTry':
    case 'chanOpenAck':
    case 'chanOpenConfirm':
      response = runChannelHandshake(msg, ctx, events);
      break;
    case 'transfer':
      response = await sendTransfer(ctx, msg.m, events);
      break;
    case 'recvPacket':
      response = await recvPacket(ctx, msg.m.packet, msg.m.proofCommitment, msg.m.proofHeight, events);
      break;
    case 'acknowledgement':
      response = await acknowledgePacket(ctx, msg.m.packet, msg.m.acknowledgement, msg.m.proofAcked, msg.m.proofHeight, events);
      break;
    case 'timeout':
      response = await timeoutPacket(ctx, msg.m.packet, msg.m.proofUnreceived, msg.m.proofHeight, events);
      break;
  }
  const module =
    msg.kind === 'transfer' ? undefined : msg.kind.endsWith('Client') ? 'ibc_client' : msg.kind.startsWith('conn') ? 'ibc_connection' : 'ibc_channel';
  // Handshake events are followed by their module's message event (packet events add their own).
  if (module !== undefined && !['recvPacket', 'acknowledgement', 'timeout'].includes(msg.kind)) events.push(ev('message', ['module', module]));
  const codec = responseCodec(msg.kind);
  return { events, response: { typeUrl: `${codec.typeUrl.startsWith('/') ? '' : '/'}${codec.typeUrl}`, value: codec.encode(response as never).finish() } };
}
