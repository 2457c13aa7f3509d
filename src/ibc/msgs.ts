/**
 * The IBC messages a Cosmos tx may carry, decoded with cosmjs-types' generated codecs (ibc-go's
 * protos): the ICS-20 MsgTransfer a user signs, and the client, connection, channel and packet
 * messages a relayer signs. Each names its signer (bech32) as the SDK's `GetSigners` does.
 */
import '../codec/cosmjs-binary.js';
import { MsgTransfer, MsgTransferResponse } from 'cosmjs-types/ibc/applications/transfer/v1/tx';
import {
  MsgAcknowledgement,
  MsgAcknowledgementResponse,
  MsgChannelOpenAck,
  MsgChannelOpenAckResponse,
  MsgChannelOpenConfirm,
  MsgChannelOpenConfirmResponse,
  MsgChannelOpenInit,
  MsgChannelOpenInitResponse,
  MsgChannelOpenTry,
  MsgChannelOpenTryResponse,
  MsgRecvPacket,
  MsgRecvPacketResponse,
  MsgTimeout,
  MsgTimeoutResponse,
} from 'cosmjs-types/ibc/core/channel/v1/tx';
import { MsgCreateClient, MsgCreateClientResponse, MsgUpdateClient, MsgUpdateClientResponse } from 'cosmjs-types/ibc/core/client/v1/tx';
import {
  MsgConnectionOpenAck,
  MsgConnectionOpenAckResponse,
  MsgConnectionOpenConfirm,
  MsgConnectionOpenConfirmResponse,
  MsgConnectionOpenInit,
  MsgConnectionOpenInitResponse,
  MsgConnectionOpenTry,
  MsgConnectionOpenTryResponse,
} from 'cosmjs-types/ibc/core/connection/v1/tx';

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

const CODECS: { [K in IbcMsg['kind']]: Codec<MsgOf<K>> } = {
  transfer: MsgTransfer,
  createClient: MsgCreateClient,
  updateClient: MsgUpdateClient,
  connOpenInit: MsgConnectionOpenInit,
  connOpenTry: MsgConnectionOpenTry,
  connOpenAck: MsgConnectionOpenAck,
  connOpenConfirm: MsgConnectionOpenConfirm,
  chanOpenInit: MsgChannelOpenInit,
  chanOpenTry: MsgChannelOpenTry,
  chanOpenAck: MsgChannelOpenAck,
  chanOpenConfirm: MsgChannelOpenConfirm,
  recvPacket: MsgRecvPacket,
  acknowledgement: MsgAcknowledgement,
  timeout: MsgTimeout,
};

const KIND_OF_URL = new Map(Object.entries(IBC_MSG).map(([k, url]) => [url as string, k as IbcMsg['kind']]));

export const RESPONSES: Record<IbcMsg['kind'], { typeUrl: string; encode(m: never): { finish(): Uint8Array } }> = {
  transfer: MsgTransferResponse as never,
  createClient: MsgCreateClientResponse as never,
  updateClient: MsgUpdateClientResponse as never,
  connOpenInit: MsgConnectionOpenInitResponse as never,
  connOpenTry: MsgConnectionOpenTryResponse as never,
  connOpenAck: MsgConnectionOpenAckResponse as never,
  connOpenConfirm: MsgConnectionOpenConfirmResponse as never,
  chanOpenInit: MsgChannelOpenInitResponse as never,
  chanOpenTry: MsgChannelOpenTryResponse as never,
  chanOpenAck: MsgChannelOpenAckResponse as never,
  chanOpenConfirm: MsgChannelOpenConfirmResponse as never,
  recvPacket: MsgRecvPacketResponse as never,
  acknowledgement: MsgAcknowledgementResponse as never,
  timeout: MsgTimeoutResponse as never,
};

export function isIbcTypeUrl(typeUrl: string): boolean {
  return KIND_OF_URL.has(typeUrl);
}

/** Decodes an IBC message; throws the codec's error on bad bytes. */
export function decodeIbcMsg(typeUrl: string, value: Uint8Array): IbcMsg | undefined {
  const kind = KIND_OF_URL.get(typeUrl);
  if (kind === undefined) return undefined;
  return { kind, m: (CODECS[kind] as Codec<unknown>).decode(value) } as IbcMsg;
}

export function encodeIbcMsg(msg: IbcMsg): { typeUrl: string; value: Uint8Array } {
  return { typeUrl: IBC_MSG[msg.kind], value: (CODECS[msg.kind] as Codec<unknown>).encode(msg.m).finish() };
}

/** The bech32 signer: MsgTransfer's sender, every core message's `signer`. */
export function ibcSigner(msg: IbcMsg): string {
  return msg.kind === 'transfer' ? msg.m.sender : msg.m.signer;
}
