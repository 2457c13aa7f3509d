/**
 * GET /v2/info/chains: the records of every chain adapter. An EVM chain is listed twice, as Skip lists Ethermint-style chains: a
 * `cosmos` record under its Cosmos chain id and an `evm` record under its EVM chain id (a decimal
 * string). Field names follow the interface contract (seed), which says `ecosystem_*` where the
 * swagger says `cosmos_*`. Every value is true of this node: no IBC, no PFM, no authz/feegrant
 * modules, no memos (the chain takes Ethereum txs only), gas prices from the live fee market.
 */
import type { RouteContext, Reply } from './context.js';
import { json } from './context.js';
import type { ChainsQuery } from './decode.js';
import type { HostedChain, RoutingChain, RoutingEnv } from './env.js';
import { ChainNotSupportedError } from './errors.js';

export type ChainType = 'cosmos' | 'evm' | 'svm';

export interface FeeAssetRecord {
  denom: string;
  gas_price: { low: string; average: string; high: string } | null;
}

export interface ChainRecord {
  chain_name: string;
  chain_id: string;
  pretty_name: string;
  chain_type: ChainType;
  is_testnet: boolean;
  pfm_enabled: boolean;
  supports_memo: boolean;
  logo_uri: string | null;
  bech32_prefix: string;
  ecosystem_module_support: { authz: boolean; feegrant: boolean };
  ibc_capabilities: { ecosystem_pfm: boolean; ecosystem_ibc_hooks: boolean; ecosystem_memo: boolean; ecosystem_autopilot: boolean };
  fee_assets: FeeAssetRecord[];
}

export interface ChainsResponse {
  chains: ChainRecord[];
}

export const LOGO_PATH = '/logo.svg';

/** The chain of the network a chain id names, and which face of it; throws `chain ID not supported` otherwise. */
export function resolveChain(env: Pick<RoutingEnv, 'chains'>, chainId: string): { chain: RoutingChain; type: ChainType } {
  for (const chain of env.chains) {
    const type = chain.face(chainId);
    if (type) return { chain, type };
  }
  throw new ChainNotSupportedError(chainId);
}

/** The face an Ethermint-style chain's id names (its Cosmos id or its EVM id). */
export function ethermintFace(c: HostedChain, chainId: string): 'cosmos' | 'evm' | undefined {
  return chainId === c.cosmosChainId ? 'cosmos' : chainId === c.evmChainId ? 'evm' : undefined;
}

export function chainRecords(env: RoutingEnv, baseUrl: string): ChainRecord[] {
  return env.chains.flatMap((c) => c.records(baseUrl));
}

/** The two records of an Ethermint-style chain (see the top of this file). */
export function ethermintRecords(c: HostedChain, g: { low: bigint; average: bigint; high: bigint }, baseUrl: string): ChainRecord[] {
  const fee: FeeAssetRecord = { denom: c.denom, gas_price: { low: g.low.toString(), average: g.average.toString(), high: g.high.toString() } };
  const common = {
    is_testnet: c.isTestnet,
    pfm_enabled: false,
    supports_memo: false,
    logo_uri: `${baseUrl}${LOGO_PATH}`,
    ecosystem_module_support: { authz: false, feegrant: false },
    ibc_capabilities: { ecosystem_pfm: false, ecosystem_ibc_hooks: false, ecosystem_memo: false, ecosystem_autopilot: false },
    fee_assets: [fee],
  };
  return [
    { chain_name: c.chainName, chain_id: c.cosmosChainId, pretty_name: c.prettyName, chain_type: 'cosmos', bech32_prefix: c.bech32Prefix, ...common },
    // EVM records carry no bech32 prefix: addresses on that face are 0x hex.
    { chain_name: `${c.chainName}-evm`, chain_id: c.evmChainId, pretty_name: `${c.prettyName} EVM`, chain_type: 'evm', bech32_prefix: '', ...common },
  ];
}

/** Filters as the swagger defines them; they combine with AND. */
export function filterChains(records: ChainRecord[], q: ChainsQuery): ChainRecord[] {
  return records.filter(
    (r) =>
      (q.chainIds.length === 0 || q.chainIds.includes(r.chain_id)) &&
      (r.chain_type !== 'evm' || q.includeEvm) &&
      (r.chain_type !== 'svm' || q.includeSvm) &&
      (!q.onlyTestnets || r.is_testnet),
  );
}

export async function handleChains(ctx: RouteContext, q: ChainsQuery): Promise<Reply> {
  const body: ChainsResponse = { chains: filterChains(chainRecords(ctx.env, ctx.baseUrl()), q) };
  return json(body);
}
