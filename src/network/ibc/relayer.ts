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
import type { Logger } from 'pino';
import { Any } from 'cosmjs-types/google/protobuf/any';
import { Order, State as ChanState, type Packet } from 'cosmjs-types/ibc/core/channel/v1/channel';
import type { Height } from 'cosmjs-types/ibc/core/client/v1/client';
import { ClientState as TmClientState } from 'cosmjs-types/ibc/lightclients/tendermint/v1/tendermint';
import type { ResponseCheckTx, AbciEvent, RequestQuery, ResponseQuery } from '../../abci/types.js';
import { toBech32 } from '../../crypto/bech32.js';
import { toHexUpper } from '../../crypto/encoding.js';
import { sha256 } from '../../crypto/hash.js';
import type { Subscription } from '../../events/subscription.js';
import type { Header, Commit } from '../../types/block.js';
import { timestampToNs } from '../../types/time.js';
import type { ValidatorSet } from '../../types/validator-set.js';
import type { IbcStore } from '../../ibc/ibc-store.js';
import { attrOf, elapsed, packetOfEvent } from '../../ibc/handler.js';
import { hostKeys, IBC_STORE_KEY, ICS20_VERSION, TRANSFER_PORT } from '../../ibc/keys.js';
import { clientStateOf, consensusStateOf, tmHeaderAny, tmHeaderOf } from '../../ibc/light-client.js';
import { encodeIbcMsg, type IbcMsg } from '../../ibc/msgs.js';
import { encodeMerkleProof } from '../../ibc/proofs.js';
import { signRelayTx, type RelayerKey } from './relayer-key.js';
import { findOpenPath, inFlightPackets, type TxEventSearch } from './resume.js';

exactSizeBuffers();

/** What the relayer needs of one chain. */
export interface RelayChain {
  chainId: string;
  bech32Prefix: string;
  feeDenom: string;
  key: RelayerKey;
  /** Fee per unit of gas the chain accepts now. */
  gasPrice(): bigint;
  ibcStore(): IbcStore;
  accountNumber(address: Uint8Array): Promise<bigint>;
  accountSequence(address: Uint8Array): Promise<bigint>;
  broadcastTx(tx: Uint8Array): Promise<ResponseCheckTx>;
  subscribe(query: string, subscriber?: string): Subscription;
  height(): number;
  /** The header and commit of a committed height, and the validator set that signed it. */
  signedHeader(height: number): Promise<{ header: Header; commit: Commit; validators: ValidatorSet } | undefined>;
  /** The events of committed txs matching a tx_search query: a restarted relayer finds the packets in flight there. */
  txEvents?: TxEventSearch;
  /** The chain's ABCI Query (`/store/ibc/key` with `prove`: the proofs an outside relayer reads through `abci_query`). */
  query(req: RequestQuery): Promise<ResponseQuery>;
  /** Produces one block now: a proof of height h's state needs header h + 1, which an idle automine chain never makes. */
  mine(): Promise<void>;
}

export interface RelayerOptions {
  /** 'block': relay after every block of either chain (default); 'manual': only on flush(). */
  mode?: 'block' | 'manual';
  logger?: Logger;
  /** Gas limit of a relayer tx (default 2 000 000). */
  gasLimit?: bigint;
  /**
   * How long a relay tx may wait for its block (default 60 s). Past it (the tx was dropped from the
   * mempool: a devnet revert or drop), the relayer takes the account's sequence from the chain again
   * and the packets are relayed on a later round.
   */
  inclusionTimeoutMs?: number;
}

interface End {
  chain: RelayChain;
  clientId: string;
  connectionId: string;
  channelId: string;
  sequence: bigint;
  accountNumber: bigint;
}

interface TrackedPacket {
  packet: Packet;
  /** The ack the destination wrote, once seen. */
  ack?: Uint8Array;
}

export interface RelayerStatus {
  paused: boolean;
  mode: 'block' | 'manual';
  paths: { chainA: string; chainB: string; channelA: string; channelB: string; connectionA: string; connectionB: string; clientA: string; clientB: string }[];
  pending: { fromChainId: string; sequence: string; stage: 'receive' | 'acknowledge' | 'timeout' }[];
}

