/**
 * One Ethereum JSON-RPC service of a node: its environment (with the stateful filter registry
 * and call executor) and its dispatcher. The HTTP/WS server and each in-process provider own one.
 */
import type { ChainletNode } from '../../node/node.js';
import { EthDispatcher } from './dispatcher.js';
import { createEthEnv, type EthEnv } from './env.js';
import { enabledNamespaces } from './routes.js';

export interface EthService {
  readonly env: EthEnv;
  readonly dispatcher: EthDispatcher;
  close(): void;
}

export function createEthService(node: ChainletNode): EthService {
  const env = createEthEnv(node);
  const dispatcher = new EthDispatcher(env, enabledNamespaces(node.config.jsonRpc.api, node.config.evm.devnet));
  const forget = node.internals.devnet.onChange(() => env.calls.executor.forget());
  return {
    env,
    dispatcher,
    close: () => {
      forget();
      env.filters.close();
    },
  };
}
