/** The ICS-20 transfer app: send (escrow or burn), receive (unescrow or mint a voucher), refunds. */
import type { Packet } from 'cosmjs-types/ibc/core/channel/v1/channel';
import type { MsgTransfer } from 'cosmjs-types/ibc/applications/transfer/v1/tx';
import type { AbciEvent } from '../abci/types.js';
import { CosmosTxError } from '../sdk/errors.js';
import { fromBech32 } from '../crypto/bech32.js';
import { ev } from './bank.js';
import { elapsed, openChannelOf } from './channel-ends.js';
import { readConsensus, requireActiveClient } from './client-exec.js';
import { del, err, getSeq, read, setSeq, write, type IbcExecContext } from './exec-context.js';
import { packetAttrs } from './ibc-events.js';
import {
  decodePacketData,
  denomAfterHop,
  denomHashHex,
  denomPath,
  encodePacketData,
  escrowAddress,
  hostKeys,
  ibcDenom,
  packetCommitment,
  parseDenomPath,
  TRANSFER_MODULE_ADDRESS,
  type Denom,
} from './keys.js';

/** The full trace path of a denom as held on this chain (`ibc/<hash>` resolved through the stored denoms). */
function fullDenom(ctx: IbcExecContext, denom: string): Denom {
  if (!denom.startsWith('ibc/')) return { base: denom, trace: [] };
  const raw = read(ctx, hostKeys.denom(denom.slice(4).toUpperCase()));
  if (!raw) throw new CosmosTxError(9, `denomination not found for ${denom}: denomination not found`, 'transfer');
  return JSON.parse(new TextDecoder().decode(raw)) as Denom;
}

export async function sendTransfer(ctx: IbcExecContext, t: MsgTransfer, events: AbciEvent[]): Promise<Record<string, unknown>> {
  if (t.receiver === '') throw err.invalidAddress('missing recipient address');
  if (t.receiver.length > 2048) throw err.invalidAddress(`recipient address must not exceed 2048 bytes`);
  if (t.memo.length > 32768) throw err.invalidRequest('memo must not exceed 32768 bytes');
  const sender = bech32Bytes(ctx, t.sender, 'sender');
  if (!/^\d+$/.test(t.token.amount) || BigInt(t.token.amount) === 0n) throw err.invalidCoins(`invalid token amount ${t.token.amount}`);
  if (t.timeoutHeight.revisionHeight === 0n && t.timeoutTimestamp === 0n)
    throw err.invalidRequest('packet timeout height and packet timeout timestamp cannot both be 0');
  const { end, conn } = openChannelOf(ctx, t.sourcePort, t.sourceChannel);
  // The counterparty's latest height and time as our client knows them: an elapsed timeout is refused.
  const client = requireActiveClient(ctx, conn.clientId, (status) => `cannot send packet using client (${conn.clientId}) with status ${status}`);
  const latest = readConsensus(ctx, conn.clientId, client.latestHeight);
  const latestNs = latest?.timestamp ? latest.timestamp.seconds * 1_000_000_000n + BigInt(latest.timestamp.nanos) : 0n;
  if (elapsed(t.timeoutHeight, t.timeoutTimestamp, client.latestHeight.revisionHeight, latestNs)) {
    throw err.invalidPacket(
      `receiving chain block height >= packet timeout height or timestamp (${client.latestHeight.revisionNumber}-${client.latestHeight.revisionHeight}, ${latestNs}): packet timeout`,
    );
  }
  let amount = BigInt(t.token.amount);
  const denom = fullDenom(ctx, t.token.denom);
  const path = denomPath(denom);
  const coin = { denom: t.token.denom, amount };
  if (amount === 2n ** 256n - 1n) amount = coin.amount = await ctx.bank.balance(sender, t.token.denom);
  const returning = path.startsWith(`${t.sourcePort}/${t.sourceChannel}/`);
  if (!returning) {
    // Source chain: escrow.
    await ctx.bank.send(sender, escrowAddress(t.sourcePort, t.sourceChannel), coin, events);
    addTotalEscrow(ctx, t.token.denom, amount);
  } else {
    // A voucher going home: to the module account, then burnt.
    await ctx.bank.send(sender, TRANSFER_MODULE_ADDRESS, coin, events);
    await ctx.bank.burn(TRANSFER_MODULE_ADDRESS, coin, events);
  }
  const seqKey = hostKeys.nextSequenceSend(t.sourcePort, t.sourceChannel);
  const sequence = getSeq(ctx, seqKey) ?? 1n;
  setSeq(ctx, seqKey, sequence + 1n);
  const data = encodePacketData({ denom: path, amount: amount.toString(), sender: t.sender, receiver: t.receiver, memo: t.memo });
  const packet: Packet = {
    sequence,
    sourcePort: t.sourcePort,
    sourceChannel: t.sourceChannel,
    destinationPort: end.counterparty.portId,
    destinationChannel: end.counterparty.channelId,
    data,
    timeoutHeight: t.timeoutHeight,
    timeoutTimestamp: t.timeoutTimestamp,
  };
  write(
    ctx,
    hostKeys.commitment(t.sourcePort, t.sourceChannel, sequence),
    packetCommitment(t.timeoutTimestamp, t.timeoutHeight.revisionNumber, t.timeoutHeight.revisionHeight, data),
  );
  events.push(ev('send_packet', ...packetAttrs(packet, end.connectionHops[0]!, true)));
  events.push(ev('message', ['module', 'ibc_channel']));
  events.push(ev('ibc_transfer', ['sender', t.sender], ['receiver', t.receiver], ['denom', path], ['amount', amount.toString()], ['memo', t.memo]));
  events.push(ev('message', ['module', 'transfer']));
  return { sequence };
}

