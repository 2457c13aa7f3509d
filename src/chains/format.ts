/** `amount` base units with `decimals` decimals, without trailing zeros (the banner's display amounts). */
export function formatUnits(amount: bigint, decimals: number): string {
  const base = 10n ** BigInt(decimals);
  const whole = amount / base;
  const frac = (amount % base).toString().padStart(decimals, '0').replace(/0+$/, '');
  return frac === '' ? whole.toString() : `${whole}.${frac}`;
}

/** A chain's URLs that are set, for the banner. */
export function definedUrls(urls: object): Record<string, string> {
  return Object.fromEntries(Object.entries(urls).filter((e): e is [string, string] => typeof e[1] === 'string'));
}

/** A non-negative integer option, or a usage error naming the flag. */
export function nonNegativeInt(value: string, flag: string): number {
  const n = Number(value);
  if (value.trim() === '' || !Number.isSafeInteger(n) || n < 0) throw new Error(`invalid value "${value}" for ${flag}: expected a non-negative integer`);
  return n;
}

/** A string option of `chainlet start`, or its default. */
export function stringOption(options: Readonly<Record<string, string | boolean | undefined>>, name: string, fallback: string): string {
  const v = options[name];
  return typeof v === 'string' ? v : fallback;
}
