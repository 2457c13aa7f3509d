/** The Ethereum JSON-RPC family: servers, in-process provider, routes table and errors. */
export { startEthServer, type RunningEthRpc } from './server.js';
export { providerForService, ProviderRpcError, type Eip1193Provider, type RequestArguments } from './provider.js';
export { ETH_ROUTES, UNSUPPORTED, enabledNamespaces, type EthMethod } from './routes.js';
export { route, type AnyEthRoute, type CallContext, type EthRoute, type WsSession } from './route.js';
export type { EthEnv } from './env.js';
export * from './errors.js';
