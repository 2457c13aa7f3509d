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
import { Any } from 'cosmjs-types/google/protobuf/any';
import { ClientState as TmClientState, ConsensusState as TmConsensusState, Header as TmHeader } from 'cosmjs-types/ibc/lightclients/tendermint/v1/tendermint';
import { Channel, Order, State as ChanState, type Packet } from 'cosmjs-types/ibc/core/channel/v1/channel';
import { ResponseResultType } from 'cosmjs-types/ibc/core/channel/v1/tx';
import type { MsgTransfer } from 'cosmjs-types/ibc/applications/transfer/v1/tx';
import { ClientPaths, ConnectionEnd, State as ConnState } from 'cosmjs-types/ibc/core/connection/v1/connection';
import type { Height } from 'cosmjs-types/ibc/core/client/v1/client';
import type { AbciEvent } from '../abci/types.js';
import { CosmosTxError } from '../sdk/errors.js';
import { fromBech32 } from '../crypto/bech32.js';
import { bytesEqual } from '../crypto/encoding.js';
import { ev, type MultiDenomBank } from './bank.js';
import type { IbcStore } from './ibc-store.js';
import {
  ackCommitment,
  CLIENT_TYPE,
  COMMITMENT_PREFIX,
  decodeSeq,
  encodeSeq,
  decodePacketData,
  denomAfterHop,
  denomHashHex,
  denomPath,
  encodePacketData,
  errorAck,
  escrowAddress,
  hostKeys,
  ibcDenom,
  ICS20_VERSION,
  packetCommitment,
  parseAck,
  parseDenomPath,
  successAck,
  TRANSFER_MODULE_ADDRESS,
  TRANSFER_PORT,
  type Denom,
} from './keys.js';
import { verifyTmHeader } from './light-client.js';
import { verifyIbcMembership, verifyIbcNonMembership } from './proofs.js';
import { responseCodec, type IbcMsg } from './msgs.js';

exactSizeBuffers();

export interface IbcExecContext {
  store: IbcStore;
  bank: MultiDenomBank;
  chainId: string;
  bech32Prefix: string;
  height: number;
  /** Block time, ns since the epoch. */
  timeNs: bigint;
  /** Charges gas (the SDK's KV costs). */
  gas(amount: bigint, what: string): void;
  /** Nested cache over the IBC store and the native balances (an app callback that fails is undone). */
  cache: { checkpoint(): Promise<void>; commit(): Promise<void>; revert(): Promise<void> };
}

export interface IbcMsgResult {
  events: AbciEvent[];
  response: { typeUrl: string; value: Uint8Array };
}

/** ibc-go's error codespaces and codes (core/errors, 02-client, 03-connection, 04-channel, transfer). */
const err = {
  invalidAddress: (m: string) => new CosmosTxError(5, `${m}: invalid address`, 'ibc'),
  invalidCoins: (m: string) => new CosmosTxError(6, `${m}: invalid coins`, 'ibc'),
  invalidRequest: (m: string) => new CosmosTxError(8, `${m}: invalid request`, 'ibc'),
  clientNotFound: (id: string) => new CosmosTxError(5, `client not found: ${id}: light client not found`, 'client'),
  clientNotActive: (m: string) => new CosmosTxError(29, `${m}: client state is not active`, 'client'),
  invalidHeader: (m: string) => new CosmosTxError(21, `${m}: invalid client header`, 'client'),
  consensusNotFound: (id: string, h: string) =>
    new CosmosTxError(7, `consensus state not found for client ${id} at height ${h}: consensus state not found`, 'client'),
  connectionNotFound: (id: string) => new CosmosTxError(3, `${id}: connection not found`, 'connection'),
  connectionState: (m: string) => new CosmosTxError(5, `${m}: invalid connection state`, 'connection'),
  channelNotFound: (port: string, ch: string) => new CosmosTxError(3, `port ID (${port}) channel ID (${ch}): channel not found`, 'channel'),
  channelState: (m: string) => new CosmosTxError(5, `${m}: invalid channel state`, 'channel'),
  invalidPacket: (m: string) => new CosmosTxError(13, `${m}: invalid packet`, 'channel'),
  timeoutElapsed: (m: string) => new CosmosTxError(12, `${m}: packet timeout elapsed`, 'channel'),
  timeoutNotReached: (m: string) => new CosmosTxError(22, `${m}: timeout not reached`, 'channel'),
  invalidVersion: (m: string) => new CosmosTxError(3, `${m}: invalid ICS20 version`, 'transfer'),
};

