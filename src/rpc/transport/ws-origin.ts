/**
 * WebSocket Origin check, with go-ethereum's rules (the eth `ws-origins` setting):
 *  - no list, an empty list or `*` in it: any origin;
 *  - a request without an Origin header passes (only browsers send one, and the check exists to
 *    stop browser pages; other software could send anything anyway);
 *  - a rule is `scheme://host:port`, `host:port` or `host`; each part it leaves out matches anything.
 */

interface OriginParts {
  scheme: string;
  host: string;
  port: string;
}

/** Split an origin or rule into parts; '' means "not given". Undefined when unparsable. */
export function parseOriginParts(text: string): OriginParts | undefined {
  let rest = text.trim().toLowerCase();
  let scheme = '';
  const sep = rest.indexOf('://');
  if (sep >= 0) {
    scheme = rest.slice(0, sep);
    rest = rest.slice(sep + 3);
  }
  const slash = rest.indexOf('/');
  if (slash >= 0) rest = rest.slice(0, slash);
  let host = rest;
  let port = '';
  if (rest.startsWith('[')) {
    // IPv6 literal: [::1]:8545
    const end = rest.indexOf(']');
    if (end < 0) return undefined;
    host = rest.slice(1, end);
    const after = rest.slice(end + 1);
    if (after.startsWith(':')) port = after.slice(1);
    else if (after !== '') return undefined;
  } else {
    const colon = rest.lastIndexOf(':');
    if (colon >= 0) {
      host = rest.slice(0, colon);
      port = rest.slice(colon + 1);
    }
  }
  if (port !== '' && !/^\d+$/.test(port)) return undefined;
  if (host === '' && scheme === '') return undefined;
  return { scheme, host, port };
}

export type OriginCheck = (origin: string | undefined) => boolean;

export function createOriginCheck(allowed: readonly string[] | undefined): OriginCheck {
  if (!allowed || allowed.length === 0 || allowed.includes('*')) return () => true;
  const rules = allowed.map(parseOriginParts).filter((r): r is OriginParts => r !== undefined);
  return (origin) => {
    if (origin === undefined) return true;
    const o = parseOriginParts(origin);
    if (!o) return false;
    return rules.some((r) => (r.scheme === '' || r.scheme === o.scheme) && (r.host === '' || r.host === o.host) && (r.port === '' || r.port === o.port));
  };
}
