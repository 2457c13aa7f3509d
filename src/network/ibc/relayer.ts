/**
 * The network's in-process IBC relayer between two chains, doing what Hermes does for a devnet:
 *
 *   open()   create a 07-tendermint client on each chain, the connection handshake
 *            (Init → Try → Ack → Confirm) and the `transfer` channel handshake, each step a signed
 *            tx in a block of its chain, each counterparty step after a client update
 *   relay    after each block (default) or on flush(): packets sent and not received are received
 *            on the destination (MsgUpdateClient + MsgRecvPacket), acknowledgements written are
 *            relayed back (MsgAcknowledgement), packets whose timeout passed on the destination are
 *            timed out on the source (MsgTimeout, refund): when the destination's committed
 *            height (or its block time) is past the timeout and its committed store at that height
 *            has no receipt, proven absent (the source verifies it: one packet is never both
 *            refunded and minted)
 *   pause()  stops relaying (a demo of a pending or timed-out transfer); resume() relays the backlog
 *
 * Client updates carry the counterparty's real signed header, commit and validator set; the chain
 * verifies +2/3 of the signatures (src/ibc/light-client.ts). Every handshake and packet message
 * carries the ICS-23 proof of what it claims, read with the chain's ABCI Query (`/store/ibc/key`,
 * `prove`) at proof height − 1, as an outside relayer reads it over `abci_query`; the receiving
 * chain verifies it (src/ibc/proofs.ts).
 */
import { exactSizeBuffers } from '../../codec/cosmjs-types.js';
import type { Packet } from 'cosmjs-types/ibc/core/channel/v1/channel';
import type { AbciEvent } from '../../abci/types.js';
import type { Subscription } from '../../events/subscription.js';
import { timestampToNs } from '../../types/time.js';
import type { IbcStore } from '../../ibc/ibc-store.js';
import { elapsed } from '../../ibc/channel-ends.js';
import { attrOf, packetOfEvent } from '../../ibc/ibc-events.js';
import { hostKeys } from '../../ibc/keys.js';
import type { IbcMsg } from '../../ibc/msgs.js';
import { openPath } from './open-path.js';
import { RelayTxSender } from './relay-tx.js';
import { height, type End, type RelayChain, type RelayerOptions, type RelayerStatus, type TrackedPacket } from './relay-types.js';
import { findOpenPath, inFlightPackets, type TxEventSearch } from './resume.js';

exactSizeBuffers();

/** Packet messages per relay tx: well inside its gas limit (a receive costs ≈ 11 000 gas here). */
const MAX_MSGS_PER_TX = 50;

export class Relayer {
  private a!: End;
  private b!: End;
  private readonly subs: Subscription[] = [];
  /** Packets by `<source chain id>/<sequence>` (one channel per chain pair). */
  private readonly packets = new Map<string, TrackedPacket & { from: 'a' | 'b' }>();
  private running: Promise<void> = Promise.resolve();
  private scheduled = false;
  private stopped = false;
  private _paused = false;
  /** Set once both channel ends are open. */
  private open_ = false;
  readonly mode: 'block' | 'manual';
  private readonly sender: RelayTxSender;

  constructor(
    private readonly chainA: RelayChain,
    private readonly chainB: RelayChain,
    private readonly opts: RelayerOptions = {},
  ) {
    this.mode = opts.mode ?? 'block';
    this.sender = new RelayTxSender(opts.gasLimit ?? 2_000_000n, opts.inclusionTimeoutMs ?? 60_000, opts.logger);
  }

  get paused(): boolean {
    return this._paused;
  }