const KV_READ = 1000n;
const KV_WRITE = 2000n;
const PER_BYTE_WRITE = 30n;

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
    case 'connOpenInit': {
      const id = nextId(ctx, hostKeys.nextConnectionSequence, 'connection');
      requireClient(ctx, msg.m.clientId);
      const end: ConnectionEnd = {
        clientId: msg.m.clientId,
        versions: [msg.m.version ?? { identifier: '1', features: ['ORDER_ORDERED', 'ORDER_UNORDERED'] }],
        state: ConnState.STATE_INIT,
        counterparty: msg.m.counterparty,
        delayPeriod: msg.m.delayPeriod,
      };
      putConnection(ctx, id, end);
      addClientConnection(ctx, msg.m.clientId, id);
      events.push(connectionEvent('connection_open_init', id, end));
      break;
    }
    case 'connOpenTry': {
      requireClient(ctx, msg.m.clientId);
      const id = nextId(ctx, hostKeys.nextConnectionSequence, 'connection');
      const end: ConnectionEnd = {
        clientId: msg.m.clientId,
        versions: msg.m.counterpartyVersions.slice(0, 1),
        state: ConnState.STATE_TRYOPEN,
        counterparty: msg.m.counterparty,
        delayPeriod: msg.m.delayPeriod,
      };
      // The counterparty's INIT end, as it must be stored there.
      const expected: ConnectionEnd = {
        clientId: msg.m.counterparty.clientId,
        versions: msg.m.counterpartyVersions,
        state: ConnState.STATE_INIT,
        counterparty: { clientId: msg.m.clientId, connectionId: '', prefix: { keyPrefix: COMMITMENT_PREFIX } },
        delayPeriod: msg.m.delayPeriod,
      };
      verifyState(
        ctx,
        'connection handshake open try failed',
        'connection state',
        end,
        msg.m.proofHeight,
        msg.m.proofInit,
        hostKeys.connection(msg.m.counterparty.connectionId),
        ConnectionEnd.encode(expected).finish(),
      );
      putConnection(ctx, id, end);
      addClientConnection(ctx, msg.m.clientId, id);
      events.push(connectionEvent('connection_open_try', id, end));
      break;
    }
    case 'connOpenAck': {
      const end = getConnection(ctx, msg.m.connectionId);
      if (end.state !== ConnState.STATE_INIT) throw err.connectionState(`connection state is not INIT (got ${ConnState[end.state]})`);
      if (!msg.m.version) throw err.invalidRequest('counterparty version cannot be empty');
      const expected: ConnectionEnd = {
        clientId: end.counterparty.clientId,
        versions: [msg.m.version],
        state: ConnState.STATE_TRYOPEN,
        counterparty: { clientId: end.clientId, connectionId: msg.m.connectionId, prefix: { keyPrefix: COMMITMENT_PREFIX } },
        delayPeriod: end.delayPeriod,
      };
      verifyState(
        ctx,
        'connection handshake open ack failed',
        'connection state',
        end,
        msg.m.proofHeight,
        msg.m.proofTry,
        hostKeys.connection(msg.m.counterpartyConnectionId),
        ConnectionEnd.encode(expected).finish(),
      );
      end.state = ConnState.STATE_OPEN;
      end.versions = [msg.m.version];
      end.counterparty = { ...end.counterparty, connectionId: msg.m.counterpartyConnectionId };
      putConnection(ctx, msg.m.connectionId, end);
      events.push(connectionEvent('connection_open_ack', msg.m.connectionId, end));
      break;
    }
    case 'connOpenConfirm': {
      const end = getConnection(ctx, msg.m.connectionId);
      if (end.state !== ConnState.STATE_TRYOPEN) throw err.connectionState(`connection state is not TRYOPEN (got ${ConnState[end.state]})`);
      const expected: ConnectionEnd = {
        clientId: end.counterparty.clientId,
        versions: end.versions,
        state: ConnState.STATE_OPEN,
        counterparty: { clientId: end.clientId, connectionId: msg.m.connectionId, prefix: { keyPrefix: COMMITMENT_PREFIX } },
        delayPeriod: end.delayPeriod,
      };
      verifyState(
        ctx,
        'connection handshake open confirm failed',
        'connection state',
        end,
        msg.m.proofHeight,
        msg.m.proofAck,
        hostKeys.connection(end.counterparty.connectionId),
        ConnectionEnd.encode(expected).finish(),
      );
      end.state = ConnState.STATE_OPEN;
      putConnection(ctx, msg.m.connectionId, end);
      events.push(connectionEvent('connection_open_confirm', msg.m.connectionId, end));
      break;
    }
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

