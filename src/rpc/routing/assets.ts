/**
 * An asset as the Skip Go API writes it, and what chain adapters list (`RoutingChain.assets`): an
 * Ethermint-style chain lists its native denom twice, as Skip lists such chains: `achainlet` under
 * its Cosmos chain id (with the IBC vouchers, bank coins) and `chainlet-native` under its EVM chain
 * id (`is_evm`); the hub lists `uhub` and its vouchers; the SVM chain `solana-native` and its SPL
 * mint (`is_svm`). Vouchers are listed with their origin unresolved (src/rpc/routing/asset-catalog.ts
 * resolves it). The routes are in src/rpc/routing/assets-handlers.ts.
 */
import { denomHashHex, denomPath, type Hop } from '../../ibc/keys.js';
import type { IbcStore } from '../../ibc/ibc-store.js';
import { LOGO_PATH } from './chains.js';
import type { HostedChain } from './env.js';

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

export const traceOf = (hops: readonly Hop[]): string => hops.map((h) => `${h.portId}/${h.channelId}`).join('/');

/** `transfer/channel-0/transfer/channel-3` → hops. */
export function hopsOf(trace: string): Hop[] {
  if (trace === '') return [];
  const parts = trace.split('/');
  const hops: Hop[] = [];
  for (let i = 0; i + 1 < parts.length; i += 2) hops.push({ portId: parts[i]!, channelId: parts[i + 1]! });
  return hops;
}

export function voucherShell(chainId: string, base: string, hops: readonly Hop[]): AssetInfo {
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
