/**
 * The routes of the personal, admin, miner and devnet (evm / anvil / hardhat) namespaces, to be
 * concatenated into ETH_ROUTES (routes.ts). personal, admin and miner are served when listed in
 * `[json-rpc] api`; evm, anvil and hardhat when `[evm] devnet` is on.
 */
import type { AnyEthRoute } from '../route.js';
import { ADMIN_ROUTES } from './admin.js';
import { DEVNET_ROUTES } from './devnet.js';
import { MINER_ROUTES } from './miner.js';
import { PERSONAL_ROUTES } from './personal.js';

export { ADMIN_ROUTES, DEVNET_ROUTES, MINER_ROUTES, PERSONAL_ROUTES };

export const NODE_NAMESPACE_ROUTES = Object.freeze([...PERSONAL_ROUTES, ...ADMIN_ROUTES, ...MINER_ROUTES, ...DEVNET_ROUTES]) satisfies readonly AnyEthRoute[];