/** A connection handshake event: ibc-go's four attributes, read from the stored end. */
function connectionEvent(type: string, connectionId: string, end: ConnectionEnd): AbciEvent {
  return ev(
    type,
    ['connection_id', connectionId],
    ['client_id', end.clientId],
    ['counterparty_client_id', end.counterparty.clientId],
    ['counterparty_connection_id', end.counterparty.connectionId],
  );
}

/** A channel handshake event: ibc-go's five attributes, read from the stored end, then any extra ones. */
function channelEvent(type: string, portId: string, channelId: string, end: Channel, ...extra: [string, string][]): AbciEvent {
  return ev(
    type,
    ['port_id', portId],
    ['channel_id', channelId],
    ['counterparty_port_id', end.counterparty.portId],
    ['counterparty_channel_id', end.counterparty.channelId],
    ['connection_id', end.connectionHops[0]!],
    ...extra,
  );
}

/** ICS-20's `fungible_token_packet` attributes for a packet's data (empty when it did not decode), then the outcome ones. */
function tokenPacketEvent(data: ReturnType<typeof decodePacketData>, ...outcome: [string, string][]): AbciEvent {
  return ev(
    'fungible_token_packet',
    ['sender', data?.sender ?? ''],
    ['receiver', data?.receiver ?? ''],
    ['denom', data?.denom ?? ''],
    ['amount', data?.amount ?? ''],
    ['memo', data?.memo ?? ''],
    ...outcome,
  );
}

// ---------------------------------------------------------------- 02-client

function createClient(ctx: IbcExecContext, clientState: Any | undefined, consensusState: Any | undefined, events: AbciEvent[]): Record<string, unknown> {
  if (!clientState || clientState.typeUrl !== '/ibc.lightclients.tendermint.v1.ClientState')
    throw err.invalidRequest(`client state must be a ${CLIENT_TYPE} ClientState`);
  if (!consensusState || consensusState.typeUrl !== '/ibc.lightclients.tendermint.v1.ConsensusState')
    throw err.invalidRequest(`consensus state must be a ${CLIENT_TYPE} ConsensusState`);
  const cs = TmClientState.decode(clientState.value);
  TmConsensusState.decode(consensusState.value);
  if (cs.chainId === '' || cs.latestHeight.revisionHeight === 0n) throw err.invalidRequest('client state needs a chain id and a latest height');
  const id = nextId(ctx, hostKeys.nextClientSequence, CLIENT_TYPE);
  write(ctx, hostKeys.clientState(id), Any.encode(clientState).finish());
  write(ctx, hostKeys.consensusState(id, cs.latestHeight.revisionNumber, cs.latestHeight.revisionHeight), Any.encode(consensusState).finish());
  const h = `${cs.latestHeight.revisionNumber}-${cs.latestHeight.revisionHeight}`;
  events.push(ev('create_client', ['client_id', id], ['client_type', CLIENT_TYPE], ['consensus_heights', h]));
  return { clientId: id };
}

/**
 * 07-tendermint's update, as ibc-go's keeper runs it: the client must be active (not frozen, not
 * expired), the header verifies against the trusted consensus state (signatures and CometBFT's time
 * checks against this block's time), then a header at a height that already has a consensus state
 * is either the same one (nothing changes) or misbehaviour: the client freezes (`frozen_height`
 * 0-1), and the tx still succeeds, as ibc-go's does.
 */
