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
import { denomAfterHop, denomHashHex, denomPath, type Hop } from '../../ibc/keys.js';
import type { IbcStore } from '../../ibc/ibc-store.js';
import { LOGO_PATH, resolveChain, type ChainType } from './chains.js';
import type { Reply, RouteContext } from './context.js';
import { json } from './context.js';
import { asObject, parseBool, stringList, type RequestInput } from './decode.js';
import { ibcChannel, type HostedChain, type RoutingChain, type RoutingEnv } from './env.js';
import { InvalidArgumentError } from './errors.js';

/** One asset as the Skip Go API writes it (the swagger's `Asset`). */
export interface AssetInfo {
  denom: string;
  /** The face it is listed under: a Cosmos chain id, an EVM chain id, the SVM chain id. */
  chain_id: string;
  origin_denom: string;
  /** "" when the adapter cannot tell (a voucher): `networkAssets` resolves it. */
  origin_chain_id: string;
  /** `transfer/channel-0` for a voucher (hops joined by `/`), "" for an asset on its origin chain. */
  trace: string;
  is_cw20: boolean;
  is_evm: boolean;
  is_svm: boolean;
  symbol: string | null;
  name: string | null;
  /** Absolute, or a path of this server (`/logo.svg`) that the handlers complete with its base URL. */
  logo_uri: string | null;
  decimals: number | null;
  /** The ERC20 contract or the SPL mint. */
  token_contract: string | null;
  description: string | null;
  coingecko_id: null;
  recommended_symbol: string | null;
}

export type Reason = 'UNKNOWN' | 'MOST_LIQUID' | 'BASE_TOKEN' | 'DIRECT';
const REASONS: readonly Reason[] = ['UNKNOWN', 'MOST_LIQUID', 'BASE_TOKEN', 'DIRECT'];

export const IBC_BRIDGE = {
  id: 'IBC',
  name: 'IBC',
  logo_uri: 'https://raw.githubusercontent.com/skip-mev/skip-go-registry/main/bridges/ibc/logo.svg',
} as const;

// ─────────────────────────────── what adapters list ───────────────────────────────

/** An asset on its own chain with no metadata; `fields` fill in what is known. */
function asset(denom: string, chainId: string, fields: Partial<AssetInfo> = {}): AssetInfo {
  return {
    denom,
    chain_id: chainId,
    origin_denom: denom,
    origin_chain_id: chainId,
    trace: '',
    is_cw20: false,
    is_evm: false,
    is_svm: false,
    symbol: null,
    name: null,
    logo_uri: null,
    decimals: null,
    token_contract: null,
    description: null,
    coingecko_id: null,
    recommended_symbol: null,
    ...fields,
  };
}

/** The native asset of `chain` on the face `chainId` (denom: its base denom unless given). */
export function nativeAsset(chain: HostedChain, chainId: string, opts: { denom?: string; isEvm?: boolean; isSvm?: boolean } = {}): AssetInfo {
  const symbol = chain.displayDenom.toUpperCase();
  return asset(opts.denom ?? chain.denom, chainId, {
    is_evm: opts.isEvm ?? false,
    is_svm: opts.isSvm ?? false,
    symbol,
    name: chain.prettyName,
    logo_uri: LOGO_PATH,
    decimals: chain.decimals,
    description: `The native token of ${chain.prettyName}`,
    recommended_symbol: symbol,
  });
}

/** An Ethermint-style chain's native asset: `achainlet` on its Cosmos face, `chainlet-native` on its EVM face. */
export function ethermintNativeAssets(chain: HostedChain): AssetInfo[] {
  return [nativeAsset(chain, chain.cosmosChainId), nativeAsset(chain, chain.evmChainId, { denom: `${chain.chainName}-native`, isEvm: true })];
}

/** A token contract (ERC20) or mint (SPL) on its own chain. */
export function tokenAsset(
  chainId: string,
  contract: string,
  meta: { symbol: string | null; name: string | null; decimals: number | null; isEvm?: boolean; isSvm?: boolean; description?: string },
): AssetInfo {
  return asset(contract, chainId, {
    is_evm: meta.isEvm ?? false,
    is_svm: meta.isSvm ?? false,
    symbol: meta.symbol,
    name: meta.name,
    decimals: meta.decimals,
    token_contract: contract,
    description: meta.description ?? null,
    recommended_symbol: meta.symbol,
  });
}

