/**
 * The IBC messages a Cosmos tx may carry, decoded with cosmjs-types' generated codecs (ibc-go's
 * protos): the ICS-20 MsgTransfer a user signs, and the client, connection, channel and packet
 * messages a relayer signs. Each names its signer (bech32) as the SDK's `GetSigners` does.
 */
import type { MsgTransfer } from 'cosmjs-types/ibc/applications/transfer/v1/tx';
import type {
  MsgAcknowledgement,
  MsgChannelOpenAck,
  MsgChannelOpenConfirm,
  MsgChannelOpenInit,
  MsgChannelOpenTry,
  MsgRecvPacket,
  MsgTimeout,
} from 'cosmjs-types/ibc/core/channel/v1/tx';
import type { MsgCreateClient, MsgUpdateClient } from 'cosmjs-types/ibc/core/client/v1/tx';
import type { MsgConnectionOpenAck, MsgConnectionOpenConfirm, MsgConnectionOpenInit, MsgConnectionOpenTry } from 'cosmjs-types/ibc/core/connection/v1/tx';
import { lazyCosmjs } from '../codec/cosmjs-types.js';

// Loaded at the first IBC message (a Cosmos tx is decoded synchronously): see codec/cosmjs-types.ts.
const transferTx = lazyCosmjs<typeof import('cosmjs-types/ibc/applications/transfer/v1/tx')>('ibc/applications/transfer/v1/tx');
const channelTx = lazyCosmjs<typeof import('cosmjs-types/ibc/core/channel/v1/tx')>('ibc/core/channel/v1/tx');
const clientTx = lazyCosmjs<typeof import('cosmjs-types/ibc/core/client/v1/tx')>('ibc/core/client/v1/tx');
const connectionTx = lazyCosmjs<typeof import('cosmjs-types/ibc/core/connection/v1/tx')>('ibc/core/connection/v1/tx');

export const IBC_MSG = {
  transfer: '/ibc.applications.transfer.v1.MsgTransfer',
  createClient: '/ibc.core.client.v1.MsgCreateClient',
  updateClient: '/ibc.core.client.v1.MsgUpdateClient',
  connOpenInit: '/ibc.core.connection.v1.MsgConnectionOpenInit',
  connOpenTry: '/ibc.core.connection.v1.MsgConnectionOpenTry',
  connOpenAck: '/ibc.core.connection.v1.MsgConnectionOpenAck',
  connOpenConfirm: '/ibc.core.connection.v1.MsgConnectionOpenConfirm',
  chanOpenInit: '/ibc.core.channel.v1.MsgChannelOpenInit',
  chanOpenTry: '/ibc.core.channel.v1.MsgChannelOpenTry',
  chanOpenAck: '/ibc.core.channel.v1.MsgChannelOpenAck',
  chanOpenConfirm: '/ibc.core.channel.v1.MsgChannelOpenConfirm',
  recvPacket: '/ibc.core.channel.v1.MsgRecvPacket',
  acknowledgement: '/ibc.core.channel.v1.MsgAcknowledgement',
  timeout: '/ibc.core.channel.v1.MsgTimeout',
} as const;

export type IbcMsg =
  | { kind: 'transfer'; m: MsgTransfer }
  | { kind: 'createClient'; m: MsgCreateClient }
  | { kind: 'updateClient'; m: MsgUpdateClient }
  | { kind: 'connOpenInit'; m: MsgConnectionOpenInit }
  | { kind: 'connOpenTry'; m: MsgConnectionOpenTry }
  | { kind: 'connOpenAck'; m: MsgConnectionOpenAck }
  | { kind: 'connOpenConfirm'; m: MsgConnectionOpenConfirm }
  | { kind: 'chanOpenInit'; m: MsgChannelOpenInit }
  | { kind: 'chanOpenTry'; m: MsgChannelOpenTry }
  | { kind: 'chanOpenAck'; m: MsgChannelOpenAck }
  | { kind: 'chanOpenConfirm'; m: MsgChannelOpenConfirm }
  | { kind: 'recvPacket'; m: MsgRecvPacket }
  | { kind: 'acknowledgement'; m: MsgAcknowledgement }
  | { kind: 'timeout'; m: MsgTimeout };

