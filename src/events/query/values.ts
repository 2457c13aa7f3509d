/**
 * How attribute values are read as numbers and instants when a query compares them.
 *
 * Numbers: CometBFT reads the leading `\d+(\.\d+)?` of a value ("8atom" is 8, "-5" is no number)
 * and compares as big floats. Here the comparison is exact decimal arithmetic on the digit strings,
 * so integers beyond 2^53 and long fractions compare correctly.
 *
 * Instants: values are parsed as Go's time.Parse does with RFC 3339 (TIME) or 2006-01-02 (DATE)
 * and compared as nanoseconds since the epoch (bigint), so offsets and fractions compare exactly.
 */

/** A non-negative decimal: integer digits without leading zeros ("" for 0), fraction without trailing zeros. */
export interface Decimal {
  readonly int: string;
  readonly frac: string;
}

const NUMBER_PREFIX = /^(\d+)(?:\.(\d+))?/;

/** The numeric prefix of `s` as CometBFT reads it, or undefined when `s` does not start with a digit. */
export function parseDecimalPrefix(s: string): Decimal | undefined {
  const m = NUMBER_PREFIX.exec(s);
  if (!m) return undefined;
  return { int: m[1]!.replace(/^0+/, ''), frac: (m[2] ?? '').replace(/0+$/, '') };
}

/** -1, 0 or 1 as a <, =, > b. */
export function compareDecimal(a: Decimal, b: Decimal): number {
  if (a.int.length !== b.int.length) return a.int.length < b.int.length ? -1 : 1;
  if (a.int !== b.int) return a.int < b.int ? -1 : 1;
  if (a.frac === b.frac) return 0;
  // Equal-length digit strings compare like numbers; pad the shorter fraction with zeros.
  const n = Math.max(a.frac.length, b.frac.length);
  const fa = a.frac.padEnd(n, '0');
  const fb = b.frac.padEnd(n, '0');
  return fa < fb ? -1 : fa > fb ? 1 : 0;
}

/** Days from 1970-01-01 to the given proleptic Gregorian date (civil-from-days inverse). */
function daysFromCivil(y: number, m: number, d: number): number {
  const yy = m <= 2 ? y - 1 : y;
  const era = Math.floor(yy / 400);
  const yoe = yy - era * 400;
  const mp = (m + 9) % 12;
  const doy = Math.floor((153 * mp + 2) / 5) + d - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}

function daysInMonth(y: number, m: number): number {
  if (m === 2) return (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0 ? 29 : 28;
  return [4, 6, 9, 11].includes(m) ? 30 : 31;
}

const NS_PER_SECOND = 1_000_000_000n;

function instant(y: number, mo: number, d: number, h: number, mi: number, s: number, nanos: number, offsetMin: number): bigint {
  const seconds = daysFromCivil(y, mo, d) * 86400 + h * 3600 + mi * 60 + s - offsetMin * 60;
  return BigInt(seconds) * NS_PER_SECOND + BigInt(nanos);
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Nanoseconds since the epoch of a `yyyy-mm-dd` date (UTC midnight), or undefined if invalid. */
export function parseDateInstant(s: string): bigint | undefined {
  const m = DATE.exec(s);
  if (!m) return undefined;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (mo < 1 || mo > 12 || d < 1 || d > daysInMonth(y, mo)) return undefined;
  return instant(y, mo, d, 0, 0, 0, 0, 0);
}

// Go's general parser reads the "15" hour field with one or two digits; the others are fixed width.
const TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{1,2}):(\d{2}):(\d{2})(?:[.,](\d+))?(?:Z|([+-])(\d{2}):(\d{2}))$/;

/** Nanoseconds since the epoch of an RFC 3339 timestamp, or undefined if invalid. */
export function parseTimeInstant(s: string): bigint | undefined {
  const m = TIME.exec(s);
  if (!m) return undefined;
  const [y, mo, d, h, mi, sec] = [1, 2, 3, 4, 5, 6].map((i) => Number(m[i]));
  if (mo! < 1 || mo! > 12 || d! < 1 || d! > daysInMonth(y!, mo!)) return undefined;
  if (h! > 23 || mi! > 59 || sec! > 59) return undefined;
  const nanos = m[7] ? Number(m[7].slice(0, 9).padEnd(9, '0')) : 0;
  let offsetMin = 0;
  if (m[8]) {
    const oh = Number(m[9]);
    const om = Number(m[10]);
    if (oh > 23 || om > 59) return undefined;
    offsetMin = (oh * 60 + om) * (m[8] === '-' ? -1 : 1);
  }
  return instant(y!, mo!, d!, h!, mi!, sec!, nanos, offsetMin);
}

/** The calendar year of a TIME or DATE literal as written (for the parser's 1900–2999 rule). */
export function literalYear(s: string): number {
  return Number(s.slice(0, 4));
}
