/**
 * What the IBC query modules (queries-*.ts) share: the route over the IBC store at the query's
 * height, request decoding, and ibc-go's keeper getters for clients, connections and channels.
 */
import { exactSizeBuffers } from '../codec/cosmjs-types.js';
import { Any } from 'cosmjs-types/google/protobuf/any';
import { Channel } from 'cosmjs-types/ibc/core/channel/v1/channel';
import type { Height } from 'cosmjs-types/ibc/core/client/v1/client';
import { ConnectionEnd } from 'cosmjs-types/ibc/core/connection/v1/connection';
import type { QueryRoute } from '../sdk/query-router.js';
import { hostKeys } from './keys.js';
import { invalidArgument, openQuery, type IbcQuery, type IbcQueryContext, type IbcStoreView } from './query-view.js';

exactSizeBuffers();

export const EMPTY = new Uint8Array(0);
export const text = new TextDecoder();

export function decodeReq<T>(codec: { decode(b: Uint8Array): T }, data: Uint8Array): T {
  try {
    return codec.decode(data);
  } catch (e) {
    throw invalidArgument(`invalid request: ${(e as Error).message}`);
  }
}

export const route = (path: string, handle: (q: IbcQuery, data: Uint8Array) => Promise<Uint8Array>): QueryRoute => ({
  path,
  stateless: true,
  async handle(ctx, _state, _args, req) {
    return handle(await openQuery(ctx as IbcQueryContext, req.height), req.data);
  },
});

/** `1-42` → {1, 42}. */
export function parseHeight(s: string): Height | undefined {
  const m = /^(\d+)-(\d+)$/.exec(s);
  return m ? { revisionNumber: BigInt(m[1]!), revisionHeight: BigInt(m[2]!) } : undefined;
}

export async function clientStateAny(view: IbcStoreView, clientId: string): Promise<Any | undefined> {
  const raw = await view.get(hostKeys.clientState(clientId));
  return raw ? Any.decode(raw) : undefined;
}

export async function consensusAny(view: IbcStoreView, clientId: string, h: Height): Promise<Any | undefined> {
  const raw = await view.get(hostKeys.consensusState(clientId, h.revisionNumber, h.revisionHeight));
  return raw ? Any.decode(raw) : undefined;
}

export async function connectionEnd(view: IbcStoreView, id: string): Promise<ConnectionEnd | undefined> {
  const raw = await view.get(hostKeys.connection(id));
  return raw ? ConnectionEnd.decode(raw) : undefined;
}

export async function channelEnd(view: IbcStoreView, port: string, channel: string): Promise<Channel | undefined> {
  const raw = await view.get(hostKeys.channel(port, channel));
  return raw ? Channel.decode(raw) : undefined;
}
