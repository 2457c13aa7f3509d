/**
 * Exact decimal arithmetic for balances: base-unit integers shown with `decimals` fractional
 * digits, and USD values as price × amount. Everything stays in bigint; no floating point ever
 * touches an amount, so 18-decimal balances keep every digit.
 */

const DECIMAL_RE = /^(\d+)(?:\.(\d+))?$/;

/** A non-negative decimal as an integer scaled by 10^scale. */
export interface ScaledDecimal {
  units: bigint;
  scale: number;
}

/** `formatAmount(58477097336215771549n, 18)` → `'58.477097336215771549'`; always exactly `decimals` fractional digits. */
export function formatAmount(amount: bigint, decimals: number): string {
  if (!Number.isInteger(decimals) || decimals < 0) throw new RangeError(`decimals must be a non-negative integer, got ${decimals}`);
  const negative = amount < 0n;
  const digits = (negative ? -amount : amount).toString();
  if (decimals === 0) return (negative ? '-' : '') + digits;
  const padded = digits.padStart(decimals + 1, '0');
  const whole = padded.slice(0, padded.length - decimals);
  const frac = padded.slice(padded.length - decimals);
  return `${negative ? '-' : ''}${whole}.${frac}`;
}

export function isDecimalString(s: string): boolean {
  return DECIMAL_RE.test(s);
}

/** Parses `'0.406894'` into 406894 at scale 6. Throws RangeError on anything but a plain non-negative decimal. */
export function parseDecimal(s: string): ScaledDecimal {
  const m = DECIMAL_RE.exec(s);
  if (!m) throw new RangeError(`not a non-negative decimal number: "${s}"`);
  const frac = m[2] ?? '';
  return { units: BigInt(m[1]! + frac), scale: frac.length };
}

/** Renders a scaled decimal without trailing fractional zeros (`'23.79398'`, `'0'`, `'12'`). */
export function renderDecimal(d: ScaledDecimal): string {
  const s = formatAmount(d.units, d.scale);
  if (d.scale === 0) return s;
  const trimmed = s.replace(/0+$/, '');
  return trimmed.endsWith('.') ? trimmed.slice(0, -1) : trimmed;
}

/** The exact USD value of `amount` base units of a `decimals`-decimal asset at `price` USD per display unit. */
export function valueUsd(amount: bigint, decimals: number, price: string): string {
  const p = parseDecimal(price);
  return renderDecimal({ units: amount * p.units, scale: decimals + p.scale });
}

/** Canonical form of a configured price (`'01.50'` → `'1.5'`); throws RangeError when not a decimal. */
export function normalizePrice(price: string): string {
  return renderDecimal(parseDecimal(price.trim()));
}
