/**
 * What the network knows of each IBC packet, read from its chains' tx events as an indexer does:
 * the tx that sent it, the destination's receive (with an error acknowledgement, if written), the
 * source's acknowledgement or timeout. `/v2/tx/status` follows a tx's transfers through it.
 */
import type { AbciEvent } from '../../abci/types.js';
import { toHexUpper } from '../../crypto/encoding.js';
import { txHash } from '../../types/txs.js';
import type { Subscription } from '../../events/subscription.js';
import { attrOf, packetOfEvent } from '../../ibc/ibc-events.js';
import { decodePacketData, denomAfterHop, denomHashHex, ibcDenom, parseAck, parseDenomPath } from '../../ibc/keys.js';
import type { PacketChainTx, PacketLifecycle } from '../../rpc/routing/transfer-status.js';

export interface IndexedChain {
  chainId: string;
  subscribe(query: string, subscriber?: string): Subscription;
  height(): number;
  /** RFC 3339 time of a committed block. */
  blockTime(height: number): Promise<string | undefined>;
  /** The latest block's time, ns since the epoch. */
  latestTimeNs(): Promise<bigint>;
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
}

/** Packets remembered (the oldest are forgotten first: a status of a long-gone transfer then shows no transfers). */
const MAX_PACKETS = 10_000;

export class PacketIndex {
  private readonly bySource = new Map<string, Entry>();
  /** `<dst chain>/<dst port>/<dst channel>` → the source chain (from the channel ends the relayer opened). */
  private readonly routes = new Map<string, string>();
  private readonly byTx = new Map<string, string[]>();
  private readonly subs: Subscription[] = [];
  private readonly chains = new Map<string, IndexedChain>();

  constructor(
    chains: IndexedChain[],
    private readonly explorerLink: (txHash: string) => string,
  ) {
    for (const c of chains) {
      this.chains.set(c.chainId, c);
      const sub = c.subscribe(`tm.event = 'Tx'`, `packet-index-${c.chainId}`);
      sub.setListener((m) => {
        if (m.data.type !== 'Tx') return;
        const r = m.data.value.txResult;
        if (r.result.code !== 0 || !r.result.events.some((e) => PACKET_EVENTS.has(e.type))) return; // most txs: no hash needed
        const cometHash = toHexUpper(txHash(r.tx));
        const ethHash = r.result.events.find((e) => e.type === 'ethereum_tx')?.attributes.find((a) => a.key === 'ethereumTxHash')?.value;
        this.observe(c.chainId, { chainId: c.chainId, txHash: ethHash ?? cometHash, cometHash, height: r.height }, r.result.events);
      });
      this.subs.push(sub);
    }
  }

  /** Tells the index which channel ends face each other (the relayer's paths). */
  connect(a: { chainId: string; port: string; channel: string }, b: { chainId: string; port: string; channel: string }): void {
    this.routes.set(`${b.chainId}/${b.port}/${b.channel}`, a.chainId);
    this.routes.set(`${a.chainId}/${a.port}/${a.channel}`, b.chainId);
  }

  stop(): void {
    for (const s of this.subs) s.cancel('packet index stopped');
  }

  /** The packets a tx sent, in the order it sent them, with what happened to each. */
  async transfersOf(chainId: string, cometHash: Uint8Array): Promise<PacketLifecycle[]> {
    const keys = this.byTx.get(`${chainId}/${toHexUpper(cometHash)}`) ?? [];
    const out: PacketLifecycle[] = [];
    for (const k of keys) {
      const e = this.bySource.get(k);
      if (e) out.push(await this.lifecycle(e));
    }
    return out;
  }

  /** The latest packets sent (newest first), with what happened to each. */
  async recent(limit: number): Promise<PacketLifecycle[]> {
    const entries = [...this.bySource.values()].slice(-limit).reverse();
    return Promise.all(entries.map((e) => this.lifecycle(e)));
  }

  private observe(chainId: string, at: TxAt, events: AbciEvent[]): void {
    for (const e of events) {
      if (e.type === 'send_packet') {
        const p = packetOfEvent(e);
        const data = decodePacketData(p.data);
        if (!data) continue;
        const key = `${chainId}/${p.sourcePort}/${p.sourceChannel}/${p.sequence}`;
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