interface Codec<T> {
  decode(b: Uint8Array): T;
  encode(m: T): { finish(): Uint8Array };
}

type MsgOf<K extends IbcMsg['kind']> = Extract<IbcMsg, { kind: K }>['m'];

type Codecs = { [K in IbcMsg['kind']]: Codec<MsgOf<K>> };
type Responses = Record<IbcMsg['kind'], { typeUrl: string; encode(m: never): { finish(): Uint8Array } }>;

let codecs: { msgs: Codecs; responses: Responses } | undefined;

function ibcCodecs(): { msgs: Codecs; responses: Responses } {
  if (codecs !== undefined) return codecs;
  const t = transferTx(),
    ch = channelTx(),
    cl = clientTx(),
    co = connectionTx();
  codecs = {
    msgs: {
      transfer: t.MsgTransfer,
      createClient: cl.MsgCreateClient,
      updateClient: cl.MsgUpdateClient,
      connOpenInit: co.MsgConnectionOpenInit,
      connOpenTry: co.MsgConnectionOpenTry,
      connOpenAck: co.MsgConnectionOpenAck,
      connOpenConfirm: co.MsgConnectionOpenConfirm,
      chanOpenInit: ch.MsgChannelOpenInit,
      chanOpenTry: ch.MsgChannelOpenTry,
      chanOpenAck: ch.MsgChannelOpenAck,
      chanOpenConfirm: ch.MsgChannelOpenConfirm,
      recvPacket: ch.MsgRecvPacket,
      acknowledgement: ch.MsgAcknowledgement,
      timeout: ch.MsgTimeout,
    },
    responses: {
      transfer: t.MsgTransferResponse as never,
      createClient: cl.MsgCreateClientResponse as never,
      updateClient: cl.MsgUpdateClientResponse as never,
      connOpenInit: co.MsgConnectionOpenInitResponse as never,
      connOpenTry: co.MsgConnectionOpenTryResponse as never,
      connOpenAck: co.MsgConnectionOpenAckResponse as never,
      connOpenConfirm: co.MsgConnectionOpenConfirmResponse as never,
      chanOpenInit: ch.MsgChannelOpenInitResponse as never,
      chanOpenTry: ch.MsgChannelOpenTryResponse as never,
      chanOpenAck: ch.MsgChannelOpenAckResponse as never,
      chanOpenConfirm: ch.MsgChannelOpenConfirmResponse as never,
      recvPacket: ch.MsgRecvPacketResponse as never,
      acknowledgement: ch.MsgAcknowledgementResponse as never,
      timeout: ch.MsgTimeoutResponse as never,
    },
  };
  return codecs;
}

const KIND_OF_URL = new Map(Object.entries(IBC_MSG).map(([k, url]) => [url as string, k as IbcMsg['kind']]));

/** The response codec of a message kind (its `typeUrl` and `encode`). */
export function responseCodec(kind: IbcMsg['kind']): Responses[IbcMsg['kind']] {
  return ibcCodecs().responses[kind];
}

export function isIbcTypeUrl(typeUrl: string): boolean {
  return KIND_OF_URL.has(typeUrl);
}

/** Decodes an IBC message; throws the codec's error on bad bytes. */
export function decodeIbcMsg(typeUrl: string, value: Uint8Array): IbcMsg | undefined {
  const kind = KIND_OF_URL.get(typeUrl);
  if (kind === undefined) return undefined;
  return { kind, m: (ibcCodecs().msgs[kind] as Codec<unknown>).decode(value) } as IbcMsg;
}

export function encodeIbcMsg(msg: IbcMsg): { typeUrl: string; value: Uint8Array } {
  return { typeUrl: IBC_MSG[msg.kind], value: (ibcCodecs().msgs[msg.kind] as Codec<unknown>).encode(msg.m).finish() };
}

/** The bech32 signer: MsgTransfer's sender, every core message's `signer`. */
export function ibcSigner(msg: IbcMsg): string {
  return msg.kind === 'transfer' ? msg.m.sender : msg.m.signer;
}
