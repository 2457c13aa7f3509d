/**
 * What the network knows of each IBC packet, read from its chains' tx events as an indexer does:
 * the tx that sent it, the destination's receive (with an error acknowledgement, if written), the
 * source's acknowledgement or timeout. `/v2/tx/status` follows a tx's transfers through it.
 *
 *   from its start: every chain's Tx events, live ──> entries (kept in memory, the oldest forgotten first)
 *   before its start (a home restarted): nothing loaded at start; on demand, from the chains' tx indexes
 *     transfersOf(tx at or below the start height) ─> the tx by hash ─> its send_packet events ─┐
 *     recent(n), live entries fewer than n ─> each channel's latest n sends (packet-history.ts) ─┴> entries
 *       marked read back: at each read, what they still miss (receive, ack, timeout) is searched again,
 *       so one left in flight at the stop completes as the resumed relayer relays it
 */
import type { AbciEvent } from '../../abci/types.js';
import { toHexUpper } from '../../crypto/encoding.js';
import { txHash } from '../../types/txs.js';
import type { Subscription } from '../../events/subscription.js';
import type { TxResult } from '../../events/types.js';
import { attrOf, packetOfEvent } from '../../ibc/ibc-events.js';
import { decodePacketData, denomAfterHop, denomHashHex, ibcDenom, parseAck, parseDenomPath } from '../../ibc/keys.js';
import type { PacketChainTx, PacketLifecycle } from '../../rpc/routing/transfer-status.js';
import { latestSends, packetStepTxs, type TxIndexReader } from './packet-history.js';

export interface IndexedChain {
  chainId: string;
  subscribe(query: string, subscriber?: string): Subscription;
  height(): number;
  /** RFC 3339 time of a committed block. */
  blockTime(height: number): Promise<string | undefined>;
  /** The latest block's time, ns since the epoch. */
  latestTimeNs(): Promise<bigint>;
  /** Its tx index: packets of txs committed before the index started are read back there (none with `[tx_index] indexer = "null"`). */
  txs?: TxIndexReader;
}

/** The events `observe` reads; a tx without any is not looked at. */
const PACKET_EVENTS = new Set(['send_packet', 'recv_packet', 'write_acknowledgement', 'acknowledge_packet', 'timeout_packet']);

interface TxAt {
  chainId: string;
  /** As the status shows it: the 0x hash of an Ethereum tx (the one its sender knows), else the CometBFT hash. */
  txHash: string;
  /** The CometBFT hash (upper-case hex): how `transfersOf` finds the tx. */
  cometHash: string;
  height: number;
}

interface Entry {
  srcChainId: string;
  dstChainId: string | undefined;
  srcPort: string;
  srcChannel: string;
  dstPort: string;
  dstChannel: string;
  sequence: bigint;
  data: { denom: string; amount: string; sender: string; receiver: string };
  timeoutHeight: bigint;
  timeoutTimestamp: bigint;
  send: TxAt;
  receive?: TxAt & { ackError?: string };
  acknowledge?: TxAt & { ackError?: string };
  timeout?: TxAt;
  /** Read back from the tx indexes (sent before the index started), not seen live. */
  readBack?: boolean;
  /** ms since the epoch of the send's block, once a listing of read-back entries needed it. */
  sentAtMs?: number;
}

/** Packets remembered (the oldest are forgotten first: a status of a long-gone transfer then shows no transfers). */
const MAX_PACKETS = 10_000;

/** A committed tx as the status names it. */
function txAtOf(chainId: string, r: TxResult): TxAt {
  const cometHash = toHexUpper(txHash(r.tx));
  const ethHash = r.result.events.find((e) => e.type === 'ethereum_tx')?.attributes.find((a) => a.key === 'ethereumTxHash')?.value;
  return { chainId, txHash: ethHash ?? cometHash, cometHash, height: r.height };
}

const settled = (e: Entry): boolean => e.acknowledge !== undefined || e.timeout !== undefined;

export class PacketIndex {
  private readonly bySource = new Map<string, Entry>();
  /** `<dst chain>/<dst port>/<dst channel>` → the source chain (from the channel ends the relayer opened). */
  private readonly routes = new Map<string, string>();
  private readonly byTx = new Map<string, string[]>();
  private readonly subs: Subscription[] = [];
  private readonly chains = new Map<string, IndexedChain>();
  /** Each chain's height when the index started: it saw every tx above it live. */
  private readonly startHeights = new Map<string, number>();
  /** The channel ends of the paths (each sends packets). */
  private readonly ends: { chainId: string; port: string; channel: string }[] = [];
  /** The latest sends before the start, read back once for the longest listing asked so far. */
  private readBackRecent: { limit: number; done: Promise<void> } | undefined;

  constructor(
    chains: IndexedChain[],
    private readonly explorerLink: (txHash: string) => string,
  ) {
    for (const c of chains) {
      this.chains.set(c.chainId, c);
      this.startHeights.set(c.chainId, c.height());
      const sub = c.subscribe(`tm.event = 'Tx'`, `packet-index-${c.chainId}`);
      sub.setListener((m) => {
        if (m.data.type === 'Tx') this.observeTx(c.chainId, m.data.value.txResult, false);
      });
      this.subs.push(sub);
    }
  }

