/** A config key's values: parsing a raw TOML or flag value to the key's type, Go durations, and the words for what a key accepts. */
import { parseListenAddress } from './listen-address.js';
import { keyName, type ConfigKey } from './key-def.js';

const HEX_ADDRESS_RE = /^0x[0-9a-fA-F]{40}$/;

/** Parses Go-style durations ("1s", "10ms", "2m0s", "1h30m") or bare numbers (milliseconds). */
export function parseDurationMs(v: string | number): number {
  if (typeof v === 'number') return v;
  const s = v.trim();
  if (/^\d+(\.\d+)?$/.test(s)) return Number(s);
  const re = /(\d+(?:\.\d+)?)(ns|us|µs|ms|s|m|h)/g;
  const unit: Record<string, number> = { ns: 1e-6, us: 1e-3, µs: 1e-3, ms: 1, s: 1000, m: 60_000, h: 3_600_000 };
  let total = 0;
  let consumed = 0;
  for (const m of s.matchAll(re)) {
    total += Number(m[1]) * unit[m[2]!]!;
    consumed += m[0].length;
  }
  if (consumed !== s.length || consumed === 0) throw new Error(`invalid duration "${v}"`);
  return total;
}

/** Formats milliseconds as a Go duration string ("1s", "500ms", "5m0s"). */
export function formatDuration(ms: number): string {
  if (ms === 0) return '0s';
  if (ms % 60_000 === 0) return `${ms / 60_000}m0s`;
  if (ms % 1000 === 0) return `${ms / 1000}s`;
  return `${ms}ms`;
}

/** What a key accepts, in words, for error messages and `--help`. */
export function describeAccepted(key: ConfigKey): string {
  if (key.choices) return key.kind === 'list' ? `a comma-separated list of ${key.choices.join(', ')}` : `one of ${key.choices.join(', ')}`;
  if (key.hexAddresses) return 'a comma-separated list of 0x addresses, 40 hex digits each';
  if (key.address)
    return `a listen address host:port (port 0-65535), e.g. 127.0.0.1:8545 or tcp://0.0.0.0:26657${key.address === 'or-empty' ? ' ("" turns the server off)' : ''}`;
  switch (key.kind) {
    case 'string':
      return 'a string';
    case 'int':
      return 'an integer';
    case 'bigint':
      return 'a non-negative integer';
    case 'bool':
      return 'true or false';
    case 'duration':
      return 'a duration such as 500ms, 10s or 1m30s (a bare number is milliseconds)';
    case 'list':
      return 'a comma-separated list';
    case 'map':
      return 'comma-separated name=value pairs';
  }
}

/** A value a key does not accept; the message names the key and what it accepts. */
export class ConfigValueError extends Error {
  override name = 'ConfigValueError';
  constructor(
    readonly key: ConfigKey,
    readonly raw: unknown,
  ) {
    super(`invalid value ${JSON.stringify(typeof raw === 'bigint' ? String(raw) : raw)} for ${keyName(key)}: expected ${describeAccepted(key)}`);
  }
}

/** Converts a raw TOML or flag value to the key's type; a value it does not accept throws `ConfigValueError`. */
export function parseKeyValue(key: ConfigKey, raw: unknown): unknown {
  const v = convert(key, raw);
  const bad = (): never => {
    throw new ConfigValueError(key, raw);
  };
  if (key.choices) {
    const items = Array.isArray(v) ? (v as string[]) : [v as string];
    if (items.some((x) => !key.choices!.includes(x))) bad();
  }
  if (key.hexAddresses && (v as string[]).some((x) => !HEX_ADDRESS_RE.test(x))) bad();
  // An empty address turns that server off (as `laddr = ""` does in CometBFT).
  if (key.address && !(key.address === 'or-empty' && v === '')) {
    try {
      parseListenAddress(v as string, keyName(key));
    } catch {
      bad();
    }
  }
  return v;
}

function convert(key: ConfigKey, raw: unknown): unknown {
  const fail = (): never => {
    throw new ConfigValueError(key, raw);
  };
  switch (key.kind) {
    case 'string':
      return typeof raw === 'string' ? raw : fail();
    case 'int': {
      const n =
        typeof raw === 'number' ? raw : typeof raw === 'bigint' ? Number(raw) : typeof raw === 'string' && /^-?\d+$/.test(raw.trim()) ? Number(raw) : NaN;
      return Number.isSafeInteger(n) ? n : fail();
    }
    case 'bigint':
      if (typeof raw === 'bigint') return raw >= 0n ? raw : fail();
      if (typeof raw === 'number' && Number.isSafeInteger(raw) && raw >= 0) return BigInt(raw);
      if (typeof raw === 'string' && /^\d+$/.test(raw.trim())) return BigInt(raw.trim());
      return fail();
    case 'bool':
      if (typeof raw === 'boolean') return raw;
      if (raw === 'true') return true;
      if (raw === 'false') return false;
      return fail();
    case 'duration':
      try {
        return parseDurationMs(raw as string | number);
      } catch {
        return fail();
      }
    case 'list':
      if (Array.isArray(raw)) return raw.map(String);
      if (typeof raw === 'string')
        return raw === ''
          ? []
          : raw
              .split(',')
              .map((s) => s.trim())
              .filter(Boolean);
      return fail();
    case 'map':
      if (raw !== null && typeof raw === 'object' && !Array.isArray(raw)) {
        return Object.fromEntries(Object.entries(raw as Record<string, unknown>).map(([a, b]) => [a, String(b)]));
      }
      if (typeof raw === 'string') {
        const pairs = raw
          .split(',')
          .filter(Boolean)
          .map((kv) => kv.split('=').map((s) => s.trim()));
        if (pairs.some((p) => p.length !== 2 || p[0] === '')) fail();
        return Object.fromEntries(pairs as [string, string][]);
      }
      return fail();
  }
}
