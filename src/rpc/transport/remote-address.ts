/** Client address formatting shared by both backends, so they report the same strings. */

const MAPPED_V4 = /^(?:(?:0{1,4}:){5}|::)ffff:/i;

/**
 * Normalise an IP as text: uWS prints IPv6 with every group zero-padded and IPv4-mapped clients
 * in hex (`0000:…:ffff:7f00:0001`), node prints `::ffff:127.0.0.1`; both become `127.0.0.1`.
 */
export function normalizeIp(ip: string): string {
  const m = MAPPED_V4.exec(ip);
  if (!m) return ip;
  const tail = ip.slice(m[0].length);
  if (tail.includes('.')) return tail;
  const groups = tail.split(':');
  if (groups.length !== 2) return ip;
  const hi = parseInt(groups[0]!, 16);
  const lo = parseInt(groups[1]!, 16);
  if (Number.isNaN(hi) || Number.isNaN(lo)) return ip;
  return `${hi >> 8}.${hi & 0xff}.${lo >> 8}.${lo & 0xff}`;
}

/** `ip:port`, or `[ip]:port` for IPv6. */
export function formatHostPort(ip: string, port: number | string): string {
  return ip.includes(':') ? `[${ip}]:${port}` : `${ip}:${port}`;
}

/** Decode uWS's ArrayBuffer address text. */
export function uwsAddressText(buf: ArrayBuffer): string {
  return normalizeIp(Buffer.from(buf).toString('latin1'));
}
