/**
 * What a relayer restarted on persisted chains picks up, as Hermes does after a restart: the open
 * `transfer` channel between the two chains (read from both committed IBC stores, each end naming
 * the other) and the packets still in flight on it: every packet commitment the source still holds,
 * its packet read back from the source's `send_packet` event (tx_search), with the acknowledgement
 * from the destination's `write_acknowledgement` event when the destination has written one.
 */
import { Any } from 'cosmjs-types/google/protobuf/any';
import { Channel, State as ChanState, type Packet } from 'cosmjs-types/ibc/core/channel/v1/channel';
import { ConnectionEnd } from 'cosmjs-types/ibc/core/connection/v1/connection';
import { ClientState as TmClientState } from 'cosmjs-types/ibc/lightclients/tendermint/v1/tendermint';
import type { AbciEvent } from '../../abci/types.js';
import { attrOf, packetOfEvent } from '../../ibc/ibc-events.js';
import type { IbcStore } from '../../ibc/ibc-store.js';
import { hostKeys, TRANSFER_PORT } from '../../ibc/keys.js';

export interface PathEnd {
  clientId: string;
  connectionId: string;
  channelId: string;
}

/** The chain of a client on `store` (its client state's chain id), or undefined. */
function clientChainOf(store: IbcStore, clientId: string): string | undefined {
  const raw = store.get(hostKeys.clientState(clientId));
  return raw && TmClientState.decode(Any.decode(raw).value).chainId;
}

/** An OPEN transfer channel end on `store` and its connection's client, when that client tracks `counterpartyChainId`. */
function openEnd(store: IbcStore, channelId: string, counterpartyChainId: string): (PathEnd & { channel: Channel }) | undefined {
  const raw = store.get(hostKeys.channel(TRANSFER_PORT, channelId));
  if (!raw) return undefined;
  const channel = Channel.decode(raw);
  const connectionId = channel.connectionHops[0];
  if (channel.state !== ChanState.STATE_OPEN || connectionId === undefined) return undefined;
  const conn = store.get(hostKeys.connection(connectionId));
  if (!conn) return undefined;
  const { clientId } = ConnectionEnd.decode(conn);
  if (clientChainOf(store, clientId) !== counterpartyChainId) return undefined;
  return { clientId, connectionId, channelId, channel };
}

/**
 * The first open transfer channel of chain A (`a`, chain id `aId`) whose counterparty on chain B
 * (`b`, `bId`) is open and names it back, each end's client tracking the other chain; else undefined.
 */
export function findOpenPath(
  a: IbcStore,
  aId: string,
  b: IbcStore,
  bId: string,
  taken: ReadonlySet<string> = new Set(),
): { a: PathEnd; b: PathEnd } | undefined {
  const prefix = `channelEnds/ports/${TRANSFER_PORT}/channels/`;
  for (const [key] of a.entries(prefix)) {
    const channelA = key.slice(prefix.length);
    if (taken.has(channelA)) continue;
    const endA = openEnd(a, channelA, bId);
    if (!endA) continue;
    const endB = openEnd(b, endA.channel.counterparty.channelId, aId);
    if (!endB || endB.channel.counterparty.channelId !== channelA) continue;
    return {
      a: { clientId: endA.clientId, connectionId: endA.connectionId, channelId: channelA },
      b: { clientId: endB.clientId, connectionId: endB.connectionId, channelId: endB.channelId },
    };
  }
  return undefined;
}

/** The events of the committed txs a tx_search query matches. */
export type TxEventSearch = (query: string) => Promise<AbciEvent[][]>;

/**
 * The packets sent on `srcChannel` whose commitment `src` still holds, each with the acknowledgement
 * `dst` wrote for it (when its store has one). A packet whose send event is not found (no tx index)
 * is left out: it is named in `missing`.
 */
export async function inFlightPackets(
  src: { store: IbcStore; search: TxEventSearch; channelId: string },
  dst: { store: IbcStore; search: TxEventSearch; channelId: string },
): Promise<{ packets: { packet: Packet; ack?: Uint8Array }[]; missing: bigint[] }> {
  const prefix = hostKeys.commitmentPrefix(TRANSFER_PORT, src.channelId);
  const packets: { packet: Packet; ack?: Uint8Array }[] = [];
  const missing: bigint[] = [];
  for (const [key] of src.store.entries(prefix)) {
    const seq = BigInt(key.slice(prefix.length));
    const sent = await findEvent(src.search, 'send_packet', 'packet_src_channel', src.channelId, seq);
    if (!sent) {
      missing.push(seq);
      continue;
    }
    const packet = packetOfEvent(sent);
    let ack: Uint8Array | undefined;
    if (dst.store.has(hostKeys.ack(packet.destinationPort, packet.destinationChannel, seq))) {
      const written = await findEvent(dst.search, 'write_acknowledgement', 'packet_dst_channel', dst.channelId, seq);
      if (written) ack = Uint8Array.from(Buffer.from(attrOf(written, 'packet_ack_hex'), 'hex'));
    }
    packets.push({ packet, ...(ack ? { ack } : {}) });
  }
  return { packets, missing };
}

async function findEvent(search: TxEventSearch, type: string, channelKey: string, channelId: string, seq: bigint): Promise<AbciEvent | undefined> {
  const txs = await search(`${type}.${channelKey} = '${channelId}' AND ${type}.packet_sequence = '${seq}'`);
  for (const events of txs)
    for (const e of events)
      if (
        e.type === type &&
        attrOf(e, channelKey) === channelId &&
        attrOf(e, 'packet_sequence') === seq.toString() &&
        attrOf(e, 'packet_src_port') === TRANSFER_PORT
      )
        return e;
  return undefined;
}