export async function onRecv(ctx: IbcExecContext, p: Packet, data: NonNullable<ReturnType<typeof decodePacketData>>, events: AbciEvent[]): Promise<void> {
  if (!/^\d+$/.test(data.amount) || BigInt(data.amount) === 0n)
    throw new CosmosTxError(6, `unable to parse transfer amount: ${data.amount}: invalid token amount`, 'ibc');
  const receiver = bech32Bytes(ctx, data.receiver, 'receiver');
  const amount = BigInt(data.amount);
  const arrived = denomAfterHop(
    parseDenomPath(data.denom),
    { portId: p.sourcePort, channelId: p.sourceChannel },
    { portId: p.destinationPort, channelId: p.destinationChannel },
  );
  if (arrived.home) {
    // Coming home: the hop is stripped; unescrow.
    const localDenom = ibcDenom(arrived.denom);
    await ctx.bank.send(escrowAddress(p.destinationPort, p.destinationChannel), receiver, { denom: localDenom, amount }, events);
    addTotalEscrow(ctx, localDenom, -amount);
    return;
  }
  const voucher = arrived.denom;
  const hash = denomHashHex(denomPath(voucher));
  if (!ctx.store.has(hostKeys.denom(hash))) {
    write(ctx, hostKeys.denom(hash), new TextEncoder().encode(JSON.stringify(voucher)));
    events.push(
      ev(
        'denomination',
        ['denom_hash', hash],
        ['denom', JSON.stringify({ base: voucher.base, trace: voucher.trace.map((h) => ({ port_id: h.portId, channel_id: h.channelId })) })],
      ),
    );
  }
  const coin = { denom: `ibc/${hash}`, amount };
  await ctx.bank.mint(TRANSFER_MODULE_ADDRESS, coin, events);
  await ctx.bank.send(TRANSFER_MODULE_ADDRESS, receiver, coin, events);
}

/** The transfer app's total escrow of a denom moves with every escrow and unescrow. */
function addTotalEscrow(ctx: IbcExecContext, denom: string, delta: bigint): void {
  const k = hostKeys.totalEscrow(denom);
  const total = BigInt(ctx.store.getText(k) ?? '0') + delta;
  if (total <= 0n) del(ctx, k);
  else write(ctx, k, new TextEncoder().encode(total.toString()));
}

/** Ack error or timeout: unescrow back to the sender, or re-mint a voucher that was burnt. */
export async function refund(ctx: IbcExecContext, p: Packet, data: NonNullable<ReturnType<typeof decodePacketData>>, events: AbciEvent[]): Promise<void> {
  const sender = bech32Bytes(ctx, data.sender, 'sender');
  const denom = parseDenomPath(data.denom);
  const local = ibcDenom(denom);
  const coin = { denom: local, amount: BigInt(data.amount) };
  if (!data.denom.startsWith(`${p.sourcePort}/${p.sourceChannel}/`)) {
    await ctx.bank.send(escrowAddress(p.sourcePort, p.sourceChannel), sender, coin, events);
    addTotalEscrow(ctx, local, -coin.amount);
  } else {
    await ctx.bank.mint(TRANSFER_MODULE_ADDRESS, coin, events);
    await ctx.bank.send(TRANSFER_MODULE_ADDRESS, sender, coin, events);
  }
}

function bech32Bytes(ctx: IbcExecContext, text: string, what: string): Uint8Array {
  let d: { prefix: string; bytes: Uint8Array };
  try {
    d = fromBech32(text);
  } catch (e) {
    throw err.invalidAddress(`failed to decode ${what} address ${text}: ${(e as Error).message}`);
  }
  if (d.prefix !== ctx.bech32Prefix || d.bytes.length !== 20)
    throw err.invalidAddress(`failed to decode ${what} address ${text}: expected a 20-byte ${ctx.bech32Prefix} address`);
  return d.bytes;
}
