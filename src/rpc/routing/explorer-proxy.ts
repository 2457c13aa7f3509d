/**
 * The explorer's proxies: `POST /explorer/api/comet|eth|svm` forward one JSON-RPC request to the
 * chain's CometBFT RPC, Ethereum JSON-RPC or Solana JSON-RPC, for the explorer's own page only.
 * This server may listen where the RPCs do not (a public routing API beside a local-only JSON-RPC),
 * and any web page can make a browser POST here, so one request goes:
 *
 *   from a page of another origin (Origin, Sec-Fetch-Site)      → 403, -32600
 *   body not application/json (a simple request: no preflight)   → 415, -32600
 *   not one JSON-RPC request (shared core: depth, ids; no batch)  → -32700 / -32600
 *   method not one explorer/app.js calls (devnet control never)   → -32601
 *   → the upstream's answer, as it gave it
 *
 * Every refusal is a JSON-RPC error object. A client that is no browser page (no Origin, no
 * Sec-Fetch-Site: curl, a script) is not a site acting through someone's browser and may read.
 */
import { DEFAULT_MAX_JSON_DEPTH, ErrorCode, parseJsonRpcBody, rpcError, type JsonRpcError, type JsonRpcId } from '../jsonrpc/index.js';
import type { Reply, RouteContext } from './context.js';
import type { RequestInput } from './decode.js';

/**
 * The methods explorer/app.js calls through each proxy, and nothing else (reads only; a test
 * compares these with the calls in app.js both ways). Devnet control (the validator switch) goes
 * from the page to the node's own Ethereum JSON-RPC, under that server's rules.
 */
export const EXPLORER_PROXY_METHODS = Object.freeze({
  comet: new Set(['status', 'block', 'commit', 'tx', 'tx_search', 'validators', 'genesis', 'unconfirmed_txs']),
  eth: new Set(['eth_getTransactionByHash', 'eth_getTransactionReceipt', 'eth_getTransactionCount', 'eth_getCode']),
  svm: new Set(['getTransaction', 'getSignaturesForAddress', 'getSlot', 'getBlockHeight']),
} satisfies Record<string, ReadonlySet<string>>);

export type ProxyFamily = keyof typeof EXPLORER_PROXY_METHODS;

const UPSTREAM_NAME: Record<ProxyFamily, string> = { comet: 'CometBFT RPC', eth: 'Ethereum JSON-RPC', svm: 'Solana JSON-RPC' };
/** Method prefixes of devnet control and unsafe methods, named in the refusal. */
const CONTROL = /^(?:chainlet|evm|anvil|hardhat|miner|unsafe)_/;
const UPSTREAM_TIMEOUT_MS = 30_000;

export interface ProxyRequest {
  headers: Readonly<Record<string, string>>;
  raw: Uint8Array;
  /** `?chain=<id>` of the CometBFT proxy. */
  chain: string | null;
}

export const decodeProxyRequest = (i: RequestInput): ProxyRequest => ({
  headers: i.headers ?? {},
  raw: i.rawBody ?? new Uint8Array(0),
  chain: i.query.get('chain'),
});

function refuse(status: number, id: JsonRpcId, error: JsonRpcError): Reply {
  return { kind: 'json', status, body: { jsonrpc: '2.0', id, error } };
}

/** `host[:port]` as URL normalises it (lower case, default port dropped), or undefined. */
function hostOf(url: string): string | undefined {
  try {
    return new URL(url).host;
  } catch {
    return undefined;
  }
}

/** Why a request comes from a page of another origin, or undefined when it does not. */
export function crossOriginReason(ctx: RouteContext, headers: Readonly<Record<string, string>>): string | undefined {
  const site = headers['sec-fetch-site'];
  if (site !== undefined && site !== 'same-origin' && site !== 'none') return `a ${site} request`;
  const origin = headers['origin'];
  if (origin === undefined) return undefined;
  const own = new Set([hostOf(`http://${headers['host'] ?? ''}`), hostOf(ctx.baseUrl())].filter((h): h is string => h !== undefined && h !== ''));
  const from = origin === 'null' ? undefined : hostOf(origin);
  return from !== undefined && own.has(from) ? undefined : `a request from origin ${origin}`;
}

/** `application/json`, with or without parameters (`; charset=utf-8`). */
function isJson(contentType: string | undefined): boolean {
  return (contentType ?? '').split(';')[0]!.trim().toLowerCase() === 'application/json';
}

async function proxy(ctx: RouteContext, family: ProxyFamily, url: string | undefined, p: ProxyRequest): Promise<Reply> {
  const why = crossOriginReason(ctx, p.headers);
  if (why)
    return refuse(
      403,
      null,
      rpcError(ErrorCode.InvalidRequest, `cross-origin request refused: the explorer's proxies answer only the explorer's own page (${why})`),
    );
  if (!isJson(p.headers['content-type']))
    return refuse(415, null, rpcError(ErrorCode.InvalidRequest, 'invalid content type, only application/json is supported'));
  const parsed = parseJsonRpcBody(p.raw, { maxDepth: ctx.env.config.maxJsonDepth ?? DEFAULT_MAX_JSON_DEPTH });
  if (parsed.kind === 'error') return refuse(200, parsed.id, parsed.error);
  if (parsed.kind === 'batch') return refuse(200, null, rpcError(ErrorCode.InvalidRequest, 'batch requests are not available through the explorer'));
  const req = parsed.req;
  const id = req.id ?? null;
  if (!EXPLORER_PROXY_METHODS[family].has(req.method)) {
    const control = CONTROL.test(req.method)
      ? ': devnet control and unsafe methods are never forwarded (call the node’s own RPC)'
      : `: it forwards only the reads the explorer makes`;
    return refuse(200, id, rpcError(ErrorCode.MethodNotFound, `method ${req.method} is not available through the explorer${control}`));
  }
  const what = UPSTREAM_NAME[family];
  if (url === undefined) return refuse(404, id, rpcError(ErrorCode.InvalidRequest, `this node serves no ${what}`));
  try {
    // What was checked is what is sent: the parsed request, not the raw text.
    const r = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(req),
      signal: AbortSignal.timeout(UPSTREAM_TIMEOUT_MS),
    });
    return { kind: 'json', body: await r.json() };
  } catch (err) {
    return refuse(502, id, rpcError(ErrorCode.InternalError, `the explorer could not read the ${what}: ${(err as Error).message}`));
  }
}

/** `?chain=<id>` picks another CometBFT-style chain of the network (default: the EVM chain). */
export function handleExplorerComet(ctx: RouteContext, p: ProxyRequest): Promise<Reply> {
  const e = ctx.env.explorer;
  const other = p.chain ? e?.others?.find((c) => c.chainId === p.chain && c.comet) : undefined;
  if (p.chain && !other && p.chain !== ctx.env.chains[0]?.chain.cosmosChainId) {
    return Promise.resolve(refuse(404, null, rpcError(ErrorCode.InvalidRequest, `no CometBFT chain ${p.chain} in this network`)));
  }
  return proxy(ctx, 'comet', other?.comet ? other.comet.rpc : e?.cometRpc, p);
}
export const handleExplorerEth = (ctx: RouteContext, p: ProxyRequest) => proxy(ctx, 'eth', ctx.env.explorer?.ethRpc, p);
/** The network's (first) chain with a Solana RPC. */
export const handleExplorerSvm = (ctx: RouteContext, p: ProxyRequest) => proxy(ctx, 'svm', ctx.env.explorer?.others?.find((c) => c.svm)?.svm?.rpc, p);