function updateClient(ctx: IbcExecContext, clientId: string, message: Any | undefined, events: AbciEvent[]): void {
  const cs = requireActiveClient(ctx, clientId, (status) => `cannot update client (${clientId}) with status ${status}`);
  if (!message || message.typeUrl !== '/ibc.lightclients.tendermint.v1.Header') throw err.invalidHeader('client message must be a 07-tendermint Header');
  let header: TmHeader;
  try {
    header = TmHeader.decode(message.value);
  } catch (e) {
    throw err.invalidHeader(`undecodable header: ${(e as Error).message}`);
  }
  const trusted = readConsensus(ctx, clientId, header.trustedHeight);
  if (!trusted) throw err.consensusNotFound(clientId, `${header.trustedHeight.revisionNumber}-${header.trustedHeight.revisionHeight}`);
  let verified: ReturnType<typeof verifyTmHeader>;
  try {
    const time = {
      trustedNs: consensusNs(trusted),
      trustingPeriodNs: durationNs(cs.trustingPeriod),
      maxClockDriftNs: durationNs(cs.maxClockDrift),
      nowNs: ctx.timeNs,
    };
    verified = verifyTmHeader(
      { chainId: cs.chainId, trustedNextValidatorsHash: trusted.nextValidatorsHash, latestHeight: header.trustedHeight.revisionHeight, time },
      header,
    );
  } catch (e) {
    throw err.invalidHeader((e as Error).message);
  }
  const height = verified.height;
  const consensus: TmConsensusState = TmConsensusState.fromPartial({
    timestamp: header.signedHeader?.header?.time,
    root: { hash: verified.consensusState.root },
    nextValidatorsHash: verified.consensusState.nextValidatorsHash,
  });
  const consensusBytes = Any.encode({ typeUrl: '/ibc.lightclients.tendermint.v1.ConsensusState', value: TmConsensusState.encode(consensus).finish() }).finish();
  const key = hostKeys.consensusState(clientId, cs.latestHeight.revisionNumber, height);
  const existing = read(ctx, key);
  if (existing && !bytesEqual(existing, consensusBytes)) {
    // Two valid headers for one height (CheckForMisbehaviour): freeze (UpdateStateOnMisbehaviour).
    cs.frozenHeight = { revisionNumber: 0n, revisionHeight: 1n };
    putClientState(ctx, clientId, cs);
    events.push(ev('client_misbehaviour', ['client_id', clientId], ['client_type', CLIENT_TYPE]));
    return;
  }
  if (!existing) write(ctx, key, consensusBytes); // the same header again changes nothing
  if (height > cs.latestHeight.revisionHeight) {
    cs.latestHeight = { revisionNumber: cs.latestHeight.revisionNumber, revisionHeight: height };
    putClientState(ctx, clientId, cs);
  }
  events.push(ev('update_client', ['client_id', clientId], ['client_type', CLIENT_TYPE], ['consensus_heights', `${cs.latestHeight.revisionNumber}-${height}`]));
}

function putClientState(ctx: IbcExecContext, clientId: string, cs: TmClientState): void {
  write(
    ctx,
    hostKeys.clientState(clientId),
    Any.encode({ typeUrl: '/ibc.lightclients.tendermint.v1.ClientState', value: TmClientState.encode(cs).finish() }).finish(),
  );
}

const durationNs = (d: { seconds: bigint; nanos: number } | undefined): bigint => (d ? d.seconds * 1_000_000_000n + BigInt(d.nanos) : 0n);
const consensusNs = (c: TmConsensusState): bigint => durationNs(c.timestamp);

/** 07-tendermint's Status: Frozen (a frozen height is set), Expired (the latest consensus state is older than the trusting period at this block's time), else Active. */
function clientStatus(ctx: IbcExecContext, clientId: string, cs: TmClientState): 'Active' | 'Frozen' | 'Expired' {
  if (cs.frozenHeight.revisionNumber !== 0n || cs.frozenHeight.revisionHeight !== 0n) return 'Frozen';
  const latest = readConsensus(ctx, clientId, cs.latestHeight);
  if (!latest || consensusNs(latest) + durationNs(cs.trustingPeriod) <= ctx.timeNs) return 'Expired';
  return 'Active';
}

/** The client, refused with ibc-go's ErrClientNotActive unless it is active. */
function requireActiveClient(ctx: IbcExecContext, clientId: string, why: (status: string) => string): TmClientState {
  const cs = requireClient(ctx, clientId);
  const status = clientStatus(ctx, clientId, cs);
  if (status !== 'Active') throw err.clientNotActive(why(status));
  return cs;
}

function requireClient(ctx: IbcExecContext, clientId: string): TmClientState {
  const raw = read(ctx, hostKeys.clientState(clientId));
  if (!raw) throw err.clientNotFound(clientId);
  return TmClientState.decode(Any.decode(raw).value);
}

