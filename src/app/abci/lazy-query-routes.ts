/**
 * The Cosmos SDK and IBC query routes as lazily loaded groups (src/sdk/query-router.ts): their modules,
 * and the cosmjs-types codecs they use, load at the first query of one of these services.
 * query-routes.test.ts checks the lists against the loaded routes.
 */
import type { LazyQueryRoutes } from '../../sdk/query-router.js';

export const COSMOS_QUERIES: LazyQueryRoutes = {
  services: ['/cosmos.auth.v1beta1.Query', '/cosmos.bank.v1beta1.Query', '/cosmos.staking.v1beta1.Query', '/cosmos.tx.v1beta1.Service'],
  load: async () => (await import('../cosmos/cosmos-queries.js')).COSMOS_QUERY_ROUTES,
};

export const IBC_QUERIES: LazyQueryRoutes = {
  services: ['/ibc.applications.transfer.v1.Query', '/ibc.core.channel.v1.Query', '/ibc.core.client.v1.Query', '/ibc.core.connection.v1.Query'],
  load: async () => (await import('../../ibc/queries.js')).IBC_QUERY_ROUTES,
};

/** The node's own gRPC services (node/cosmos-node-queries.ts: blocks, txs, node info). */
export const NODE_QUERY_SERVICES: readonly string[] = ['/cosmos.base.tendermint.v1beta1.Service', '/cosmos.tx.v1beta1.Service'];
