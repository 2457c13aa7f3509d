/**
 * Opens a path between two chains as Hermes does: a 07-tendermint client on each, the connection
 * handshake (Init → Try → Ack → Confirm), then the `transfer` channel handshake, each step a signed
 * tx in a block of its chain, each counterparty step after a client update and with its proof.
 */
import { Order, State as ChanState } from 'cosmjs-types/ibc/core/channel/v1/channel';
import { hostKeys, ICS20_VERSION, TRANSFER_PORT } from '../../ibc/keys.js';
import { clientStateOf, consensusStateOf } from '../../ibc/tm-client-state.js';
import type { RelayTxSender } from './relay-tx.js';
import { attr, height, type End } from './relay-types.js';

/** Fills in the ends' client, connection and channel ids as it opens them. */
export async function openPath(sender: RelayTxSender, a: End, b: End): Promise<void> {
  // Clients of each other, from each chain's latest signed header.
  for (const [self, other] of [
    [a, b],
    [b, a],
  ] as const) {
    const sh = await sender.latestSigned(other.chain);
    const events = await sender.submit(self, [
      {
        kind: 'createClient',
        m: {
          clientState: clientStateOf(other.chain.chainId, BigInt(sh.header.height)),
          consensusState: consensusStateOf(sh.header),
          signer: sender.signer(self),
        },
      },
    ]);
    self.clientId = attr(events, 'create_client', 'client_id');
  }
  const conn = await sender.submit(a, [
    {
      kind: 'connOpenInit',
      m: {
        clientId: a.clientId,
        counterparty: { clientId: b.clientId, connectionId: '', prefix: { keyPrefix: new TextEncoder().encode('ibc') } },
        version: { identifier: '1', features: ['ORDER_ORDERED', 'ORDER_UNORDERED'] },
        delayPeriod: 0n,
        signer: sender.signer(a),
      },
    },
  ]);
  a.connectionId = attr(conn, 'connection_open_init', 'connection_id');
  const tryEv = await sender.withUpdate(b, a, async (proofHeight, at) => [
    {
      kind: 'connOpenTry',
      m: {
        clientId: b.clientId,
        previousConnectionId: '',
        counterparty: { clientId: a.clientId, connectionId: a.connectionId, prefix: { keyPrefix: new TextEncoder().encode('ibc') } },
        delayPeriod: 0n,
        counterpartyVersions: [{ identifier: '1', features: ['ORDER_ORDERED', 'ORDER_UNORDERED'] }],
        proofHeight,
        proofInit: await sender.prove(a, hostKeys.connection(a.connectionId), at),
        proofClient: new Uint8Array(0),
        proofConsensus: new Uint8Array(0),
        consensusHeight: height(0),
        signer: sender.signer(b),
        hostConsensusStateProof: new Uint8Array(0),
      },
    },
  ]);
  b.connectionId = attr(tryEv, 'connection_open_try', 'connection_id');
  await sender.withUpdate(a, b, async (proofHeight, at) => [
    {
      kind: 'connOpenAck',
      m: {
        connectionId: a.connectionId,
        counterpartyConnectionId: b.connectionId,
        version: { identifier: '1', features: ['ORDER_ORDERED', 'ORDER_UNORDERED'] },
        proofHeight,
        proofTry: await sender.prove(b, hostKeys.connection(b.connectionId), at),
        proofClient: new Uint8Array(0),
        proofConsensus: new Uint8Array(0),
        consensusHeight: height(0),
        signer: sender.signer(a),
        hostConsensusStateProof: new Uint8Array(0),
      },
    },
  ]);
  await sender.withUpdate(b, a, async (proofHeight, at) => [
    {
      kind: 'connOpenConfirm',
      m: {
        connectionId: b.connectionId,
        proofAck: await sender.prove(a, hostKeys.connection(a.connectionId), at),
        proofHeight,
        signer: sender.signer(b),
      },
    },
  ]);
  // The transfer channel.
  const chanInit = await sender.submit(a, [
    {
      kind: 'chanOpenInit',
      m: {
        portId: TRANSFER_PORT,
        channel: {
          state: ChanState.STATE_INIT,
          ordering: Order.ORDER_UNORDERED,
          counterparty: { portId: TRANSFER_PORT, channelId: '' },
          connectionHops: [a.connectionId],
          version: ICS20_VERSION,
        },
        signer: sender.signer(a),
      },
    },
  ]);
  a.channelId = attr(chanInit, 'channel_open_init', 'channel_id');
  const chanTry = await sender.withUpdate(b, a, async (proofHeight, at) => [
    {
      kind: 'chanOpenTry',
      m: {
        portId: TRANSFER_PORT,
        previousChannelId: '',
        channel: {
          state: ChanState.STATE_TRYOPEN,
          ordering: Order.ORDER_UNORDERED,
          counterparty: { portId: TRANSFER_PORT, channelId: a.channelId },
          connectionHops: [b.connectionId],
          version: ICS20_VERSION,
        },
        counterpartyVersion: ICS20_VERSION,
        proofInit: await sender.prove(a, hostKeys.channel(TRANSFER_PORT, a.channelId), at),
        proofHeight,
        signer: sender.signer(b),
      },
    },
  ]);
  b.channelId = attr(chanTry, 'channel_open_try', 'channel_id');
  await sender.withUpdate(a, b, async (proofHeight, at) => [
    {
      kind: 'chanOpenAck',
      m: {
        portId: TRANSFER_PORT,
        channelId: a.channelId,
        counterpartyChannelId: b.channelId,
        counterpartyVersion: ICS20_VERSION,
        proofTry: await sender.prove(b, hostKeys.channel(TRANSFER_PORT, b.channelId), at),
        proofHeight,
        signer: sender.signer(a),
      },
    },
  ]);
  await sender.withUpdate(b, a, async (proofHeight, at) => [
    {
      kind: 'chanOpenConfirm',
      m: {
        portId: TRANSFER_PORT,
        channelId: b.channelId,
        proofAck: await sender.prove(a, hostKeys.channel(TRANSFER_PORT, a.channelId), at),
        proofHeight,
        signer: sender.signer(b),
      },
    },
  ]);
}
