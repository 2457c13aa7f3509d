/**
 * POST /v2/info/balances. Per chain: the native balance (by bech32 or 0x address) and ERC20
 * balances (by contract address, read through the EVM). Amounts are integer strings in base
 * units; `formatted_amount` has exactly `decimals` fractional digits; `price` and `value_usd` come
 * from the `[routing] prices` table ("0" when unpriced). A problem with one denom (CW20, unknown
 * denom, not an ERC20) is reported in that denom's `error`; an unknown chain or a bad address
 * fails the request.
 */
import { fromBech32 } from '../../crypto/bech32.js';
import { canonicalIbcDenom } from '../../ibc/keys.js';
import { formatAmount, valueUsd } from './amount.js';
import { resolveChain } from './chains.js';
import type { Reply, RouteContext } from './context.js';
import { json } from './context.js';
import type { BalancesRequest } from './decode.js';
import type { HostedChain, RoutingChain } from './env.js';
import { DenomBalanceError, InvalidArgumentError } from './errors.js';

export interface DenomBalance {
  amount: string;
  decimals?: number;
  formatted_amount: string;
  price?: string;
  value_usd?: string;
  error?: { message: string };
}

export interface ChainBalances {
  address: string;
  denoms: Record<string, DenomBalance>;
}

export interface BalancesResponse {
  chains: Record<string, ChainBalances>;
}

const HEX_ADDRESS_RE = /^0x[0-9a-fA-F]{40}$/;
const ERC20_DENOM_RE = /^(?:erc20\/)?(0x[0-9a-fA-F]{40})$/;

/** 20 address bytes from `0x…` or bech32 with the chain's prefix. */
export function parseAddress(chain: HostedChain, chainId: string, address: string): Uint8Array {
  if (HEX_ADDRESS_RE.test(address)) return new Uint8Array(Buffer.from(address.slice(2), 'hex'));
  let decoded: { prefix: string; bytes: Uint8Array } | undefined;
  try {
    decoded = fromBech32(address);
  } catch {
    decoded = undefined;
  }
  if (!decoded || decoded.prefix !== chain.bech32Prefix || decoded.bytes.length !== 20) {
    throw new InvalidArgumentError(`invalid address "${address}" for chain ${chainId}: expected 0x hex or bech32 with prefix "${chain.bech32Prefix}"`);
  }
  return decoded.bytes;
}

type DenomKind = { kind: 'native' } | { kind: 'erc20'; contract: Uint8Array; address: string };

function classify(chain: HostedChain, chainId: string, denom: string): DenomKind {
  if (denom === chain.denom || denom === `${chain.chainName}-native`) return { kind: 'native' };
  const m = ERC20_DENOM_RE.exec(denom);
  if (m) return { kind: 'erc20', address: m[1]!.toLowerCase(), contract: new Uint8Array(Buffer.from(m[1]!.slice(2), 'hex')) };
  if (/^cw20:/i.test(denom)) throw new DenomBalanceError(denom, 'CW20 assets are not supported by /v2/info/balances');
  throw new DenomBalanceError(denom, `unknown denom "${denom}" on chain ${chainId}: use "${chain.denom}" or an ERC20 contract address`);
}

function priced(ctx: RouteContext, amount: bigint, decimals: number, priceKeys: string[]): DenomBalance {
  const price = ctx.prices.lookup(priceKeys) ?? '0';
  return { amount: amount.toString(), decimals, formatted_amount: formatAmount(amount, decimals), price, value_usd: valueUsd(amount, decimals, price) };
}

async function denomBalance(ctx: RouteContext, rc: RoutingChain, chainId: string, holder: Uint8Array, denom: string): Promise<DenomBalance> {
  const chain = rc.chain;
  try {
    if (/^ibc\//i.test(denom) && rc.voucherBalance) {
      const v = await rc.voucherBalance(holder, canonicalIbcDenom(denom));
      if (!v) throw new DenomBalanceError(denom, `unknown IBC denom "${denom}" on chain ${chainId}: no voucher of that hash was ever received`);
      // A voucher has its origin asset's decimals: the hosted chain whose native denom is its base.
      const origin = ctx.env.chains.find((c) => c.chain.denom === v.base)?.chain;
      return priced(ctx, v.amount, origin?.decimals ?? 0, [denom, v.base, ...(origin ? [origin.displayDenom] : [])]);
    }
    if (rc.balance) {
      const b = await rc.balance(holder, denom);
      return priced(ctx, b.amount, b.decimals, b.priceKeys);
    }
    const k = classify(chain, chainId, denom);
    if (k.kind === 'native') {
      const amount = await rc.nativeBalance(holder);
      return priced(ctx, amount, chain.decimals, [chain.denom, chain.displayDenom, denom]);
    }
    const { balance, decimals } = await rc.erc20Balance(k.contract, holder, denom);
    return priced(ctx, balance, decimals, [k.address, `erc20/${k.address}`, denom]);
  } catch (err) {
    if (err instanceof DenomBalanceError) return { amount: '0', formatted_amount: '0', error: { message: err.message } };
    throw err;
  }
}

export async function handleBalances(ctx: RouteContext, req: BalancesRequest): Promise<Reply> {
  // Validate every chain and address before reading anything.
  const plan = req.chains.map(([chainId, e]) => {
    const { chain: rc, type } = resolveChain(ctx.env, chainId);
    const holder = rc.parseHolder ? rc.parseHolder(e.address, chainId) : parseAddress(rc.chain, chainId, e.address);
    // No denoms: the native one, named as Skip names it on an EVM chain (`<chain>-native`, what its client looks for).
    return {
      rc,
      chainId,
      address: e.address,
      holder,
      denoms: e.denoms.length > 0 ? e.denoms : [type === 'evm' ? `${rc.chain.chainName}-native` : rc.chain.denom],
    };
  });
  const out: BalancesResponse = { chains: {} };
  for (const p of plan) {
    const denoms: Record<string, DenomBalance> = {};
    for (const d of p.denoms) denoms[d] = await denomBalance(ctx, p.rc, p.chainId, p.holder, d);
    out.chains[p.chainId] = { address: p.address, denoms };
  }
  return json(out);
}