const traceOf = (hops: readonly Hop[]): string => hops.map((h) => `${h.portId}/${h.channelId}`).join('/');

/** `transfer/channel-0/transfer/channel-3` → hops. */
function hopsOf(trace: string): Hop[] {
  if (trace === '') return [];
  const parts = trace.split('/');
  const hops: Hop[] = [];
  for (let i = 0; i + 1 < parts.length; i += 2) hops.push({ portId: parts[i]!, channelId: parts[i + 1]! });
  return hops;
}

function voucherShell(chainId: string, base: string, hops: readonly Hop[]): AssetInfo {
  return asset(`ibc/${denomHashHex(denomPath({ base, trace: [...hops] }))}`, chainId, { origin_denom: base, origin_chain_id: '', trace: traceOf(hops) });
}

/** The vouchers a chain ever received: its IBC store's `transfer/denoms/<HASH>` entries, origin unresolved. */
export function storeVouchers(store: Pick<IbcStore, 'entries'>, chainId: string): AssetInfo[] {
  const prefix = 'transfer/denoms/';
  return store.entries(prefix).map(([key, value]) => {
    const d = JSON.parse(new TextDecoder().decode(value)) as { base: string; trace: Hop[] };
    return { ...voucherShell(chainId, d.base, d.trace), denom: `ibc/${key.slice(prefix.length).toUpperCase()}` };
  });
}

// ─────────────────────────────── the network's catalog ───────────────────────────────

interface Face {
  id: string;
  type: ChainType;
  rc: RoutingChain;
}

function facesOf(rc: RoutingChain): Face[] {
  const ids = [rc.chain.cosmosChainId, rc.chain.evmChainId].filter((id, i, a) => id !== '' && a.indexOf(id) === i);
  return ids.flatMap((id) => {
    const type = rc.face(id);
    return type ? [{ id, type, rc }] : [];
  });
}

const isNativeAsset = (a: AssetInfo): boolean => a.trace === '' && a.token_contract === null && a.origin_chain_id === a.chain_id;

/** The network's assets, face by face, with vouchers' origins resolved; built per request. */
export class AssetCatalog {
  private constructor(
    private readonly env: Pick<RoutingEnv, 'chains' | 'ibcPaths'>,
    readonly faces: readonly Face[],
    private readonly byFace: Map<string, AssetInfo[]>,
  ) {}

  static async load(env: Pick<RoutingEnv, 'chains' | 'ibcPaths'>, baseUrl: string): Promise<AssetCatalog> {
    const faces = env.chains.flatMap(facesOf);
    const byFace = new Map<string, AssetInfo[]>(faces.map((f) => [f.id, []]));
    for (const rc of env.chains) {
      for (const a of rc.assets ? await rc.assets() : []) {
        const logo = a.logo_uri?.startsWith('/') ? `${baseUrl}${a.logo_uri}` : a.logo_uri;
        byFace.get(a.chain_id)?.push({ ...a, logo_uri: logo });
      }
    }
    const catalog = new AssetCatalog(env, faces, byFace);
    for (const [id, list] of byFace)
      byFace.set(
        id,
        list.map((a) => (a.trace !== '' ? catalog.resolveVoucher(a) : a)),
      );
    return catalog;
  }

  /** The face a chain id names; throws `chain ID not supported` (code 5) otherwise. */
  face(chainId: string): Face {
    const { chain, type } = resolveChain(this.env, chainId);
    return { id: chainId, type, rc: chain };
  }

  assetsOf(faceId: string): AssetInfo[] {
    return this.byFace.get(faceId) ?? [];
  }