/** Packet messages per relay tx: well inside its gas limit (a receive costs ≈ 11 000 gas here). */
const MAX_MSGS_PER_TX = 50;

const height = (h: number): Height => ({ revisionNumber: 0n, revisionHeight: BigInt(h) });

export class Relayer {
  private a!: End;
  private b!: End;
  private readonly subs: Subscription[] = [];
  /** The subscriptions of txs waiting for their block: cancelled at stop (a halted chain never answers). */
  private readonly waiting = new Set<Subscription>();
  /** Packets by `<source chain id>/<sequence>` (one channel per chain pair). */
  private readonly packets = new Map<string, TrackedPacket & { from: 'a' | 'b' }>();
  private running: Promise<void> = Promise.resolve();
  private scheduled = false;
  private stopped = false;
  private signalStop: () => void = () => undefined;
  /** Resolves at stop(): a block the relayer asked a halted chain for is not waited for past it. */
  private readonly stopSignal = new Promise<void>((resolve) => (this.signalStop = resolve));
  private _paused = false;
  /** Set once both channel ends are open. */
  private open_ = false;
  readonly mode: 'block' | 'manual';
  private readonly gasLimit: bigint;
  private readonly inclusionTimeoutMs: number;

  constructor(
    private readonly chainA: RelayChain,
    private readonly chainB: RelayChain,
    private readonly opts: RelayerOptions = {},
  ) {
    this.mode = opts.mode ?? 'block';
    this.gasLimit = opts.gasLimit ?? 2_000_000n;
    this.inclusionTimeoutMs = opts.inclusionTimeoutMs ?? 60_000;
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
    // Clients of each other, from each chain's latest signed header.
    for (const [self, other] of [
      [this.a, this.b],
      [this.b, this.a],
    ] as const) {
      const sh = await this.latestSigned(other.chain);
      const events = await this.submit(self, [
        {
          kind: 'createClient',
          m: {
            clientState: clientStateOf(other.chain.chainId, BigInt(sh.header.height)),
            consensusState: consensusStateOf(sh.header),
            signer: this.signer(self),
          },
        },
      ]);
      self.clientId = attr(events, 'create_client', 'client_id');
    }
    const conn = await this.submit(this.a, [
      {
        kind: 'connOpenInit',
        m: {
          clientId: this.a.clientId,
          counterparty: { clientId: this.b.clientId, connectionId: '', prefix: { keyPrefix: new TextEncoder().encode('ibc') } },
          version: { identifier: '1', features: ['ORDER_ORDERED', 'ORDER_UNORDERED'] },
          delayPeriod: 0n,
          signer: this.signer(this.a),
        },
      },
    ]);
    this.a.connectionId = attr(conn, 'connection_open_init', 'connection_id');
    const tryEv = await this.withUpdate(this.b, this.a, async (proofHeight, at) => [
      {
        kind: 'connOpenTry',
        m: {
          clientId: this.b.clientId,
          previousConnectionId: '',
          counterparty: { clientId: this.a.clientId, connectionId: this.a.connectionId, prefix: { keyPrefix: new TextEncoder().encode('ibc') } },
          delayPeriod: 0n,
          counterpartyVersions: [{ identifier: '1', features: ['ORDER_ORDERED', 'ORDER_UNORDERED'] }],
          proofHeight,
          proofInit: await this.prove(this.a, hostKeys.connection(this.a.connectionId), at),
          proofClient: new Uint8Array(0),
          proofConsensus: new Uint8Array(0),
          consensusHeight: height(0),
          signer: this.signer(this.b),
          hostConsensusStateProof: new Uint8Array(0),
        },
      },
    ]);
    this.b.connectionId = attr(tryEv, 'connection_open_try', 'connection_id');
    await this.withUpdate(this.a, this.b, async (proofHeight, at) => [
      {
        kind: 'connOpenAck',
        m: {
          connectionId: this.a.connectionId,
          counterpartyConnectionId: this.b.connectionId,
          version: { identifier: '1', features: ['ORDER_ORDERED', 'ORDER_UNORDERED'] },
          proofHeight,
          proofTry: await this.prove(this.b, hostKeys.connection(this.b.connectionId), at),
          proofClient: new Uint8Array(0),
          proofConsensus: new Uint8Array(0),
          consensusHeight: height(0),
          signer: this.signer(this.a),
          hostConsensusStateProof: new Uint8Array(0),
        },
      },
    ]);
    await this.withUpdate(this.b, this.a, async (proofHeight, at) => [
      {
        kind: 'connOpenConfirm',
        m: {
          connectionId: this.b.connectionId,
          proofAck: await this.prove(this.a, hostKeys.connection(this.a.connectionId), at),
          proofHeight,
          signer: this.signer(this.b),
        },
      },
    ]);
    // The transfer channel.
    const chanInit = await this.submit(this.a, [
      {
        kind: 'chanOpenInit',
        m: {
          portId: TRANSFER_PORT,
          channel: {
            state: ChanState.STATE_INIT,
            ordering: Order.ORDER_UNORDERED,
            counterparty: { portId: TRANSFER_PORT, channelId: '' },
            connectionHops: [this.a.connectionId],
            version: ICS20_VERSION,
          },
          signer: this.signer(this.a),
        },
      },
    ]);
    this.a.channelId = attr(chanInit, 'channel_open_init', 'channel_id');
    const chanTry = await this.withUpdate(this.b, this.a, async (proofHeight, at) => [
      {
        kind: 'chanOpenTry',
        m: {
          portId: TRANSFER_PORT,
          previousChannelId: '',
          channel: {
            state: ChanState.STATE_TRYOPEN,
            ordering: Order.ORDER_UNORDERED,
            counterparty: { portId: TRANSFER_PORT, channelId: this.a.channelId },
            connectionHops: [this.b.connectionId],
            version: ICS20_VERSION,
          },
          counterpartyVersion: ICS20_VERSION,
          proofInit: await this.prove(this.a, hostKeys.channel(TRANSFER_PORT, this.a.channelId), at),
          proofHeight,
          signer: this.signer(this.b),
        },
      },
    ]);
    this.b.channelId = attr(chanTry, 'channel_open_try', 'channel_id');
    await this.withUpdate(this.a, this.b, async (proofHeight, at) => [
      {
        kind: 'chanOpenAck',
        m: {
          portId: TRANSFER_PORT,
          channelId: this.a.channelId,
          counterpartyChannelId: this.b.channelId,
          counterpartyVersion: ICS20_VERSION,
          proofTry: await this.prove(this.b, hostKeys.channel(TRANSFER_PORT, this.b.channelId), at),
          proofHeight,
          signer: this.signer(this.a),
        },
      },
    ]);
    await this.withUpdate(this.b, this.a, async (proofHeight, at) => [
      {
        kind: 'chanOpenConfirm',
        m: {
          portId: TRANSFER_PORT,
          channelId: this.b.channelId,
          proofAck: await this.prove(this.a, hostKeys.channel(TRANSFER_PORT, this.a.channelId), at),
          proofHeight,
          signer: this.signer(this.b),
        },
      },
    ]);
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
    this.signalStop();
    for (const s of this.subs) s.cancel('relayer stopped');
    for (const s of this.waiting) s.cancel('relayer stopped');
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
            m: { packet: p, acknowledgement: t.ack, proofAcked: new Uint8Array(0), proofHeight: height(0), signer: this.signer(src) },
          });
          ending.push(key);
          continue;
        }
        const received = view.store.has(hostKeys.receipt(p.destinationPort, p.destinationChannel, p.sequence));
        if (received) continue; // its ack event comes with the receiving block
        if (timedOutAt(p, view.height, view.timeNs)) {
          toSrc.push({
            kind: 'timeout',
            m: { packet: p, proofUnreceived: new Uint8Array(0), proofHeight: height(0), nextSequenceRecv: 0n, signer: this.signer(src) },
          });
          ending.push(key);
        } else if (!this.willTimeOut(p, dst)) {
          toDst.push({ kind: 'recvPacket', m: { packet: p, proofCommitment: new Uint8Array(0), proofHeight: height(0), signer: this.signer(dst) } });
        }
      }
      // At most MAX_MSGS_PER_TX packet messages a tx (a tx has a gas limit); one direction failing does not stop the other.
      try {
        for (let i = 0; i < toDst.length; i += MAX_MSGS_PER_TX)
          await this.withUpdate(dst, src, (h, at) => Promise.all(toDst.slice(i, i + MAX_MSGS_PER_TX).map((m) => this.withProof(m, h, src, at))));
        for (let i = 0; i < toSrc.length; i += MAX_MSGS_PER_TX) {
          // Proven at the height whose store showed no receipt (acknowledgements need no more than it either).
          await this.withUpdate(src, dst, (h, at) => Promise.all(toSrc.slice(i, i + MAX_MSGS_PER_TX).map((m) => this.withProof(m, h, dst, at))), view?.height);
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

  /**
   * A tx on `self`: its client of `other` updated when needed, then the messages, built with the
   * proof height and the height whose state their proofs show (proof height − 1: a header commits
   * to the app hash of the block before it). The proven state must be at least `other`'s committed
   * height now (or `state`): when the client knows no header after it, `other` is updated to its
   * latest header, after one more block of `other` if it has none yet (an idle automine chain).
   */
  private async withUpdate(self: End, other: End, msgs: (proofHeight: Height, queryHeight: number) => Promise<IbcMsg[]>, state?: number): Promise<AbciEvent[]> {
    const cs = TmClientState.decode(Any.decode(self.chain.ibcStore().get(hostKeys.clientState(self.clientId))!).value);
    const trusted = Number(cs.latestHeight.revisionHeight);
    const need = (state ?? other.chain.height()) + 1;
    const update: IbcMsg[] = [];
    let proofHeight = cs.latestHeight;
    if (trusted < need) {
      if (other.chain.height() < need) {
        await Promise.race([other.chain.mine(), this.stopSignal]);
        if (this.stopped) throw new Error('relayer stopped');
      }
      const latest = other.chain.height();
      const target = await other.chain.signedHeader(latest);
      const base = await other.chain.signedHeader(trusted);
      if (!target || !base) throw new Error(`relayer: no signed header of ${other.chain.chainId} at ${latest} or ${trusted}`);
      const header = tmHeaderOf({
        header: target.header,
        commit: target.commit,
        validators: target.validators,
        trustedHeight: cs.latestHeight,
        trustedValidators: base.validators,
      });
      update.push({ kind: 'updateClient', m: { clientId: self.clientId, clientMessage: tmHeaderAny(header), signer: this.signer(self) } });
      proofHeight = { revisionNumber: cs.latestHeight.revisionNumber, revisionHeight: BigInt(latest) };
    }
    return this.submit(self, [...update, ...(await msgs(proofHeight, Number(proofHeight.revisionHeight) - 1))]);
  }

  /** The ICS-23 proof (MerkleProof bytes) of `key` in `end`'s IBC store at `height`, through its ABCI Query as any relayer asks it. */
  private async prove(end: End, key: string, height: number): Promise<Uint8Array> {
    const r = await end.chain.query({ path: `/store/${IBC_STORE_KEY}/key`, data: new TextEncoder().encode(key), height, prove: true });
    if (r.code !== 0 || !r.proofOps) throw new Error(`relayer: no proof of ${key} at height ${height} of ${end.chain.chainId}: ${r.log}`);
    return encodeMerkleProof(r.proofOps.map((op) => op.data));
  }

  /** A packet message with its proof height and its proof from `from` (the commitment, ack or absent receipt). */
  private async withProof(m: IbcMsg, h: Height, from: End, at: number): Promise<IbcMsg> {
    switch (m.kind) {
      case 'recvPacket': {
        const p = m.m.packet;
        return {
          kind: m.kind,
          m: { ...m.m, proofHeight: h, proofCommitment: await this.prove(from, hostKeys.commitment(p.sourcePort, p.sourceChannel, p.sequence), at) },
        };
      }
      case 'acknowledgement': {
        const p = m.m.packet;
        return {
          kind: m.kind,
          m: { ...m.m, proofHeight: h, proofAcked: await this.prove(from, hostKeys.ack(p.destinationPort, p.destinationChannel, p.sequence), at) },
        };
      }
      case 'timeout': {
        const p = m.m.packet;
        return {
          kind: m.kind,
          m: { ...m.m, proofHeight: h, proofUnreceived: await this.prove(from, hostKeys.receipt(p.destinationPort, p.destinationChannel, p.sequence), at) },
        };
      }
      default:
        return m;
    }
  }

  private signer(end: End): string {
    return toBech32(end.chain.bech32Prefix, end.chain.key.address);
  }

  private async latestSigned(chain: RelayChain) {
    const sh = await chain.signedHeader(chain.height());
    if (!sh) throw new Error(`relayer: chain ${chain.chainId} has no signed block yet`);
    return sh;
  }

  /** Signs, broadcasts and waits for the tx's block; resolves with its events, throws on a failed tx. */
  private async submit(end: End, msgs: IbcMsg[]): Promise<AbciEvent[]> {
    const c = end.chain;
    for (let attempt = 0; ; attempt++) {
      const tx = signRelayTx({
        key: c.key,
        chainId: c.chainId,
        accountNumber: end.accountNumber,
        sequence: end.sequence,
        msgs: msgs.map(encodeIbcMsg),
        gasLimit: this.gasLimit,
        fee: { denom: c.feeDenom, amount: c.gasPrice() * this.gasLimit },
        memo: 'chainlet-relayer',
      });
      const hash = toHexUpper(sha256(tx));
      if (this.stopped) throw new Error('relayer stopped');
      const sub = c.subscribe(`tm.event = 'Tx' AND tx.hash = '${hash}'`, `relayer-wait-${hash}`);
      this.waiting.add(sub);
      try {
        const check = await c.broadcastTx(tx);
        if (check.code !== 0) {
          const m = /expected (\d+), got/.exec(check.log);
          if (m && attempt === 0) {
            end.sequence = BigInt(m[1]!);
            continue;
          }
          throw new Error(`relayer tx refused on ${c.chainId}: ${check.log}`);
        }
        end.sequence += 1n;
        this.opts.logger?.debug({ chainId: c.chainId, hash, msgs: msgs.map((m) => m.kind) }, 'relay tx sent');
        let timer: NodeJS.Timeout | undefined;
        const timedOut = new Promise<'timeout'>((res) => {
          timer = setTimeout(() => res('timeout'), this.inclusionTimeoutMs);
        });
        const msg = await Promise.race([sub.next(), timedOut]).finally(() => clearTimeout(timer));
        if (msg === 'timeout') {
          end.sequence = await c.accountSequence(c.key.address);
          throw new Error(
            `relayer: tx ${hash} was not in a block of ${c.chainId} after ${this.inclusionTimeoutMs} ms; the sequence is read again and the packets retried`,
          );
        }
        if (!msg || msg.data.type !== 'Tx') throw new Error(`relayer: no result for tx ${hash} on ${c.chainId}`);
        const r = msg.data.value.txResult.result;
        if (r.code !== 0) throw new Error(`relayer tx failed on ${c.chainId} (code ${r.code}): ${r.log}`);
        return r.events;
      } finally {
        this.waiting.delete(sub);
        sub.cancel('done');
      }
    }
  }
}

function attr(events: AbciEvent[], type: string, key: string): string {
  const v = events.find((e) => e.type === type)?.attributes.find((a) => a.key === key)?.value;
  if (v === undefined) throw new Error(`relayer: no ${type}.${key} in the tx's events`);
  return v;
}

/** Whether `p` has timed out on a destination at `height` with block time `timeNs`, by the destination's own rule. */
function timedOutAt(p: Packet, height: number, timeNs: bigint): boolean {
  return elapsed(p.timeoutHeight, p.timeoutTimestamp, BigInt(height), timeNs);
}