  /** Tells the index which channel ends face each other (the relayer's paths). */
  connect(a: { chainId: string; port: string; channel: string }, b: { chainId: string; port: string; channel: string }): void {
    this.routes.set(`${b.chainId}/${b.port}/${b.channel}`, a.chainId);
    this.routes.set(`${a.chainId}/${a.port}/${a.channel}`, b.chainId);
    this.ends.push(a, b);
  }

  stop(): void {
    for (const s of this.subs) s.cancel('packet index stopped');
  }

  /**
   * The packets a tx (committed at `height`) sent, in the order it sent them, with what happened to
   * each. A tx from before the index started is read back from its chain's tx index.
   */
  async transfersOf(chainId: string, cometHash: Uint8Array, height: number): Promise<PacketLifecycle[]> {
    const txKey = `${chainId}/${toHexUpper(cometHash)}`;
    if (!this.byTx.has(txKey) && height <= (this.startHeights.get(chainId) ?? -1)) {
      const r = await this.chains.get(chainId)?.txs?.get(cometHash);
      if (r) this.observeTx(chainId, r, true);
    }
    const out: PacketLifecycle[] = [];
    for (const k of this.byTx.get(txKey) ?? []) {
      const e = this.bySource.get(k);
      if (e) out.push(await this.lifecycle(await this.catchUp(e)));
    }
    return out;
  }

  /** The latest packets sent (newest first), with what happened to each; those sent before the start after the live ones. */
  async recent(limit: number): Promise<PacketLifecycle[]> {
    const live = [...this.bySource.values()].filter((e) => !e.readBack);
    if (live.length < limit) await this.readBackLatest(limit);
    const picked = live.slice(-limit).reverse();
    if (picked.length < limit) picked.push(...(await this.readBackNewestFirst()).slice(0, limit - picked.length));
    return Promise.all(picked.map(async (e) => this.lifecycle(await this.catchUp(e))));
  }

  /** Reads back each channel's latest `limit` sends before the start (once per larger `limit`). */
  private readBackLatest(limit: number): Promise<void> {
    if (this.readBackRecent && this.readBackRecent.limit >= limit) return this.readBackRecent.done;
    const done = (async () => {
      for (const end of this.ends) {
        const c = this.chains.get(end.chainId);
        const start = this.startHeights.get(end.chainId) ?? 0;
        if (!c?.txs || start < 1) continue;
        for (const r of await latestSends(c.txs, end.channel, start, limit)) this.observeTx(end.chainId, r, true);
      }
    })();
    this.readBackRecent = { limit, done };
    // A failed read (an index that stopped) is tried again by the next listing.
    done.catch(() => {
      if (this.readBackRecent?.done === done) this.readBackRecent = undefined;
    });
    return done;
  }

  /** The read-back entries, newest send first (by block time across chains). */
  private async readBackNewestFirst(): Promise<Entry[]> {
    const old = [...this.bySource.values()].filter((e) => e.readBack);
    for (const e of old) e.sentAtMs ??= Date.parse((await this.chains.get(e.srcChainId)?.blockTime(e.send.height)) ?? '') || 0;
    return old.sort((a, b) => b.sentAtMs! - a.sentAtMs! || b.send.height - a.send.height);
  }

  /**
   * What a read-back packet still misses, searched again in the tx indexes: its receive on the
   * destination, its acknowledgement or timeout on the source. Live events fill them too, but not
   * those of blocks committed between the search and the entry's making.
   */
  private async catchUp(e: Entry): Promise<Entry> {
    if (!e.readBack || settled(e)) return e;
    const dst = e.dstChainId === undefined ? undefined : this.chains.get(e.dstChainId);
    if (!e.receive && dst?.txs) for (const r of await packetStepTxs(dst.txs, 'recv_packet', e.sequence)) this.observeTx(dst.chainId, r, true);
    const src = this.chains.get(e.srcChainId);
    for (const step of ['acknowledge_packet', 'timeout_packet'] as const) {
      if (!src?.txs || settled(e)) break;
      for (const r of await packetStepTxs(src.txs, step, e.sequence)) this.observeTx(src.chainId, r, true);
    }
    return e;
  }

  /** A committed tx's packet events; `readBack`: it comes from a tx index, not live. */
  private observeTx(chainId: string, r: TxResult, readBack: boolean): void {
    if (r.result.code !== 0 || !r.result.events.some((e) => PACKET_EVENTS.has(e.type))) return; // most txs: no hash needed
    this.observe(chainId, txAtOf(chainId, r), r.result.events, readBack);
  }