  /** An asset of a face by denom: exact, an `ibc/` hash or 0x address in any case, or the native denom's aliases. */
  find(faceId: string, denom: string): AssetInfo | undefined {
    const list = this.assetsOf(faceId);
    const exact = list.find((a) => a.denom === denom);
    if (exact) return exact;
    // Hex in a voucher's hash or a contract address is case-insensitive; other denoms are not.
    if (/^(?:ibc\/|0x)/i.test(denom)) {
      const lower = denom.toLowerCase();
      const loose = list.find((a) => /^(?:ibc\/|0x)/i.test(a.denom) && a.denom.toLowerCase() === lower);
      if (loose) return loose;
    }
    const rc = this.byFaceChain(faceId);
    if (rc && (denom === rc.chain.denom || denom === `${rc.chain.chainName}-native`)) return list.find(isNativeAsset);
    return undefined;
  }

  private byFaceChain(faceId: string): RoutingChain | undefined {
    return this.faces.find((f) => f.id === faceId)?.rc;
  }

  /** The chain a trace leads back to from `chainId` over the IBC paths; undefined when a hop is not one of them. */
  private walk(chainId: string, hops: readonly Hop[]): string | undefined {
    let cur = chainId;
    for (const h of hops) {
      const p = (this.env.ibcPaths ?? []).find((x) => (x.chainA === cur && x.channelA === h.channelId) || (x.chainB === cur && x.channelB === h.channelId));
      if (!p || h.portId !== 'transfer') return undefined;
      cur = p.chainA === cur && p.channelA === h.channelId ? p.chainB : p.chainA;
    }
    return cur;
  }

  /** A voucher with its origin chain and its origin asset's metadata (decimals, symbol…). */
  private resolveVoucher(v: AssetInfo): AssetInfo {
    const hops = hopsOf(v.trace);
    const originChainId =
      this.walk(v.chain_id, hops) ?? this.env.chains.find((c) => c.chain.denom === v.origin_denom)?.chain.cosmosChainId ?? v.origin_chain_id;
    const origin = originChainId ? this.assetsOf(originChainId).find((a) => a.trace === '' && a.denom === v.origin_denom) : undefined;
    if (!origin) return { ...v, origin_chain_id: originChainId };
    return {
      ...v,
      origin_chain_id: originChainId,
      symbol: origin.symbol,
      name: origin.name,
      logo_uri: origin.logo_uri,
      decimals: origin.decimals,
      description: origin.description,
      recommended_symbol: origin.recommended_symbol,
    };
  }

  /** The asset `a` is on another face of its own chain (only the native denom has two faces). */
  private onFace(a: AssetInfo, faceId: string): AssetInfo | undefined {
    if (a.chain_id === faceId) return a;
    const from = this.byFaceChain(a.chain_id);
    if (!from || from !== this.byFaceChain(faceId) || !isNativeAsset(a)) return undefined;
    return this.assetsOf(faceId).find(isNativeAsset);
  }

  /**
   * What `a` becomes on the face `destId` after one IBC transfer (port `transfer`), or undefined
   * when no channel joins the two chains or the asset cannot cross (an ERC20, an SPL mint).
   */
  transfer(a: AssetInfo, destId: string): AssetInfo | undefined {
    const src = this.byFaceChain(a.chain_id);
    const dst = this.byFaceChain(destId);
    if (!src || !dst || src === dst) return undefined;
    // Both ends move bank coins: the asset as its chain's Cosmos face holds it.
    const bank = this.onFace(a, src.chain.cosmosChainId);
    if (!bank || bank.token_contract !== null || bank.is_cw20) return undefined;
    const ch = ibcChannel(this.env.ibcPaths, src.chain.cosmosChainId, dst.chain.cosmosChainId);
    if (!ch) return undefined;
    const next = denomAfterHop(
      { base: bank.origin_denom, trace: hopsOf(bank.trace) },
      { portId: 'transfer', channelId: ch.channel },
      { portId: 'transfer', channelId: ch.counterparty },
    ).denom.trace;
    const destCosmos = dst.chain.cosmosChainId;
    let arrived: AssetInfo | undefined;
    if (next.length === 0) {
      arrived = this.assetsOf(destCosmos).find((x) => x.trace === '' && x.denom === bank.origin_denom) ?? {
        ...bank,
        denom: bank.origin_denom,
        chain_id: destCosmos,
        origin_chain_id: destCosmos,
        trace: '',
      };
    } else {
      const shell = voucherShell(destCosmos, bank.origin_denom, next);
      arrived = this.assetsOf(destCosmos).find((x) => x.denom === shell.denom) ?? this.resolveVoucher(shell);
    }
    return this.onFace(arrived, destId);
  }