  /** Clients, connection and the transfer channel; then relaying starts. */
  async open(): Promise<void> {
    const A = this.chainA;
    const B = this.chainB;
    this.a = {
      chain: A,
      clientId: '',
      connectionId: '',
      channelId: '',
      sequence: await A.accountSequence(A.key.address),
      accountNumber: await A.accountNumber(A.key.address),
    };
    this.b = {
      chain: B,
      clientId: '',
      connectionId: '',
      channelId: '',
      sequence: await B.accountSequence(B.key.address),
      accountNumber: await B.accountNumber(B.key.address),
    };
    // Follow both chains from the start (a packet may be sent as soon as one end is open): packets
    // sent, acknowledgements written, new blocks. Nothing is relayed before the channel is open.
    for (const [end, side] of [
      [this.a, 'a'],
      [this.b, 'b'],
    ] as const) {
      const tx = end.chain.subscribe(`tm.event = 'Tx'`, `relayer-tx-${end.chain.chainId}`);
      tx.setListener((m) => {
        if (m.data.type === 'Tx' && this.observe(side, m.data.value.txResult.result.events) && this.mode === 'block' && this.open_) this.schedule();
      });
      const blocks = end.chain.subscribe(`tm.event = 'NewBlock'`, `relayer-block-${end.chain.chainId}`);
      // A block wakes the relayer only while it tracks packets (a timeout may have come due); a
      // block's own packets wake it through their tx events. Most blocks carry none: no work.
      blocks.setListener(() => {
        if (this.mode === 'block' && this.open_ && this.packets.size > 0) this.schedule();
      });
      this.subs.push(tx, blocks);
    }
    // Restarted on persisted chains: the channel is open already; pick it up with its packets in flight.
    const existing = findOpenPath(A.ibcStore(), A.chainId, B.ibcStore(), B.chainId);
    if (existing) {
      Object.assign(this.a, existing.a);
      Object.assign(this.b, existing.b);
      await this.recoverPackets();
      this.opts.logger?.info(
        { a: A.chainId, b: B.chainId, channelA: this.a.channelId, channelB: this.b.channelId, pending: this.packets.size },
        'ibc channel resumed',
      );
      this.open_ = true;
      if (this.mode === 'block') this.schedule();
      return;
    }
    await openPath(this.sender, this.a, this.b);
    this.opts.logger?.info({ a: A.chainId, b: B.chainId, channelA: this.a.channelId, channelB: this.b.channelId }, 'ibc channel open');
    this.open_ = true;
    if (this.mode === 'block') this.schedule();
  }

  /** The packets each side's store still commits to (sent before a restart), tracked as if seen sent. */
  private async recoverPackets(): Promise<void> {
    for (const [src, dst, from] of [
      [this.a, this.b, 'a'],
      [this.b, this.a, 'b'],
    ] as const) {
      // A chain without a tx index finds no events: its packets are named below, not relayed.
      const noIndex: TxEventSearch = async () => [];
      const found = await inFlightPackets(
        { store: src.chain.ibcStore(), search: src.chain.txEvents ?? noIndex, channelId: src.channelId },
        { store: dst.chain.ibcStore(), search: dst.chain.txEvents ?? noIndex, channelId: dst.channelId },
      );
      for (const { packet, ack } of found.packets) {
        const key = `${src.chain.chainId}/${packet.sequence}`;
        if (!this.packets.has(key)) this.packets.set(key, { packet, from, ...(ack ? { ack } : {}) });
      }
      if (found.missing.length > 0)
        this.opts.logger?.warn(
          { chainId: src.chain.chainId, sequences: found.missing.map(String) },
          'packets in flight without a send_packet event in the tx index: not relayed',
        );
    }
  }

  status(): RelayerStatus {
    const pending: RelayerStatus['pending'] = [];
    for (const t of this.packets.values()) {
      const src = t.from === 'a' ? this.a : this.b;
      // Acknowledged or timed out (by this relayer's last flush, or by anyone): no longer pending.
      if (!this.committed(src, t.packet)) continue;
      pending.push({
        fromChainId: src.chain.chainId,
        sequence: t.packet.sequence.toString(),
        stage: t.ack ? 'acknowledge' : this.timedOut(t.packet, t.from === 'a' ? this.b : this.a) ? 'timeout' : 'receive',
      });
    }
    return {
      paused: this._paused,
      mode: this.mode,
      paths: this.a
        ? [
            {
              chainA: this.a.chain.chainId,
              chainB: this.b.chain.chainId,
              channelA: this.a.channelId,
              channelB: this.b.channelId,
              connectionA: this.a.connectionId,
              connectionB: this.b.connectionId,
              clientA: this.a.clientId,
              clientB: this.b.clientId,
            },
          ]
        : [],
      pending,
    };
  }