  private observe(chainId: string, at: TxAt, events: AbciEvent[], readBack: boolean): void {
    for (const e of events) {
      if (e.type === 'send_packet') {
        const p = packetOfEvent(e);
        const data = decodePacketData(p.data);
        if (!data) continue;
        const key = `${chainId}/${p.sourcePort}/${p.sourceChannel}/${p.sequence}`;
        // Seen live and read back (a tx of the start height), or read back twice: one entry.
        if (this.bySource.has(key)) continue;
        if (this.bySource.size >= MAX_PACKETS) this.forgetOldest();
        this.bySource.set(key, {
          srcChainId: chainId,
          dstChainId: this.routes.get(`${chainId}/${p.sourcePort}/${p.sourceChannel}`),
          srcPort: p.sourcePort,
          srcChannel: p.sourceChannel,
          dstPort: p.destinationPort,
          dstChannel: p.destinationChannel,
          sequence: p.sequence,
          data,
          timeoutHeight: p.timeoutHeight.revisionHeight,
          timeoutTimestamp: p.timeoutTimestamp,
          send: at,
          ...(readBack ? { readBack } : {}),
        });
        const txKey = `${chainId}/${at.cometHash}`;
        this.byTx.set(txKey, [...(this.byTx.get(txKey) ?? []), key]);
      } else if (e.type === 'write_acknowledgement' || e.type === 'recv_packet') {
        const src = this.routes.get(`${chainId}/${attrOf(e, 'packet_dst_port')}/${attrOf(e, 'packet_dst_channel')}`);
        const entry = this.bySource.get(`${src}/${attrOf(e, 'packet_src_port')}/${attrOf(e, 'packet_src_channel')}/${attrOf(e, 'packet_sequence')}`);
        if (!entry) continue;
        if (e.type === 'recv_packet') entry.receive = { ...at };
        else {
          const ack = parseAck(Buffer.from(attrOf(e, 'packet_ack_hex'), 'hex'));
          entry.receive = { ...at, ...(ack && !ack.ok ? { ackError: ack.error } : {}) };
        }
      } else if (e.type === 'acknowledge_packet' || e.type === 'timeout_packet') {
        const entry = this.bySource.get(`${chainId}/${attrOf(e, 'packet_src_port')}/${attrOf(e, 'packet_src_channel')}/${attrOf(e, 'packet_sequence')}`);
        if (!entry) continue;
        if (e.type === 'timeout_packet') entry.timeout = at;
        else entry.acknowledge = { ...at, ...(entry.receive?.ackError ? { ackError: entry.receive.ackError } : {}) };
      }
    }
  }

  private forgetOldest(): void {
    const [key, e] = this.bySource.entries().next().value as [string, Entry];
    this.bySource.delete(key);
    const txKey = `${e.srcChainId}/${e.send.cometHash}`;
    const rest = (this.byTx.get(txKey) ?? []).filter((k) => k !== key);
    if (rest.length > 0) this.byTx.set(txKey, rest);
    else this.byTx.delete(txKey);
  }

  private async chainTx(at: TxAt): Promise<PacketChainTx> {
    const time = (await this.chains.get(at.chainId)?.blockTime(at.height)) ?? '';
    // Skip's examples give second precision: `2023-11-13T02:59:53Z`.
    return { chainId: at.chainId, txHash: at.txHash, height: at.height, time: time.replace(/\.\d+Z$/, 'Z'), explorerLink: this.explorerLink(at.txHash) };
  }

  private async lifecycle(e: Entry): Promise<PacketLifecycle> {
    const dstChainId = e.dstChainId ?? '';
    const src = parseDenomPath(e.data.denom);
    // What the receiver gets: the unescrowed native denom coming home, else a voucher of the longer path.
    const dstDenom = ibcDenom(denomAfterHop(src, { portId: e.srcPort, channelId: e.srcChannel }, { portId: e.dstPort, channelId: e.dstChannel }).denom);
    const srcDenom = src.trace.length === 0 ? src.base : `ibc/${denomHashHex(e.data.denom)}`;
    const dst = this.chains.get(dstChainId);
    let timeoutElapsed = false;
    if (dst && !e.receive) {
      timeoutElapsed =
        (e.timeoutHeight !== 0n && BigInt(dst.height()) >= e.timeoutHeight) || (e.timeoutTimestamp !== 0n && (await dst.latestTimeNs()) >= e.timeoutTimestamp);
    }
    return {
      srcChainId: e.srcChainId,
      dstChainId,
      srcPort: e.srcPort,
      srcChannel: e.srcChannel,
      dstPort: e.dstPort,
      dstChannel: e.dstChannel,
      sequence: e.sequence,
      denom: e.data.denom,
      amount: e.data.amount,
      sender: e.data.sender,
      receiver: e.data.receiver,
      send: await this.chainTx(e.send),
      ...(e.receive ? { receive: { ...(await this.chainTx(e.receive)), ...(e.receive.ackError ? { ackError: e.receive.ackError } : {}) } } : {}),
      ...(e.acknowledge
        ? { acknowledge: { ...(await this.chainTx(e.acknowledge)), ...(e.acknowledge.ackError ? { ackError: e.acknowledge.ackError } : {}) } }
        : {}),
      ...(e.timeout ? { timeout: await this.chainTx(e.timeout) } : {}),
      timeoutElapsed,
      dstDenom,
      srcDenom,
    };
  }
}