  /** What `a` is on the face `destId`: itself or its other face on its own chain, else what one IBC transfer makes of it. */
  reach(a: AssetInfo, destId: string): AssetInfo | undefined {
    const src = this.byFaceChain(a.chain_id);
    return src !== undefined && src === this.byFaceChain(destId) ? this.onFace(a, destId) : this.transfer(a, destId);
  }

  /** The asset `a` stands for on its origin chain. */
  origin(a: AssetInfo): AssetInfo | undefined {
    if (a.trace === '') return a;
    if (a.origin_chain_id === '') return undefined;
    const known = this.byFace.has(a.origin_chain_id) ? this.assetsOf(a.origin_chain_id).find((x) => x.trace === '' && x.denom === a.origin_denom) : undefined;
    return known ?? { ...a, denom: a.origin_denom, chain_id: a.origin_chain_id, trace: '' };
  }
}

/** Every asset of the network, face by face (chain id → assets), vouchers resolved. */
export async function networkAssets(env: Pick<RoutingEnv, 'chains' | 'ibcPaths'>, baseUrl = ''): Promise<Map<string, AssetInfo[]>> {
  const c = await AssetCatalog.load(env, baseUrl);
  return new Map(c.faces.map((f) => [f.id, c.assetsOf(f.id)]));
}

// ─────────────────────────────── decoding ───────────────────────────────

export interface AssetFilters {
  nativeOnly: boolean;
  includeNoMetadata: boolean;
  includeCw20: boolean;
  includeEvm: boolean;
  includeSvm: boolean;
}

export interface AssetsQuery extends AssetFilters {
  chainIds: string[];
  onlyTestnets: boolean;
}

export interface AssetsFromSourceRequest {
  denom: string;
  chainId: string;
  allowMultiTx: boolean;
  nativeOnly: boolean;
  includeCw20: boolean;
}

export interface AssetsBetweenChainsRequest {
  sourceChainId: string;
  destChainId: string;
  includeNoMetadata: boolean;
  includeCw20: boolean;
  includeEvm: boolean;
  allowMultiTx: boolean;
}

export interface IbcOriginAssetsRequest {
  assets: { denom: string; chainId: string }[];
}

export interface RecommendAssetsRequest {
  requests: { denom: string; chainId: string; destChainId: string | undefined; reason: Reason | undefined }[];
}

function bool(o: Record<string, unknown>, name: string, dflt = false): boolean {
  const v = o[name];
  if (v === undefined || v === null) return dflt;
  if (typeof v !== 'boolean') throw new InvalidArgumentError(`${name} must be a boolean`);
  return v;
}

/** A chain id: a string, or a number for an EVM chain id. */
function chainId(o: Record<string, unknown>, name: string, missing: string): string {
  const v = o[name];
  if (v === undefined || v === null || v === '') throw new InvalidArgumentError(missing);
  if (typeof v === 'number' && Number.isSafeInteger(v) && v >= 0) return String(v);
  if (typeof v !== 'string') throw new InvalidArgumentError(`${name} must be a string`);
  return v.trim();
}

function denom(o: Record<string, unknown>, name: string, missing: string): string {
  const v = o[name];
  if (v === undefined || v === null || v === '') throw new InvalidArgumentError(missing);
  if (typeof v !== 'string') throw new InvalidArgumentError(`${name} must be a string`);
  return v.trim();
}

function reason(o: Record<string, unknown>, name: string): Reason | undefined {
  const v = o[name];
  if (v === undefined || v === null || v === '') return undefined;
  if (typeof v !== 'string' || !REASONS.includes(v as Reason)) throw new InvalidArgumentError(`${name} must be one of ${REASONS.join(', ')}`);
  return v as Reason;
}

export function decodeAssetsQuery(input: RequestInput): AssetsQuery {
  const q = input.query;
  return {
    chainIds: stringList(q, 'chain_ids'),
    nativeOnly: parseBool(q, 'native_only', false),
    includeNoMetadata: parseBool(q, 'include_no_metadata_assets', false),
    includeCw20: parseBool(q, 'include_cw20_assets', false),
    includeEvm: parseBool(q, 'include_evm_assets', false),
    includeSvm: parseBool(q, 'include_svm_assets', false),
    onlyTestnets: parseBool(q, 'only_testnets', false),
  };
}

