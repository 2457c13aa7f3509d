/** Decoding of the asset routes' query parameters and bodies, with the Skip Go API's field names and errors. */
import type { Reason } from './assets.js';
import { asObject, parseBool, stringList, type RequestInput } from './decode.js';
import { InvalidArgumentError } from './errors.js';

const REASONS: readonly Reason[] = ['UNKNOWN', 'MOST_LIQUID', 'BASE_TOKEN', 'DIRECT'];

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