  pause(): void {
    this._paused = true;
  }

  resume(): void {
    this._paused = false;
    this.schedule();
  }

  /** Relays everything pending now (even when paused or in manual mode) and resolves when done. */
  flush(): Promise<void> {
    this.running = this.running.then(() => this.relayOnce(true));
    return this.running;
  }

  /** Resolves when the relayer has nothing in flight (tests, demos). */
  async idle(): Promise<void> {
    for (;;) {
      const r = this.running;
      await r;
      if (r === this.running && !this.scheduled) return;
      // A relay is scheduled for the next turn of the event loop: let it start.
      if (this.scheduled) await new Promise((res) => setImmediate(res));
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.sender.stop();
    for (const s of this.subs) s.cancel('relayer stopped');
    await this.running.catch(() => undefined);
  }

  // ---------------------------------------------------------------- internals

  private schedule(): void {
    if (this._paused || this.stopped || this.scheduled) return;
    this.scheduled = true;
    // After the block's events are all delivered.
    setImmediate(() => {
      this.scheduled = false;
      this.running = this.running.then(() => this.relayOnce(false)).catch((err: unknown) => this.opts.logger?.error({ err }, 'relay failed'));
    });
  }

  /** Tracks the packets and acknowledgements of a tx's events; true when it found any (work to relay). */
  private observe(side: 'a' | 'b', events: AbciEvent[]): boolean {
    const end = side === 'a' ? this.a : this.b;
    let found = false;
    for (const e of events) {
      if (e.type === 'send_packet' && attrOf(e, 'packet_src_channel') === end.channelId) {
        const packet = packetOfEvent(e);
        this.packets.set(`${end.chain.chainId}/${packet.sequence}`, { packet, from: side });
        found = true;
      } else if (e.type === 'write_acknowledgement' && attrOf(e, 'packet_dst_channel') === end.channelId) {
        const other = side === 'a' ? this.b : this.a;
        const t = this.packets.get(`${other.chain.chainId}/${attrOf(e, 'packet_sequence')}`);
        if (t) {
          t.ack = Uint8Array.from(Buffer.from(attrOf(e, 'packet_ack_hex'), 'hex'));
          found = true;
        }
      }
    }
    return found;
  }

  /** Whether the source still holds the packet's commitment (deleted by its acknowledgement or timeout). */
  private committed(src: End, p: Packet): boolean {
    return src.chain.ibcStore().has(hostKeys.commitment(p.sourcePort, p.sourceChannel, p.sequence));
  }

  private timedOut(p: Packet, dst: End): boolean {
    return timedOutAt(p, dst.chain.height(), this.latestTimeNs(dst));
  }

  private latestTime = new Map<string, bigint>();

  private latestTimeNs(end: End): bigint {
    return this.latestTime.get(end.chain.chainId) ?? 0n;
  }

  private async relayOnce(force: boolean): Promise<void> {
    if (this.stopped || !this.open_ || (this._paused && !force)) return;
    // Most blocks carry no packet: nothing to read (the headers below only date the timeouts).
    if (this.packets.size === 0) return;
    for (const end of [this.a, this.b]) {
      const sh = await end.chain.signedHeader(end.chain.height());
      if (sh) this.latestTime.set(end.chain.chainId, timestampToNs(sh.header.time));
    }
    for (const [src, dst, from] of [
      [this.a, this.b, 'a'],
      [this.b, this.a, 'b'],
    ] as const) {
      // The destination as committed at one height: its store and that height's block time.
      const view = await this.committedView(dst);
      const toDst: IbcMsg[] = [];
      const toSrc: IbcMsg[] = [];
      /** The packets `toSrc` ends (same order): tracked no more once their tx is in a block. */
      const ending: string[] = [];
      for (const [key, t] of this.packets) {
        if (t.from !== from) continue;
        const p = t.packet;
        if (!this.committed(src, p)) {
          this.packets.delete(key); // acknowledged or timed out
          continue;
        }
        if (!view) continue;
        if (t.ack) {
          // Proven at the view's height: relayed once that height's store holds the ack (else next round).
          if (!view.store.has(hostKeys.ack(p.destinationPort, p.destinationChannel, p.sequence))) continue;
          toSrc.push({
            kind: 'acknowledgement',
            m: { packet: p, acknowledgement: t.ack, proofAcked: new Uint8Array(0), proofHeight: height(0), signer: this.sender.signer(src) },
          });
          ending.push(key);
          continue;
        }
        const received = view.store.has(hostKeys.receipt(p.destinationPort, p.destinationChannel, p.sequence));
        if (received) continue; // its ack event comes with the receiving block
        if (timedOutAt(p, view.height, view.timeNs)) {
          toSrc.push({
            kind: 'timeout',
            m: { packet: p, proofUnreceived: new Uint8Array(0), proofHeight: height(0), nextSequenceRecv: 0n, signer: this.sender.signer(src) },
          });
          ending.push(key);
        } else if (!this.willTimeOut(p, dst)) {
          toDst.push({ kind: 'recvPacket', m: { packet: p, proofCommitment: new Uint8Array(0), proofHeight: height(0), signer: this.sender.signer(dst) } });
        }
      }
      // At most MAX_MSGS_PER_TX packet messages a tx (a tx has a gas limit); one direction failing does not stop the other.
      try {
        for (let i = 0; i < toDst.length; i += MAX_MSGS_PER_TX)
          await this.sender.withUpdate(dst, src, (h, at) => Promise.all(toDst.slice(i, i + MAX_MSGS_PER_TX).map((m) => this.sender.withProof(m, h, src, at))));
        for (let i = 0; i < toSrc.length; i += MAX_MSGS_PER_TX) {
          // Proven at the height whose store showed no receipt (acknowledgements need no more than it either).
          await this.sender.withUpdate(
            src,
            dst,
            (h, at) => Promise.all(toSrc.slice(i, i + MAX_MSGS_PER_TX).map((m) => this.sender.withProof(m, h, dst, at))),
            view?.height,
          );
          for (const key of ending.slice(i, i + MAX_MSGS_PER_TX)) this.packets.delete(key);
        }
      } catch (err) {
        if (this.stopped) return;
        this.opts.logger?.error({ err, from: src.chain.chainId, to: dst.chain.chainId }, 'relay failed; retried after the next block');
      }
    }
  }

  /**
   * A chain's committed IBC store with the height it was committed at and that block's time, read
   * together (the store first: the app commits before the engine moves its height, so the store is
   * never older than the height). undefined before its first block.
   */
  private async committedView(end: End): Promise<{ height: number; timeNs: bigint; store: IbcStore } | undefined> {
    const store = end.chain.ibcStore();
    const h = end.chain.height();
    const sh = await end.chain.signedHeader(h);
    return sh && { height: h, timeNs: timestampToNs(sh.header.time), store };
  }

  /** The destination's next block would be past the timeout: a receive would fail; wait to time it out. */
  private willTimeOut(p: Packet, dst: End): boolean {
    return p.timeoutHeight.revisionHeight !== 0n && BigInt(dst.chain.height()) + 1n >= p.timeoutHeight.revisionHeight;
  }
}

/** Whether `p` has timed out on a destination at `height` with block time `timeNs`, by the destination's own rule. */
function timedOutAt(p: Packet, height: number, timeNs: bigint): boolean {
  return elapsed(p.timeoutHeight, p.timeoutTimestamp, BigInt(height), timeNs);
}
