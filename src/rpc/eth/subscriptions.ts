/**
 * The eth_subscribe subscriptions of one node's Ethereum env, per session (a WebSocket connection
 * or an in-process provider): a session's subscriptions end with it. The env owns the registry,
 * so two nodes in one process never share one.
 */
import type { EthSubscriptions } from './env.js';
import type { WsSession } from './route.js';

export class SubscriptionRegistry implements EthSubscriptions {
  private readonly sessions = new WeakMap<WsSession, Map<string, () => void>>();

  /** The session's subscriptions (id → stop), ended when the session closes. */
  of(session: WsSession): Map<string, () => void> {
    let subs = this.sessions.get(session);
    if (subs === undefined) {
      const created = new Map<string, () => void>();
      this.sessions.set(session, created);
      session.onClose(() => {
        for (const stop of created.values()) stop();
        created.clear();
      });
      subs = created;
    }
    return subs;
  }
}
