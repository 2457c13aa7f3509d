/**
 * 04-channel packets: receive (with the transfer app's callback and its acknowledgement),
 * acknowledge and time out, each verified against the counterparty's proof.
 */
import type { Packet } from 'cosmjs-types/ibc/core/channel/v1/channel';
import { ResponseResultType } from 'cosmjs-types/ibc/core/channel/v1/tx';
import type { Height } from 'cosmjs-types/ibc/core/client/v1/client';
import type { AbciEvent } from '../abci/types.js';
import { CosmosTxError } from '../sdk/errors.js';
import { ev } from './bank.js';
import { checkCommitment, checkCounterparty, elapsed, openChannelOf } from './channel-ends.js';
import { requireProofHeight, verifyState } from './client-exec.js';
import { del, err, read, write, type IbcExecContext } from './exec-context.js';
import { asCallbackErrorEvent, packetAttrs, tokenPacketEvent } from './ibc-events.js';
import { ackCommitment, decodePacketData, errorAck, hostKeys, packetCommitment, parseAck, parseDenomPath, successAck } from './keys.js';
import { onRecv, refund } from './transfer-app.js';

export async function recvPacket(
  ctx: IbcExecContext,
  p: Packet,
  proof: Uint8Array,
  proofHeight: Height,
  events: AbciEvent[],
): Promise<Record<string, unknown>> {
  const { end, conn } = openChannelOf(ctx, p.destinationPort, p.destinationChannel);
  checkCounterparty(end, 'source', p.sourcePort, p.sourceChannel);
  if (elapsed(p.timeoutHeight, p.timeoutTimestamp, BigInt(ctx.height), ctx.timeNs)) {
    throw err.timeoutElapsed(`block height >= packet timeout height or block timestamp >= packet timeout timestamp (${ctx.height}, ${ctx.timeNs})`);
  }
  const commitment = packetCommitment(p.timeoutTimestamp, p.timeoutHeight.revisionNumber, p.timeoutHeight.revisionHeight, p.data);
  verifyState(
    ctx,
    "receive packet verification failed: couldn't verify counterparty packet commitment",
    'packet commitment',
    conn,
    proofHeight,
    proof,
    hostKeys.commitment(p.sourcePort, p.sourceChannel, p.sequence),
    commitment,
  );
  const receiptKey = hostKeys.receipt(p.destinationPort, p.destinationChannel, p.sequence);
  if (ctx.store.has(receiptKey)) return { result: ResponseResultType.RESPONSE_RESULT_TYPE_NOOP }; // redundant relay
  write(ctx, receiptKey, Uint8Array.of(1));
  const connectionId = end.connectionHops[0]!;
  events.push(ev('recv_packet', ...packetAttrs(p, connectionId, true)));
  events.push(ev('message', ['module', 'ibc_channel']));

  // The transfer app's callback: its writes are discarded if it fails (an error acknowledgement).
  const data = decodePacketData(p.data);
  const appEvents: AbciEvent[] = [];
  let ack: Uint8Array;
  await ctx.cache.checkpoint();
  try {
    if (!data) throw new CosmosTxError(6, 'cannot unmarshal ICS-20 transfer packet data: invalid type', 'ibc');
    await onRecv(ctx, p, data, appEvents);
    await ctx.cache.commit();
    ack = successAck();
    events.push(...appEvents);
    events.push(tokenPacketEvent(data, ['success', 'true']));
    events.push(ev('message', ['module', 'transfer']));
  } catch (e) {
    await ctx.cache.revert();
    if (!(e instanceof CosmosTxError)) throw e;
    ack = errorAck(e.code);
    // As ibc-go (v8.1+) keeps a failed callback's events: emitted, but with every type and key prefixed.
    appEvents.push(tokenPacketEvent(data, ['success', 'false'], ['error', e.log]));
    appEvents.push(ev('message', ['module', 'transfer']));
    events.push(...appEvents.map(asCallbackErrorEvent));
  }
  write(ctx, hostKeys.ack(p.destinationPort, p.destinationChannel, p.sequence), ackCommitment(ack));
  // ibc-go v8's order: data (text, hex), timeouts, sequence, ports and channels, the ack (text, hex), then the connection (no ordering).
  const common = packetAttrs(p, connectionId);
  events.push(
    ev(
      'write_acknowledgement',
      ['packet_data', Buffer.from(p.data).toString('utf8')],
      ['packet_data_hex', Buffer.from(p.data).toString('hex')],
      ...common.slice(0, 7),
      ['packet_ack', Buffer.from(ack).toString('utf8')],
      ['packet_ack_hex', Buffer.from(ack).toString('hex')],
      ...common.slice(8),
    ),
  );
  events.push(ev('message', ['module', 'ibc_channel']));
  return { result: ResponseResultType.RESPONSE_RESULT_TYPE_SUCCESS };
}

