/**
 * An in-process EIP-1193 provider: the same dispatcher as the servers, without HTTP or JSON
 * round-trips — the fastest way for tests to talk to a node:
 *
 *   const provider = createEip1193Provider(node);
 *   const client = createPublicClient({ transport: custom(provider) });
 *
 * Errors are thrown as `ProviderRpcError` ({ code, message, data }). Subscriptions work too:
 * notifications arrive as `message` events `{ type: 'eth_subscription', data: { subscription, result } }`.
 */
import { toJsonRpcError } from './errors.js';
import type { WsSession } from './route.js';
import type { EthService } from './service.js';

export interface RequestArguments {
  readonly method: string;
  readonly params?: readonly unknown[] | object;
}

export class ProviderRpcError extends Error {
  override name = 'ProviderRpcError';
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
  }
}

export type ProviderEvent = 'message' | 'connect' | 'disconnect' | 'chainChanged' | 'accountsChanged';
type Listener = (payload: unknown) => void;

export interface Eip1193Provider {
  request(args: RequestArguments): Promise<unknown>;
  on(event: ProviderEvent, listener: Listener): Eip1193Provider;
  removeListener(event: ProviderEvent, listener: Listener): Eip1193Provider;
  /**
   * Ends this provider's subscriptions. Filters are the node's, as over HTTP (any client may poll
   * an id): they end with eth_uninstallFilter or after `[json-rpc] filter-timeout`.
   */
  close(): void;
}

let sessionIds = 0;

/** An EIP-1193 provider over `service` (in process, no HTTP); the service stays its owner's (the node's). */
export function providerForService(service: EthService): Eip1193Provider {
  const listeners = new Map<ProviderEvent, Set<Listener>>();
  const closeListeners: (() => void)[] = [];
  const emit = (event: ProviderEvent, payload: unknown) => {
    for (const l of listeners.get(event) ?? []) l(payload);
  };
  const session: WsSession = {
    id: --sessionIds,
    send(text) {
      const msg = JSON.parse(text) as { params: { subscription: string; result: unknown } };
      emit('message', { type: 'eth_subscription', data: msg.params });
      return true;
    },
    onClose(l) {
      closeListeners.push(l);
    },
  };
  const ctx = { session, transport: 'in-process' } as const;
  const provider: Eip1193Provider = {
    async request({ method, params }) {
      try {
        return await service.dispatcher.call(method, params, ctx);
      } catch (err) {
        const e = toJsonRpcError(err);
        throw new ProviderRpcError(e.code, e.message, e.data);
      }
    },
    on(event, listener) {
      let set = listeners.get(event);
      if (!set) listeners.set(event, (set = new Set()));
      set.add(listener);
      return provider;
    },
    removeListener(event, listener) {
      listeners.get(event)?.delete(listener);
      return provider;
    },
    close() {
      for (const l of closeListeners.splice(0)) l();
    },
  };
  return provider;
}
