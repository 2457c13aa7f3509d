/**
 * What the chains' tx indexes tell of packets the packet index did not see happen (sent before it
 * started: a network restarted on a home), read as an indexer catching up reads them, through
 * tx_search: the tx that sent a packet by its hash, the destination's receive and the source's
 * acknowledgement or timeout by the packet's sequence, the latest sends of a channel before a height.
 * Nothing here runs at start: each read answers one status or explorer request.
 */
import type { TxResult } from '../../events/types.js';

/** A chain's tx index (tx_search), as the packet index reads it. */
export interface TxIndexReader {
  get(cometHash: Uint8Array): Promise<TxResult | undefined>;
  search(query: string): Promise<TxResult[]>;
}

export type PacketStep = 'recv_packet' | 'acknowledge_packet' | 'timeout_packet';

/**
 * The txs with a `step` event for a packet of this sequence. By the sequence alone (one short
 * scan of the index), so packets of that sequence on other channels come too: the caller matches
 * each event to its packet, as it does live.
 */
export function packetStepTxs(txs: TxIndexReader, step: PacketStep, sequence: bigint): Promise<TxResult[]> {
  return txs.search(`${step}.packet_sequence = '${sequence}'`);
}

/** The first window of blocks the search for a channel's latest sends reads back; it doubles each step. */
const FIRST_WINDOW = 1024;

/**
 * The latest `limit` txs at or below `height` that sent packets on `channel`, oldest first: read
 * back in windows of blocks that double, so a long history costs a few index scans, never all its txs.
 */
export async function latestSends(txs: TxIndexReader, channel: string, height: number, limit: number): Promise<TxResult[]> {
  let found: TxResult[] = [];
  let hi = height;
  let span = FIRST_WINDOW;
  while (hi >= 1 && found.length < limit) {
    const lo = Math.max(1, hi - span + 1);
    found = [...(await txs.search(`send_packet.packet_src_channel = '${channel}' AND tx.height >= ${lo} AND tx.height <= ${hi}`)), ...found];
    hi = lo - 1;
    span *= 2;
  }
  return found.slice(-limit);
}
