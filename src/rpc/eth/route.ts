/**
 * The shape of one entry of the eth routes table (routes.ts) and the helper that types it: the
 * handler's argument tuple is inferred from the `params` decoders, so a handler cannot disagree
 * with the params it is declared with.
 */
import type { EthEnv } from './env.js';
import type { Param, ParamValues } from './params.js';

/** A WebSocket session as pubsub sees it. */
export interface WsSession {
  readonly id: number;
  /** Sends one JSON text frame; false when the connection is gone or backed up. */
  send(text: string): boolean;
  /** Called once when the connection closes. */
  onClose(listener: () => void): void;
}

export interface CallContext {
  /** Set on WebSocket connections (and in-process providers that accept subscriptions). */
  readonly session?: WsSession;
  /**
   * Where the call came from. 'in-process' is the only local one (geth's IPC): rules for remote
   * callers (allow-insecure-unlock) apply to 'http', 'ws' and an unset transport alike.
   */
  readonly transport?: 'http' | 'ws' | 'in-process';
}

export interface EthRoute<M extends string = string, P extends readonly Param<unknown>[] = readonly Param<unknown>[]> {
  readonly method: M;
  /** The part before `_`; a namespace not in `api` answers like an unknown method. */
  readonly namespace: string;
  readonly params: P;
  readonly handler: (env: EthEnv, args: ParamValues<P>, ctx: CallContext) => unknown;
  /** Other names answering the same way (e.g. `hardhat_mine` for `anvil_mine`). */
  readonly aliases: readonly string[];
  /** Only over WebSocket (eth_subscribe / eth_unsubscribe); elsewhere "notifications not supported". */
  readonly wsOnly: boolean;
  /** One line for docs/rpc-eth.md. */
  readonly doc: string;
}

/** Any route, as the dispatcher holds them (the handler's argument tuple is checked at `route()`). */
export interface AnyEthRoute {
  readonly method: string;
  readonly namespace: string;
  readonly params: readonly Param<unknown>[];
  readonly handler: (env: EthEnv, args: never, ctx: CallContext) => unknown;
  readonly aliases: readonly string[];
  readonly wsOnly: boolean;
  readonly doc: string;
}

export interface RouteDef<M extends string, P extends readonly Param<unknown>[]> {
  params: P;
  handler: (env: EthEnv, args: ParamValues<P>, ctx: CallContext) => unknown;
  doc: string;
  aliases?: readonly string[];
  wsOnly?: boolean;
  /** Default: the method's prefix. */
  namespace?: string;
  method?: M;
}

export function route<const M extends string, const P extends readonly Param<unknown>[]>(method: M, def: RouteDef<M, P>): EthRoute<M, P> {
  return Object.freeze({
    method,
    namespace: def.namespace ?? method.slice(0, method.indexOf('_')),
    params: def.params,
    handler: def.handler,
    aliases: Object.freeze([...(def.aliases ?? [])]),
    wsOnly: def.wsOnly ?? false,
    doc: def.doc,
  });
}