function readConsensus(ctx: IbcExecContext, clientId: string, h: Height): TmConsensusState | undefined {
  const raw = read(ctx, hostKeys.consensusState(clientId, h.revisionNumber, h.revisionHeight));
  return raw && TmConsensusState.decode(Any.decode(raw).value);
}

/** A proof height must be a height whose consensus state the client has verified, and the client active (ibc-go's verify functions). */
function requireProofHeight(ctx: IbcExecContext, clientId: string, h: Height): TmConsensusState {
  requireActiveClient(ctx, clientId, (status) => `client (${clientId}) status is ${status}`);
  const c = readConsensus(ctx, clientId, h);
  if (!c) throw err.consensusNotFound(clientId, `${h.revisionNumber}-${h.revisionHeight}`);
  return c;
}

/**
 * ibc-go's Verify* of the connection keeper: `value` (undefined: absence) at the counterparty's
 * `path` under the connection's counterparty prefix, proven against the client's consensus root at
 * `proofHeight` (an inactive client or unknown proof height fails first, as in requireProofHeight).
 * A proof that fails wraps as ibc-go's: `<msg>: failed <what> verification for client (<id>): <cause>`.
 */
function verifyState(
  ctx: IbcExecContext,
  msgWhy: string,
  what: string,
  conn: ConnectionEnd,
  proofHeight: Height,
  proof: Uint8Array,
  path: string,
  value: Uint8Array | undefined,
): void {
  const consensus = requireProofHeight(ctx, conn.clientId, proofHeight);
  const prefix = conn.counterparty.prefix?.keyPrefix ?? new Uint8Array(0);
  try {
    if (prefix.length === 0) throw new CosmosTxError(3, "prefix can't be empty: invalid prefix", 'commitment');
    const root = consensus.root?.hash ?? new Uint8Array(0);
    if (value === undefined) verifyIbcNonMembership(proof, root, prefix, path);
    else verifyIbcMembership(proof, root, prefix, path, value);
  } catch (e) {
    if (!(e instanceof CosmosTxError)) throw e;
    throw new CosmosTxError(e.code, `${msgWhy}: failed ${what} verification for client (${conn.clientId}): ${e.log}`, e.codespace);
  }
}

/** ibc-go's `clients/<id>/connections`: the client's connection ids (a ClientPaths message). */
function addClientConnection(ctx: IbcExecContext, clientId: string, connectionId: string): void {
  const key = hostKeys.clientConnections(clientId);
  const raw = read(ctx, key);
  const paths = raw ? ClientPaths.decode(raw).paths : [];
  write(ctx, key, ClientPaths.encode({ paths: [...paths, connectionId] }).finish());
}

// ---------------------------------------------------------------- 03/04 stores

function getConnection(ctx: IbcExecContext, id: string): ConnectionEnd {
  const raw = read(ctx, hostKeys.connection(id));
  if (!raw) throw err.connectionNotFound(id);
  return ConnectionEnd.decode(raw);
}

function putConnection(ctx: IbcExecContext, id: string, end: ConnectionEnd): void {
  write(ctx, hostKeys.connection(id), ConnectionEnd.encode(end).finish());
}

function getChannel(ctx: IbcExecContext, port: string, id: string): Channel {
  const raw = read(ctx, hostKeys.channel(port, id));
  if (!raw) throw err.channelNotFound(port, id);
  return Channel.decode(raw);
}

function putChannel(ctx: IbcExecContext, port: string, id: string, end: Channel): void {
  write(ctx, hostKeys.channel(port, id), Channel.encode(end).finish());
}

function checkTransferChannel(portId: string, channel: Channel): void {
  if (portId !== TRANSFER_PORT) throw err.invalidRequest(`port ${portId} is not bound: only the transfer port is`);
  if (channel.ordering !== Order.ORDER_UNORDERED)
    throw new CosmosTxError(3, `expected ${Order[Order.ORDER_UNORDERED]} channel, got ${Order[channel.ordering]}: invalid channel ordering`, 'transfer');
  if (channel.connectionHops.length !== 1) throw err.invalidRequest('a channel has exactly one connection hop');
}

function nextId(ctx: IbcExecContext, key: string, prefix: string): string {
  const n = getSeq(ctx, key) ?? 0n;
  setSeq(ctx, key, n + 1n);
  return `${prefix}-${n}`;
}

function getSeq(ctx: IbcExecContext, key: string): bigint | undefined {
  const v = read(ctx, key);
  return v === undefined ? undefined : decodeSeq(v);
}

