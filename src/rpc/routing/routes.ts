/**
 * The routing API's one table of routes: method + path → decoder → handler, plus whether a call
 * counts against the unauthenticated rate limit and whether errors render as JSON or HTML. The
 * server dispatches from it, the index page lists it, and tests compare it with the swagger.
 */
import {
  decodeAssetsBetweenChainsBody,
  decodeAssetsBetweenChainsQuery,
  decodeAssetsFromSourceBody,
  decodeAssetsQuery,
  decodeIbcOriginAssetsBody,
  decodeRecommendAssetsBody,
  decodeVenuesQuery,
} from './assets-decode.js';
import {
  handleAssets,
  handleAssetsBetweenChains,
  handleAssetsFromSource,
  handleBridges,
  handleIbcOriginAssets,
  handleRecommendAssets,
  handleVenues,
} from './assets-handlers.js';
import { handleBalances } from './balances.js';
import { handleChains, LOGO_PATH } from './chains.js';
import type { Reply, RouteContext } from './context.js';
import { json } from './context.js';
import {
  decodeBalancesBody,
  decodeChainsQuery,
  decodeExplorerPath,
  decodeNothing,
  decodeStatusQuery,
  decodeSubmitBody,
  decodeTrackBody,
  type RequestInput,
} from './decode.js';
import { handleExplorerTx } from './explorer.js';
import { decodeMsgsBody, decodeMsgsDirectBody, decodeRouteBody, handleMsgs, handleMsgsDirect, handleRoute } from './fungible-route.js';
import {
  EXPLORER_APP_PATH,
  handleExplorerApp,
  handleExplorerConfig,
  handleExplorerFormat,
  handleExplorerIbc,
  handleExplorerMempool,
  handleExplorerScript,
  handleExplorerStyle,
} from './explorer-app.js';
import { decodeProxyRequest, handleExplorerComet, handleExplorerEth, handleExplorerSvm } from './explorer-proxy.js';
import { handleLogo } from './logo.js';
import { EXPLORER_PREFIX, handleStatus, handleSubmit, handleTrack } from './tx.js';

export type HttpMethod = 'GET' | 'POST';

export interface RouteDef<P = unknown> {
  readonly method: HttpMethod;
  /** Exact path, or a path whose last segment is `:name` (a path parameter). */
  readonly path: string;
  readonly summary: string;
  /** Part of the Skip-style API (listed in the swagger) rather than a page the node adds. */
  readonly api: boolean;
  /** Counts against the shared bucket of callers without an API key. */
  readonly limited: boolean;
  /** How errors are rendered. */
  readonly format: 'json' | 'html';
  /** The handler reads the raw body and headers (decode gets `rawBody`); the server does not parse it. */
  readonly rawBody?: boolean;
  /** For the node's own pages only: no CORS answer (preflight or actual) allows any origin here. */
  readonly sameOriginOnly?: boolean;
  decode(input: RequestInput): P;
  handle(ctx: RouteContext, params: P): Promise<Reply>;
}

function route<P>(def: RouteDef<P>): RouteDef {
  return Object.freeze(def) as RouteDef;
}

const api = { api: true, limited: true, format: 'json' } as const;
/** The explorer's proxies to a chain's JSON-RPC: the raw body passed on, for the node's own pages only. */
const explorerProxy = { api: false, limited: true, format: 'json', rawBody: true, sameOriginOnly: true, decode: decodeProxyRequest } as const;

