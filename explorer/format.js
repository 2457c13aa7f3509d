// Formatting for the live explorer, no DOM: amounts in display units, times in one format, and the
// address forms a user may paste (0x, bech32 such as chainlet1… or hub1…, a base58 Solana key).

/** `amount` base units → display units with `decimals`, digits grouped in threes, no trailing zeros. */
export function fmtUnits(amount, decimals) {
  const v = BigInt(amount);
  const neg = v < 0n;
  const s = (neg ? -v : v).toString().padStart(decimals + 1, '0');
  const int = s.slice(0, s.length - decimals).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  const frac = s.slice(s.length - decimals).replace(/0+$/, '');
  return (neg ? '-' : '') + int + (frac ? '.' + frac : '');
}

/** Every time the page shows, one format: `2026-11-28 07:01:20.930 UTC` (RFC 3339 in, nanoseconds cut to ms). */
export function fmtTime(t) {
  const m = /^(\d{4}-\d\d-\d\d)T(\d\d:\d\d:\d\d)(?:\.(\d+))?Z$/.exec(String(t || ''));
  if (m) return `${m[1]} ${m[2]}.${((m[3] || '') + '000').slice(0, 3)} UTC`;
  const d = new Date(t);
  return Number.isNaN(d.getTime()) ? String(t || '') : fmtTime(d.toISOString());
}

const B32 = 'qpzry9x8gf2tvdw0s3jn54khce6mua7l';
function b32Polymod(values) {
  const G = [0x3b6a57b2, 0x26508e6d, 0x1ea119fa, 0x3d4233dd, 0x2a1462b3];
  let chk = 1;
  for (const v of values) {
    const top = chk >>> 25;
    chk = ((chk & 0x1ffffff) << 5) ^ v;
    for (let i = 0; i < 5; i++) if ((top >>> i) & 1) chk ^= G[i];
  }
  return chk >>> 0;
}
const b32Hrp = (p) => [...[...p].map((c) => c.charCodeAt(0) >> 5), 0, ...[...p].map((c) => c.charCodeAt(0) & 31)];
function convertBits(data, from, to, pad) {
  let acc = 0,
    bits = 0;
  const out = [];
  for (const v of data) {
    acc = (acc << from) | v;
    bits += from;
    while (bits >= to) {
      bits -= to;
      out.push((acc >> bits) & ((1 << to) - 1));
    }
  }
  if (pad && bits > 0) out.push((acc << (to - bits)) & ((1 << to) - 1));
  else if (!pad && (bits >= from || (acc << (to - bits)) & ((1 << to) - 1))) return null;
  return out;
}
/** `prefix1…` → { prefix, bytes }, or null when it is not valid bech32. */
export function bech32Decode(s) {
  const str = s.toLowerCase();
  if ((s !== str && s !== s.toUpperCase()) || str.length > 90) return null;
  const pos = str.lastIndexOf('1');
  if (pos < 1 || pos + 7 > str.length) return null;
  const data = [...str.slice(pos + 1)].map((c) => B32.indexOf(c));
  if (data.includes(-1) || b32Polymod([...b32Hrp(str.slice(0, pos)), ...data]) !== 1) return null;
  const bytes = convertBits(data.slice(0, -6), 5, 8, false);
  return bytes && { prefix: str.slice(0, pos), bytes };
}
export function bech32Encode(prefix, bytes) {
  const data = convertBits(bytes, 8, 5, true);
  const mod = b32Polymod([...b32Hrp(prefix), ...data, 0, 0, 0, 0, 0, 0]) ^ 1;
  return prefix + '1' + [...data, ...[0, 1, 2, 3, 4, 5].map((i) => (mod >> (5 * (5 - i))) & 31)].map((v) => B32[v]).join('');
}
const B58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
/** A base58 string of at most 44 characters that decodes to 32 bytes (a Solana pubkey). */
export function isSolanaPubkey(s) {
  if (!/^[1-9A-HJ-NP-Za-km-z]{32,44}$/.test(s)) return false;
  let n = 0n;
  for (const c of s) n = n * 58n + BigInt(B58.indexOf(c));
  const zeros = s.match(/^1*/)[0].length;
  return zeros + (n === 0n ? 0 : Math.ceil(n.toString(16).length / 2)) === 32;
}
export const hexOf = (bytes) => '0x' + bytes.map((b) => b.toString(16).padStart(2, '0')).join('');
export const bytesOfHex = (h) =>
  h
    .slice(2)
    .match(/../g)
    .map((x) => parseInt(x, 16));
/** What an address is: { form: 'hex', bytes } | { form: 'bech32', prefix, bytes } | { form: 'base58' }, or null. */
export function parseAddress(a) {
  if (/^0x[0-9a-fA-F]{40}$/.test(a)) return { form: 'hex', bytes: bytesOfHex(a) };
  const b = a.includes('1') ? bech32Decode(a) : null;
  if (b) return { form: 'bech32', prefix: b.prefix, bytes: b.bytes };
  if (isSolanaPubkey(a)) return { form: 'base58' };
  return null;
}
