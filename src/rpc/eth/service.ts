/**
 * The Ethereum JSON-RPC service of a node: its environment (with the stateful filter registry,
 * call executor, subscriptions and profiler) and its dispatcher. A node has one, shared by its
 * HTTP/WS server and every in-process provider; its owner closes it.
 */
import { EthDispatcher } from './dispatcher.js';
import type { EthEnv } from './env.js';
import { enabledNamespaces } from './routes.js';

export interface EthService {
  readonly env: EthEnv;
  readonly dispatcher: EthDispatcher;
  close(): void;
}

export interface EthServiceOptions {
  /** Devnet control methods (evm_*, anvil_*, hardhat_*) served beside `env.config.api`. */
  devnet: boolean;
  /** Called when the chain was reset or edited underneath (devnet), so memoised call state is dropped. */
  onStateChange(listener: () => void): () => void;
}

export function newEthService(env: EthEnv, opts: EthServiceOptions): EthService {
  const dispatcher = new EthDispatcher(env, enabledNamespaces(env.config.api, opts.devnet));
  const forget = opts.onStateChange(() => env.calls.executor.forget());
  return {
    env,
    dispatcher,
    close: () => {
      forget();
      env.filters.close();
    },
  };
}