export const ROUTES: readonly RouteDef[] = Object.freeze([
  route({
    method: 'GET',
    path: '/v2/info/chains',
    summary: 'Chains served by this node, with fee assets and capabilities',
    ...api,
    decode: decodeChainsQuery,
    handle: handleChains,
  }),
  route({
    method: 'POST',
    path: '/v2/info/balances',
    summary: 'Native and ERC20 balances of an address',
    ...api,
    decode: decodeBalancesBody,
    handle: handleBalances,
  }),
  route({
    method: 'GET',
    path: '/v2/info/bridges',
    summary: 'Bridges between the chains of the network (IBC)',
    ...api,
    decode: decodeNothing,
    handle: handleBridges,
  }),
  route({ method: 'GET', path: '/v2/fungible/venues', summary: 'Swap venues (none)', ...api, decode: decodeVenuesQuery, handle: handleVenues }),
  route({
    method: 'GET',
    path: '/v2/fungible/assets',
    summary: 'Assets of every chain: native denoms, tokens, IBC vouchers',
    ...api,
    decode: decodeAssetsQuery,
    handle: handleAssets,
  }),
  route({
    method: 'POST',
    path: '/v2/fungible/assets_from_source',
    summary: 'What an asset becomes on each chain one IBC transfer away',
    ...api,
    decode: decodeAssetsFromSourceBody,
    handle: handleAssetsFromSource,
  }),
  route({
    method: 'POST',
    path: '/v2/fungible/assets_between_chains',
    summary: 'Assets of one chain and what they become on another over IBC',
    ...api,
    decode: decodeAssetsBetweenChainsBody,
    handle: handleAssetsBetweenChains,
  }),
  route({
    method: 'GET',
    path: '/v2/fungible/assets_between_chains',
    summary: 'The same, with query parameters (what @skip-go/client sends)',
    api: false,
    limited: true,
    format: 'json',
    decode: decodeAssetsBetweenChainsQuery,
    handle: handleAssetsBetweenChains,
  }),
  route({
    method: 'POST',
    path: '/v2/fungible/ibc_origin_assets',
    summary: 'The origin asset of IBC vouchers',
    ...api,
    decode: decodeIbcOriginAssetsBody,
    handle: handleIbcOriginAssets,
  }),
  route({
    method: 'POST',
    path: '/v2/fungible/recommend_assets',
    summary: 'The denom an asset becomes on a destination chain',
    ...api,
    decode: decodeRecommendAssetsBody,
    handle: handleRecommendAssets,
  }),
  route({
    method: 'POST',
    path: '/v2/fungible/route',
    summary: 'The route between two assets: a bank send on one chain or an IBC transfer between the hub and the EVM chain',
    ...api,
    decode: decodeRouteBody,
    handle: handleRoute,
  }),
  route({
    method: 'POST',
    path: '/v2/fungible/msgs',
    summary: 'The messages that execute a route (a MsgTransfer, a MsgSend, or an EVM tx to the ICS-20 precompile)',
    ...api,
    decode: decodeMsgsBody,
    handle: handleMsgs,
  }),
  route({
    method: 'POST',
    path: '/v2/fungible/msgs_direct',
    summary: 'The route and its messages in one call',
    ...api,
    decode: decodeMsgsDirectBody,
    handle: handleMsgsDirect,
  }),
  route({
    method: 'POST',
    path: '/v2/tx/submit',
    summary: 'Broadcast a signed base64 tx through CheckTx into the mempool',
    ...api,
    decode: decodeSubmitBody,
    handle: handleSubmit,
  }),
  route({
    method: 'POST',
    path: '/v2/tx/track',
    summary: 'Register an already broadcast tx for status tracking',
    ...api,
    decode: decodeTrackBody,
    handle: handleTrack,
  }),
  route({ method: 'GET', path: '/v2/tx/status', summary: 'Status of a submitted or tracked tx', ...api, decode: decodeStatusQuery, handle: handleStatus }),
  route({
    method: 'GET',
    path: `${EXPLORER_PREFIX}:hash`,
    summary: 'Explorer page of a tx (either hash form)',
    api: false,
    limited: true,
    format: 'html',
    decode: decodeExplorerPath,
    handle: handleExplorerTx,
  }),
  route({
    method: 'GET',
    path: EXPLORER_APP_PATH,
    summary: 'The live explorer',
    api: false,
    limited: false,
    format: 'html',
    decode: decodeNothing,
    handle: handleExplorerApp,
  }),
  route({
    method: 'GET',
    path: '/explorer/app.js',
    summary: 'The live explorer’s script',
    api: false,
    limited: false,
    format: 'json',
    decode: decodeNothing,
    handle: handleExplorerScript,
  }),
  route({
    method: 'GET',
    path: '/explorer/format.js',
    summary: 'The live explorer’s formatting module (amounts, times, address forms)',
    api: false,
    limited: false,
    format: 'json',
    decode: decodeNothing,
    handle: handleExplorerFormat,
  }),
  route({
    method: 'GET',
    path: '/explorer/style.css',
    summary: 'The live explorer’s style sheet',
    api: false,
    limited: false,
    format: 'json',
    decode: decodeNothing,
    handle: handleExplorerStyle,
  }),
  route({
    method: 'GET',
    path: '/explorer/api/config',
    summary: 'What the live explorer shows and where it subscribes',
    api: false,
    limited: false,
    format: 'json',
    decode: decodeNothing,
    handle: handleExplorerConfig,
  }),
  route({
    method: 'POST',
    path: '/explorer/api/comet',
    summary: 'The chain’s CometBFT JSON-RPC, for the explorer',
    ...explorerProxy,
    handle: handleExplorerComet,
  }),
  route({ method: 'POST', path: '/explorer/api/eth', summary: 'The chain’s Ethereum JSON-RPC, for the explorer', ...explorerProxy, handle: handleExplorerEth }),
  route({
    method: 'GET',
    path: '/explorer/api/mempool',
    summary: 'The mempool per sender (pending and queued), for the explorer',
    api: false,
    limited: true,
    format: 'json',
    decode: decodeNothing,
    handle: handleExplorerMempool,
  }),
  route({
    method: 'GET',
    path: '/explorer/api/ibc',
    summary: 'The latest IBC transfers with their packets’ txs and state, for the explorer',
    api: false,
    limited: true,
    format: 'json',
    decode: decodeNothing,
    handle: handleExplorerIbc,
  }),
  route({
    method: 'POST',
    path: '/explorer/api/svm',
    summary: 'The SVM chain’s Solana JSON-RPC, for the explorer',
    ...explorerProxy,
    handle: handleExplorerSvm,
  }),
  route({ method: 'GET', path: LOGO_PATH, summary: 'Chain logo', api: false, limited: false, format: 'json', decode: decodeNothing, handle: handleLogo }),
  route({
    method: 'GET',
    path: '/',
    summary: 'This list of endpoints',
    api: false,
    limited: false,
    format: 'json',
    decode: decodeNothing,
    handle: handleIndex,
  }),
]);