function setSeq(ctx: IbcExecContext, key: string, n: bigint): void {
  write(ctx, key, encodeSeq(n));
}

function read(ctx: IbcExecContext, key: string): Uint8Array | undefined {
  const v = ctx.store.get(key);
  ctx.gas(KV_READ + 3n * BigInt(v?.length ?? 0), 'ReadFlat');
  return v;
}

function write(ctx: IbcExecContext, key: string, value: Uint8Array): void {
  ctx.gas(KV_WRITE + PER_BYTE_WRITE * BigInt(value.length), 'WriteFlat');
  ctx.store.set(key, value);
}

function del(ctx: IbcExecContext, key: string): void {
  ctx.gas(1000n, 'Delete');
  ctx.store.delete(key);
}

// ---------------------------------------------------------------- packets

function openChannelOf(ctx: IbcExecContext, port: string, channel: string): { end: Channel; conn: ConnectionEnd } {
  const end = getChannel(ctx, port, channel);
  if (end.state !== ChanState.STATE_OPEN) throw err.channelState(`channel state is not OPEN (got ${ChanState[end.state]})`);
  const conn = getConnection(ctx, end.connectionHops[0]!);
  if (conn.state !== ConnState.STATE_OPEN) throw err.connectionState(`connection state is not OPEN (got ${ConnState[conn.state]})`);
  return { end, conn };
}

/** ibc-go's check that a packet comes from (receive) or went to (acknowledge, timeout) the channel's counterparty. */
function checkCounterparty(end: Channel, side: 'source' | 'destination', port: string, channel: string): void {
  if (port !== end.counterparty.portId)
    throw err.invalidPacket(`packet ${side} port doesn't match the counterparty's port (${port} ≠ ${end.counterparty.portId})`);
  if (channel !== end.counterparty.channelId)
    throw err.invalidPacket(`packet ${side} channel doesn't match the counterparty's channel (${channel} ≠ ${end.counterparty.channelId})`);
}

/** An attribute of an event ("" when absent). */
export function attrOf(e: AbciEvent, key: string): string {
  return e.attributes.find((a) => a.key === key)?.value ?? '';
}

/** The packet a `send_packet` or `recv_packet` event carries (`packetAttrs` with the data), as relayers and indexers read it back. */
export function packetOfEvent(e: AbciEvent): Packet {
  const [revisionNumber, revisionHeight] = attrOf(e, 'packet_timeout_height').split('-');
  return {
    sequence: BigInt(attrOf(e, 'packet_sequence')),
    sourcePort: attrOf(e, 'packet_src_port'),
    sourceChannel: attrOf(e, 'packet_src_channel'),
    destinationPort: attrOf(e, 'packet_dst_port'),
    destinationChannel: attrOf(e, 'packet_dst_channel'),
    data: Uint8Array.from(Buffer.from(attrOf(e, 'packet_data_hex'), 'hex')),
    timeoutHeight: { revisionNumber: BigInt(revisionNumber ?? '0'), revisionHeight: BigInt(revisionHeight ?? '0') },
    timeoutTimestamp: BigInt(attrOf(e, 'packet_timeout_timestamp') || '0'),
  };
}

function packetAttrs(p: Packet, connectionId: string, data?: boolean): [string, string][] {
  const out: [string, string][] = [];
  // packet_data (the bytes as text) as ibc-go v8 still emitted it beside packet_data_hex: relayers of that era read it.
  if (data) out.push(['packet_data', Buffer.from(p.data).toString('utf8')], ['packet_data_hex', Buffer.from(p.data).toString('hex')]);
  out.push(
    ['packet_timeout_height', `${p.timeoutHeight.revisionNumber}-${p.timeoutHeight.revisionHeight}`],
    ['packet_timeout_timestamp', p.timeoutTimestamp.toString()],
    ['packet_sequence', p.sequence.toString()],
    ['packet_src_port', p.sourcePort],
    ['packet_src_channel', p.sourceChannel],
    ['packet_dst_port', p.destinationPort],
    ['packet_dst_channel', p.destinationChannel],
    ['packet_channel_ordering', 'ORDER_UNORDERED'],
    ['packet_connection', connectionId],
    ['connection_id', connectionId],
  );
  return out;
}

