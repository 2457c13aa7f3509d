/** A protobuf Timestamp: whole seconds since the Unix epoch and nanoseconds within the second. */
export interface Timestamp {
  seconds: number;
  nanos: number;
}

export const ZERO_TIME: Timestamp = Object.freeze({ seconds: -62135596800, nanos: 0 });

export function timestampFromMs(ms: number): Timestamp {
  const seconds = Math.floor(ms / 1000);
  return { seconds, nanos: (ms - seconds * 1000) * 1_000_000 };
}

export function timestampToMs(t: Timestamp): number {
  return t.seconds * 1000 + Math.floor(t.nanos / 1_000_000);
}

/** Nanoseconds since the Unix epoch (IBC timeouts and block times are compared in ns). */
export function timestampToNs(t: Timestamp): bigint {
  return BigInt(t.seconds) * 1_000_000_000n + BigInt(t.nanos);
}

export function compareTime(a: Timestamp, b: Timestamp): number {
  return a.seconds !== b.seconds ? a.seconds - b.seconds : a.nanos - b.nanos;
}

/** RFC 3339 with nanoseconds in UTC, as Go's time.RFC3339Nano (trailing zeros of the fraction trimmed). */
export function formatRfc3339Nano(t: Timestamp): string {
  const d = new Date(t.seconds * 1000);
  const iso = d.toISOString(); // 2006-01-02T15:04:05.000Z
  const base = iso.slice(0, 19);
  if (t.nanos === 0) return `${base}Z`;
  const frac = String(t.nanos).padStart(9, '0').replace(/0+$/, '');
  return `${base}.${frac}Z`;
}

/** Parses RFC 3339 (any offset, up to 9 fractional digits) into a Timestamp. */
export function parseRfc3339(s: string): Timestamp {
  const m = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(?:\.(\d{1,9}))?(Z|[+-]\d{2}:\d{2})$/.exec(s);
  if (!m) throw new Error(`invalid RFC 3339 time: ${s}`);
  const ms = Date.parse(`${m[1]}${m[3]}`);
  if (Number.isNaN(ms)) throw new Error(`invalid RFC 3339 time: ${s}`);
  const nanos = m[2] ? Number(m[2].padEnd(9, '0')) : 0;
  return { seconds: Math.floor(ms / 1000), nanos };
}