async function handleIndex(): Promise<Reply> {
  return json({ endpoints: ROUTES.map((r) => ({ method: r.method, path: r.path, summary: r.summary })) });
}

export interface RouteMatch {
  route: RouteDef;
  pathParams: Record<string, string>;
}

function matchPath(pattern: string, path: string): Record<string, string> | undefined {
  const colon = pattern.lastIndexOf('/:');
  if (colon < 0) return pattern === path ? {} : undefined;
  const prefix = pattern.slice(0, colon + 1);
  if (!path.startsWith(prefix)) return undefined;
  const value = path.slice(prefix.length);
  if (value === '' || value.includes('/')) return undefined;
  let decoded: string;
  try {
    decoded = decodeURIComponent(value);
  } catch {
    return undefined;
  }
  return { [pattern.slice(colon + 2)]: decoded };
}

/** The route for `method path`; `allowed` lists the methods of the path when only the method is wrong. */
export function findRoute(method: string, path: string): { match?: RouteMatch; allowed: HttpMethod[] } {
  const normalized = path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
  const allowed: HttpMethod[] = [];
  for (const r of ROUTES) {
    const pathParams = matchPath(r.path, normalized);
    if (!pathParams) continue;
    if (r.method === method || (method === 'HEAD' && r.method === 'GET')) return { match: { route: r, pathParams }, allowed };
    allowed.push(r.method);
  }
  return { allowed };
}

/** Whether any route at `path` (whatever its method) is `sameOriginOnly`: the transport's CORS allows no origin there. */
export function isSameOriginOnly(path: string): boolean {
  const normalized = path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
  return ROUTES.some((r) => r.sameOriginOnly === true && matchPath(r.path, normalized) !== undefined);
}