export function decodeVenuesQuery(input: RequestInput): { onlyTestnets: boolean } {
  return { onlyTestnets: parseBool(input.query, 'only_testnets', false) };
}

export function decodeAssetsFromSourceBody(input: RequestInput): AssetsFromSourceRequest {
  const b = asObject(input.body, 'request body');
  const out = {
    denom: denom(b, 'source_asset_denom', 'Must supply source_asset_denom'),
    chainId: chainId(b, 'source_asset_chain_id', 'Must supply source_asset_chain_id'),
    allowMultiTx: bool(b, 'allow_multi_tx'),
    nativeOnly: bool(b, 'native_only'),
    includeCw20: bool(b, 'include_cw20_assets'),
  };
  bool(b, 'include_swaps');
  reason(b, 'recommendation_reason');
  if (b.swap_venues !== undefined && b.swap_venues !== null && !Array.isArray(b.swap_venues)) throw new InvalidArgumentError('swap_venues must be an array');
  if (b.group_by !== undefined && b.group_by !== null && typeof b.group_by !== 'string') throw new InvalidArgumentError('group_by must be a string');
  return out;
}

function betweenChains(o: Record<string, unknown>): AssetsBetweenChainsRequest {
  return {
    sourceChainId: chainId(o, 'source_chain_id', 'Must supply source_chain_id'),
    destChainId: chainId(o, 'dest_chain_id', 'Must supply dest_chain_id'),
    includeNoMetadata: bool(o, 'include_no_metadata_assets'),
    includeCw20: bool(o, 'include_cw20_assets'),
    includeEvm: bool(o, 'include_evm_assets'),
    allowMultiTx: bool(o, 'allow_multi_tx'),
  };
}

export function decodeAssetsBetweenChainsBody(input: RequestInput): AssetsBetweenChainsRequest {
  return betweenChains(asObject(input.body, 'request body'));
}

/** The GET form (@skip-go/client's `assetsBetweenChains` sends the fields as query parameters). */
export function decodeAssetsBetweenChainsQuery(input: RequestInput): AssetsBetweenChainsRequest {
  const q = input.query;
  const o: Record<string, unknown> = { source_chain_id: q.get('source_chain_id') ?? undefined, dest_chain_id: q.get('dest_chain_id') ?? undefined };
  for (const k of ['include_no_metadata_assets', 'include_cw20_assets', 'include_evm_assets', 'allow_multi_tx']) o[k] = parseBool(q, k, false);
  return betweenChains(o);
}

export function decodeIbcOriginAssetsBody(input: RequestInput): IbcOriginAssetsRequest {
  const b = asObject(input.body, 'request body');
  if (!Array.isArray(b.assets) || b.assets.length === 0) throw new InvalidArgumentError('assets must be a non-empty array of {denom, chain_id}');
  return {
    assets: b.assets.map((v, i) => {
      const e = asObject(v, `assets[${i}]`);
      return { denom: denom(e, 'denom', 'Must supply denom and chain_id'), chainId: chainId(e, 'chain_id', 'Must supply denom and chain_id') };
    }),
  };
}

export function decodeRecommendAssetsBody(input: RequestInput): RecommendAssetsRequest {
  const b = asObject(input.body, 'request body');
  if (!Array.isArray(b.requests) || b.requests.length === 0) throw new InvalidArgumentError('requests must be a non-empty array');
  return {
    requests: b.requests.map((v, i) => {
      const e = asObject(v, `requests[${i}]`);
      const dest = e.dest_chain_id === undefined || e.dest_chain_id === null || e.dest_chain_id === '' ? undefined : chainId(e, 'dest_chain_id', '');
      return {
        denom: denom(e, 'source_asset_denom', 'Must supply source_asset'),
        chainId: chainId(e, 'source_asset_chain_id', 'Must supply source_asset'),
        destChainId: dest,
        reason: reason(e, 'reason'),
      };
    }),
  };
}

// ─────────────────────────────── handlers ───────────────────────────────

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
