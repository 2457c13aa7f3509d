/**
 * WebSocket subscriptions (rpc/core/events.go): subscribe, unsubscribe, unsubscribe_all.
 *
 *   subscribe ──> limits, query ──> bus.subscribe(remoteAddr) ──> result {} written
 *                                                                  └─> events streamed under the
 *                                                                      subscribe call's id
 *   the bus cancels (node exit, slow client) ──> -32000 "subscription was canceled (reason: …)"
 */
import { CANCEL_UNSUBSCRIBED } from '../../events/errors.js';
import type { CallContext } from './context.js';
import type { CometEnv } from './env.js';
import { CometHandlerError, MaxSubscriptionClientsError, MaxSubscriptionsPerClientError, SubscriptionCanceledError } from './errors.js';
import { eventResponseWriter, serverErrorJson } from './envelope.js';
import { parseQuery } from './query.js';
import type { ResultEmpty } from './results.js';
import { checkQueryLength } from './rules.js';

/** CometBFT's order: the client count first (even for a known client), then its own count. */
export function checkSubscriptionLimits(env: CometEnv, subscriber: string): void {
  const { maxSubscriptionClients, maxSubscriptionsPerClient } = env.config;
  if (env.eventBus.numClients() >= maxSubscriptionClients) throw new MaxSubscriptionClientsError(maxSubscriptionClients);
  if (env.eventBus.numClientSubscriptions(subscriber) >= maxSubscriptionsPerClient) throw new MaxSubscriptionsPerClientError(maxSubscriptionsPerClient);
}

/** More: https://docs.cometbft.com/v0.38/rpc/#/Websocket/subscribe */
export function subscribe(env: CometEnv, ctx: CallContext, query: string): ResultEmpty {
  const ws = ctx.ws;
  if (!ws) throw new CometHandlerError('subscribe is only available over WebSocket');
  checkSubscriptionLimits(env, ctx.remoteAddr);
  checkQueryLength(query);
  const q = parseQuery(query, true);
  const sub = env.eventBus.subscribe(ctx.remoteAddr, q, { bufferSize: env.config.experimentalSubscriptionBufferSize });
  const id = ctx.id;
  const responseOf = eventResponseWriter(id, query);
  // Events wait in the subscription's buffer until the `{}` result is on the wire.
  ws.afterResponse(() => {
    sub.onCancel((reason) => {
      if (reason !== CANCEL_UNSUBSCRIBED && !ws.closed) ws.send(serverErrorJson(id, new SubscriptionCanceledError(reason).message));
    });
    sub.setListener((msg) => {
      if (ws.send(responseOf(msg))) return;
      if (ws.closed) return;
      if (env.config.experimentalCloseOnSlowClient) sub.cancel('slow client');
      else env.logger.info({ subscriber: ctx.remoteAddr, query }, "can't write event (slow client): dropped");
    });
  });
  return {};
}

/** More: https://docs.cometbft.com/v0.38/rpc/#/Websocket/unsubscribe */
export function unsubscribe(env: CometEnv, ctx: CallContext, query: string): ResultEmpty {
  const q = parseQuery(query, true);
  env.eventBus.unsubscribe(ctx.remoteAddr, q);
  return {};
}

/** More: https://docs.cometbft.com/v0.38/rpc/#/Websocket/unsubscribe_all */
export function unsubscribeAll(env: CometEnv, ctx: CallContext): ResultEmpty {
  env.eventBus.unsubscribeAll(ctx.remoteAddr);
  return {};
}