/**
 * What an ack and a timeout both start from: the open source channel whose counterparty is the
 * packet's destination, and the packet's stored commitment (checked against the packet), or
 * undefined when none is stored any more (already acknowledged or timed out: a no-op).
 */
function sentPacket(ctx: IbcExecContext, p: Packet): (ReturnType<typeof openChannelOf> & { key: string }) | undefined {
  const opened = openChannelOf(ctx, p.sourcePort, p.sourceChannel);
  checkCounterparty(opened.end, 'destination', p.destinationPort, p.destinationChannel);
  const key = hostKeys.commitment(p.sourcePort, p.sourceChannel, p.sequence);
  const stored = read(ctx, key);
  if (!stored) return undefined;
  checkCommitment(stored, p);
  return { ...opened, key };
}

export async function acknowledgePacket(
  ctx: IbcExecContext,
  p: Packet,
  ackBytes: Uint8Array,
  proof: Uint8Array,
  proofHeight: Height,
  events: AbciEvent[],
): Promise<Record<string, unknown>> {
  const sent = sentPacket(ctx, p);
  if (!sent) return { result: ResponseResultType.RESPONSE_RESULT_TYPE_NOOP }; // already acknowledged or timed out
  const { end, conn, key } = sent;
  verifyState(
    ctx,
    'acknowledge packet verification failed',
    'packet acknowledgement',
    conn,
    proofHeight,
    proof,
    hostKeys.ack(p.destinationPort, p.destinationChannel, p.sequence),
    ackCommitment(ackBytes),
  );
  const ack = parseAck(ackBytes);
  if (!ack) throw new CosmosTxError(3, 'cannot unmarshal ICS-20 transfer packet acknowledgement: invalid acknowledgement', 'channel');
  del(ctx, key);
  const connectionId = end.connectionHops[0]!;
  events.push(ev('acknowledge_packet', ...packetAttrs(p, connectionId)));
  events.push(ev('message', ['module', 'ibc_channel']));
  const data = decodePacketData(p.data)!;
  if (!ack.ok) await refund(ctx, p, data, events);
  const ackText = ack.ok ? `result:"${Buffer.from(ack.result).toString('base64')}" ` : `error:${JSON.stringify(ack.error)} `;
  events.push(tokenPacketEvent(data, ['acknowledgement', ackText]));
  events.push(ev('message', ['module', 'transfer']));
  events.push(ack.ok ? ev('fungible_token_packet', ['success', new TextDecoder().decode(ack.result)]) : ev('fungible_token_packet', ['error', ack.error]));
  return { result: ResponseResultType.RESPONSE_RESULT_TYPE_SUCCESS };
}

/**
 * ibc-go's TimeoutPacket (unordered): the timeout must have passed at the proof height, and the
 * destination's store at that height must hold no receipt (a verified non-membership proof), so a
 * packet received there can never also be refunded here.
 */
export async function timeoutPacket(
  ctx: IbcExecContext,
  p: Packet,
  proof: Uint8Array,
  proofHeight: Height,
  events: AbciEvent[],
): Promise<Record<string, unknown>> {
  const sent = sentPacket(ctx, p);
  if (!sent) return { result: ResponseResultType.RESPONSE_RESULT_TYPE_NOOP }; // already acknowledged or timed out
  const { end, conn, key } = sent;
  const consensus = requireProofHeight(ctx, conn.clientId, proofHeight);
  const proofNs = consensus.timestamp ? consensus.timestamp.seconds * 1_000_000_000n + BigInt(consensus.timestamp.nanos) : 0n;
  if (!elapsed(p.timeoutHeight, p.timeoutTimestamp, proofHeight.revisionHeight, proofNs)) {
    throw err.timeoutNotReached(
      `packet timeout has not been reached for height or timestamp (proof height ${proofHeight.revisionNumber}-${proofHeight.revisionHeight}, time ${proofNs})`,
    );
  }
  verifyState(
    ctx,
    'timeout packet verification failed',
    'packet receipt absence',
    conn,
    proofHeight,
    proof,
    hostKeys.receipt(p.destinationPort, p.destinationChannel, p.sequence),
    undefined,
  );
  del(ctx, key);
  events.push(ev('timeout_packet', ...packetAttrs(p, end.connectionHops[0]!)));
  events.push(ev('message', ['module', 'ibc_channel']));
  const data = decodePacketData(p.data)!;
  await refund(ctx, p, data, events);
  const d = parseDenomPath(data.denom);
  events.push(
    ev(
      'timeout',
      ['receiver', data.sender],
      [
        'refund_tokens',
        JSON.stringify({ denom: { base: d.base, trace: d.trace.map((h) => ({ port_id: h.portId, channel_id: h.channelId })) }, amount: data.amount }),
      ],
      ['memo', data.memo ?? ''],
    ),
  );
  events.push(ev('message', ['module', 'transfer']));
  return { result: ResponseResultType.RESPONSE_RESULT_TYPE_SUCCESS };
}