/** ibc-go's timeout rule: a packet's timeout has passed at `height` with block time `timeNs` (the relayer asks it too). */
export function elapsed(timeoutHeight: Height, timeoutTimestamp: bigint, height: bigint, timeNs: bigint): boolean {
  return (timeoutHeight.revisionHeight !== 0n && height >= timeoutHeight.revisionHeight) || (timeoutTimestamp !== 0n && timeNs >= timeoutTimestamp);
}

/** The full trace path of a denom as held on this chain (`ibc/<hash>` resolved through the stored denoms). */
function fullDenom(ctx: IbcExecContext, denom: string): Denom {
  if (!denom.startsWith('ibc/')) return { base: denom, trace: [] };
  const raw = read(ctx, hostKeys.denom(denom.slice(4).toUpperCase()));
  if (!raw) throw new CosmosTxError(9, `denomination not found for ${denom}: denomination not found`, 'transfer');
  return JSON.parse(new TextDecoder().decode(raw)) as Denom;
}

async function sendTransfer(ctx: IbcExecContext, t: MsgTransfer, events: AbciEvent[]): Promise<Record<string, unknown>> {
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

async function recvPacket(ctx: IbcExecContext, p: Packet, proof: Uint8Array, proofHeight: Height, events: AbciEvent[]): Promise<Record<string, unknown>> {
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

/** ibc-go's ConvertToErrorEvents: the event of a callback whose acknowledgement is an error. */
const CALLBACK_ERROR_PREFIX = 'ibccallbackerror-';
function asCallbackErrorEvent(e: AbciEvent): AbciEvent {
  return { type: CALLBACK_ERROR_PREFIX + e.type, attributes: e.attributes.map((a) => ({ ...a, key: CALLBACK_ERROR_PREFIX + a.key })) };
}

async function onRecv(ctx: IbcExecContext, p: Packet, data: NonNullable<ReturnType<typeof decodePacketData>>, events: AbciEvent[]): Promise<void> {
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

async function acknowledgePacket(
  ctx: IbcExecContext,
  p: Packet,
  ackBytes: Uint8Array,
  proof: Uint8Array,
  proofHeight: Height,
  events: AbciEvent[],
): Promise<Record<string, unknown>> {
  const { end, conn } = openChannelOf(ctx, p.sourcePort, p.sourceChannel);
  checkCounterparty(end, 'destination', p.destinationPort, p.destinationChannel);
  const key = hostKeys.commitment(p.sourcePort, p.sourceChannel, p.sequence);
  const stored = read(ctx, key);
  if (!stored) return { result: ResponseResultType.RESPONSE_RESULT_TYPE_NOOP }; // already acknowledged or timed out
  checkCommitment(stored, p);
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
async function timeoutPacket(ctx: IbcExecContext, p: Packet, proof: Uint8Array, proofHeight: Height, events: AbciEvent[]): Promise<Record<string, unknown>> {
  const { end, conn } = openChannelOf(ctx, p.sourcePort, p.sourceChannel);
  checkCounterparty(end, 'destination', p.destinationPort, p.destinationChannel);
  const key = hostKeys.commitment(p.sourcePort, p.sourceChannel, p.sequence);
  const stored = read(ctx, key);
  if (!stored) return { result: ResponseResultType.RESPONSE_RESULT_TYPE_NOOP };
  checkCommitment(stored, p);
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

/** The transfer app's total escrow of a denom moves with every escrow and unescrow. */
function addTotalEscrow(ctx: IbcExecContext, denom: string, delta: bigint): void {
  const k = hostKeys.totalEscrow(denom);
  const total = BigInt(ctx.store.getText(k) ?? '0') + delta;
  if (total <= 0n) del(ctx, k);
  else write(ctx, k, new TextEncoder().encode(total.toString()));
}

function checkCommitment(stored: Uint8Array, p: Packet): void {
  const want = packetCommitment(p.timeoutTimestamp, p.timeoutHeight.revisionNumber, p.timeoutHeight.revisionHeight, p.data);
  if (Buffer.compare(Buffer.from(stored), Buffer.from(want)) !== 0) throw err.invalidPacket('commitment bytes are not equal: got and expected differ');
}

/** Ack error or timeout: unescrow back to the sender, or re-mint a voucher that was burnt. */
async function refund(ctx: IbcExecContext, p: Packet, data: NonNullable<ReturnType<typeof decodePacketData>>, events: AbciEvent[]): Promise<void> {
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
