/**
 * The asset registry of the network, read live from its chains (no registry file):
 *
 *   GET  /v2/info/bridges                     IBC, when the network has an IBC channel
 *   GET  /v2/fungible/venues                  none: there are no swap venues
 *   GET  /v2/fungible/assets                  every chain's assets, filtered as the swagger says
 *   POST /v2/fungible/assets_from_source      where an asset goes in one IBC transfer
 *   POST /v2/fungible/assets_between_chains   the pairs (asset on source, what it becomes on dest)
 *        (also GET with the same fields as query parameters: what @skip-go/client sends)
 *   POST /v2/fungible/ibc_origin_assets       a voucher's origin asset
 *   POST /v2/fungible/recommend_assets        the denom an asset becomes on a destination chain
 *
 * Each chain adapter lists its own assets (`RoutingChain.assets`): an Ethermint-style chain lists
 * its native denom twice, as Skip lists such chains: `achainlet` under its Cosmos chain id (with
 * the IBC vouchers, bank coins) and `chainlet-native` under its EVM chain id (`is_evm`); the hub
 * lists `uhub` and its vouchers; the SVM chain `solana-native` and its SPL mint (`is_svm`). A
 * voucher's origin (chain, asset, decimals) is resolved here by walking its trace over the
 * network's IBC paths. An IBC transfer moves an asset over the channel between two chains: it
 * becomes `ibc/<SHA-256 of transfer/<dest channel>/<path>>`, or unwinds one hop when it goes back
 * through the channel it came by (home: the native denom again).
 */
import type { Reply, RouteContext } from './context.js';
import { json } from './context.js';
import { AssetCatalog } from './asset-catalog.js';
import { IBC_BRIDGE, type AssetInfo, type Reason } from './assets.js';
import { InvalidArgumentError } from './errors.js';
import type {
  AssetFilters,
  AssetsBetweenChainsRequest,
  AssetsFromSourceRequest,
  AssetsQuery,
  IbcOriginAssetsRequest,
  RecommendAssetsRequest,
} from './assets-decode.js';

function keep(a: AssetInfo, f: Partial<AssetFilters>): boolean {
  if (f.nativeOnly && a.trace !== '') return false;
  if (!f.includeNoMetadata && (a.symbol === null || a.decimals === null)) return false;
  if (!f.includeCw20 && a.is_cw20) return false;
  if (!f.includeEvm && a.is_evm) return false;
  if (!f.includeSvm && a.is_svm) return false;
  return true;
}

export async function handleBridges(ctx: RouteContext): Promise<Reply> {
  return json({ bridges: (ctx.env.ibcPaths ?? []).length > 0 ? [{ ...IBC_BRIDGE }] : [] });
}

export async function handleVenues(): Promise<Reply> {
  return json({ venues: [] });
}

export async function handleAssets(ctx: RouteContext, q: AssetsQuery): Promise<Reply> {
  const c = await AssetCatalog.load(ctx.env, ctx.baseUrl());
  for (const id of q.chainIds) c.face(id); // unknown chain ids fail the request
  const out: Record<string, { assets: AssetInfo[] }> = {};
  for (const f of c.faces) {
    if (q.chainIds.length > 0 && !q.chainIds.includes(f.id)) continue;
    if ((f.type === 'evm' && !q.includeEvm) || (f.type === 'svm' && !q.includeSvm)) continue;
    out[f.id] = { assets: c.assetsOf(f.id).filter((a) => keep(a, q)) };
  }
  return json({ chain_to_assets_map: out });
}

export async function handleAssetsFromSource(ctx: RouteContext, r: AssetsFromSourceRequest): Promise<Reply> {
  const c = await AssetCatalog.load(ctx.env, ctx.baseUrl());
  c.face(r.chainId);
  const source = c.find(r.chainId, r.denom);
  if (!source) throw new InvalidArgumentError(`Invalid source_asset_denom: ${r.denom} is not an asset of chain ${r.chainId}`);
  const out: Record<string, { assets: AssetInfo[] }> = {};
  // One transfer reaches the chains one channel away; there is no packet forwarding to go further.
  for (const f of c.faces) {
    const a = c.transfer(source, f.id);
    if (a && keep(a, { nativeOnly: r.nativeOnly, includeNoMetadata: true, includeCw20: r.includeCw20, includeEvm: true, includeSvm: true }))
      (out[f.id] ??= { assets: [] }).assets.push(a);
  }
  return json({ dest_assets: out });
}

export async function handleAssetsBetweenChains(ctx: RouteContext, r: AssetsBetweenChainsRequest): Promise<Reply> {
  const c = await AssetCatalog.load(ctx.env, ctx.baseUrl());
  c.face(r.sourceChainId);
  c.face(r.destChainId);
  const filters = { includeNoMetadata: r.includeNoMetadata, includeCw20: r.includeCw20, includeEvm: r.includeEvm, includeSvm: true };
  const pairs = c
    .assetsOf(r.sourceChainId)
    .filter((a) => keep(a, filters))
    .flatMap((a) => {
      const dest = c.transfer(a, r.destChainId);
      return dest && keep(dest, filters) ? [{ asset_on_source: a, asset_on_dest: dest, txs_required: 1, bridges: ['IBC'] }] : [];
    });
  return json({ assets_between_chains: pairs });
}

export async function handleIbcOriginAssets(ctx: RouteContext, r: IbcOriginAssetsRequest): Promise<Reply> {
  const c = await AssetCatalog.load(ctx.env, ctx.baseUrl());
  for (const a of r.assets) c.face(a.chainId);
  const origin_assets = r.assets.map((q) => {
    const found = c.find(q.chainId, q.denom);
    const origin = found && c.origin(found);
    return origin ? { asset: origin, asset_found: true } : { asset: null, asset_found: false };
  });
  return json({ origin_assets });
}

export async function handleRecommendAssets(ctx: RouteContext, r: RecommendAssetsRequest): Promise<Reply> {
  const c = await AssetCatalog.load(ctx.env, ctx.baseUrl());
  for (const q of r.requests) {
    c.face(q.chainId);
    if (q.destChainId !== undefined) c.face(q.destChainId);
  }
  const recommendation_entries = r.requests.map((q) => {
    const source = c.find(q.chainId, q.denom);
    if (!source) return { recommendations: [], error: { message: `source asset ${q.denom} not found on chain ${q.chainId}` } };
    const dests = q.destChainId !== undefined ? [q.destChainId] : c.faces.map((f) => f.id);
    const recommendations = dests.flatMap((d) => {
      const asset = c.reach(source, d);
      // On its origin chain (home again) it is the base token; any other arrival is the direct one.
      return asset ? [{ asset, reason: (asset.trace === '' ? 'BASE_TOKEN' : 'DIRECT') as Reason }] : [];
    });
    const wanted =
      q.reason === undefined || q.reason === 'UNKNOWN' || q.reason === 'MOST_LIQUID' ? recommendations : recommendations.filter((x) => x.reason === q.reason);
    return wanted.length > 0 ? { recommendations: wanted, error: null } : { recommendations: [], error: { message: 'no recommendation found' } };
  });
  return json({ recommendation_entries });
}
