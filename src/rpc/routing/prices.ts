/**
 * The USD price table of `[routing] prices` in app.toml: price per display unit, keyed by denom or
 * by ERC20 contract address (any case). Prices are validated and normalised once at start; a
 * denom without a price is priced "0", as the issue asks.
 */
import { normalizePrice } from './amount.js';
import { RoutingConfigError } from './errors.js';

export interface PriceTable {
  /** The first configured price among `keys` (compared case-insensitively), else undefined. */
  lookup(keys: readonly string[]): string | undefined;
}

export function createPriceTable(prices: Readonly<Record<string, string>>): PriceTable {
  const table = new Map<string, string>();
  for (const [k, v] of Object.entries(prices)) {
    if (v === '' || v === undefined) continue;
    try {
      table.set(k.trim().toLowerCase(), normalizePrice(String(v)));
    } catch {
      throw new RoutingConfigError(`prices.${k}`, `"${v}" is not a non-negative decimal number`);
    }
  }
  return {
    lookup(keys) {
      for (const k of keys) {
        const p = table.get(k.toLowerCase());
        if (p !== undefined) return p;
      }
      return undefined;
    },
  };
}
