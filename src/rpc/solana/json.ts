/** JSON with u64 values as bare numbers (kit parses every integer into a bigint; Node 20 has no JSON.rawJSON). */
const MARK = '\u0000big:';

export function stringifyWithBigints(value: unknown): string {
  const text = JSON.stringify(value, (_k, v: unknown) => (typeof v === 'bigint' ? `${MARK}${v.toString()}` : v));
  return text.replace(/"\\u0000big:(-?\d+)"/g, '$1');
}
