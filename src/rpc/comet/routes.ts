/**
 * The one table of CometBFT v0.38 node-RPC methods (rpc/core/routes.go). URI GET, JSON-RPC over
 * HTTP, JSON-RPC over WebSocket, the HTML endpoint list, the docs and the spec test all read it;
 * there is no other list of methods.
 *
 * An entry gives the ordered param names with their decoders (Go types), the flags
 *   wsOnly     only over /websocket (a call elsewhere is "Method not found")
 *   unsafe     only with `[rpc] unsafe = true`
 *   cacheable  'always' | 'height' (only when a height is given) | false → Cache-Control
 * and the handler, which gets the env, the call context and the decoded args by name.
 */
import { abciInfo, abciQuery } from './abci.js';
import { block, blockByHash, blockchain, blockResults, blockSearch, commit, header, headerByHash } from './blocks.js';
import { consensusParams, consensusState, dumpConsensusState, validators } from './consensus.js';
import type { CallContext } from './context.js';
import type { CometEnv } from './env.js';
import { subscribe, unsubscribe, unsubscribeAll } from './events.js';
import { broadcastEvidence, EVIDENCE_TYPES } from './evidence.js';
import { broadcastTxAsync, broadcastTxCommit, broadcastTxSync, checkTx, numUnconfirmedTxs, unconfirmedTxs, unsafeFlushMempool } from './mempool.js';
import { dialPeers, dialSeeds, genesis, genesisChunked, netInfo } from './net.js';
import { p, type Param } from './params.js';
import { health, status } from './status.js';
import { tx, txSearch } from './tx.js';

export type Cacheable = false | 'always' | 'height';

/** Decoded args by param name, typed from the param list. */
export type ArgsOf<P extends readonly Param[]> = { [E in P[number] as E['name']]: E extends Param<string, infer T> ? T : never };

export interface Route<P extends readonly Param[] = readonly Param[], R = unknown, M extends string = string> {
  readonly method: M;
  readonly params: P;
  readonly wsOnly: boolean;
  readonly unsafe: boolean;
  readonly cacheable: Cacheable;
  /** The topic file the handler lives in (docs). */
  readonly topic: string;
  readonly handler: (env: CometEnv, ctx: CallContext, args: ArgsOf<P>) => R | Promise<R>;
}

/** Any entry, as the dispatchers see it. */
export type AnyRoute = Route<readonly Param[], unknown> & {
  readonly handler: (env: CometEnv, ctx: CallContext, args: Record<string, unknown>) => unknown;
};

interface RouteOptions {
  wsOnly?: boolean;
  unsafe?: boolean;
  cacheable?: Cacheable;
}

function route<const M extends string, const P extends readonly Param[], R>(
  method: M,
  topic: string,
  params: P,
  handler: (env: CometEnv, ctx: CallContext, args: ArgsOf<P>) => R | Promise<R>,
  opts: RouteOptions = {},
): Route<P, R, M> {
  return Object.freeze({
    method,
    params: Object.freeze(params) as P,
    wsOnly: opts.wsOnly ?? false,
    unsafe: opts.unsafe ?? false,
    cacheable: opts.cacheable ?? false,
    topic,
    handler,
  });
}

const ROUTE_LIST = [
  // WebSocket only (events.ts)
  route('subscribe', 'events', [p.string('query')], (env, ctx, a) => subscribe(env, ctx, a.query), { wsOnly: true }),
  route('unsubscribe', 'events', [p.string('query')], (env, ctx, a) => unsubscribe(env, ctx, a.query), { wsOnly: true }),
  route('unsubscribe_all', 'events', [], (env, ctx) => unsubscribeAll(env, ctx), { wsOnly: true }),

  // info API
  route('health', 'status', [], () => health()),
  route('status', 'status', [], (env) => status(env)),
  route('net_info', 'net', [], (env) => netInfo(env)),
  route('blockchain', 'blocks', [p.int64('minHeight'), p.int64('maxHeight')], (env, _c, a) => blockchain(env, a.minHeight, a.maxHeight), {
    cacheable: 'always',
  }),
  route('genesis', 'net', [], (env) => genesis(env), { cacheable: 'always' }),
  route('genesis_chunked', 'net', [p.uint('chunk')], (env, _c, a) => genesisChunked(env, a.chunk), { cacheable: 'always' }),
  route('block', 'blocks', [p.int64Ptr('height')], (env, _c, a) => block(env, a.height), { cacheable: 'height' }),
  route('block_by_hash', 'blocks', [p.bytes('hash')], (env, _c, a) => blockByHash(env, a.hash), { cacheable: 'always' }),
  route('block_results', 'blocks', [p.int64Ptr('height')], (env, _c, a) => blockResults(env, a.height), { cacheable: 'height' }),
  route('commit', 'blocks', [p.int64Ptr('height')], (env, _c, a) => commit(env, a.height), { cacheable: 'height' }),
  route('header', 'blocks', [p.int64Ptr('height')], (env, _c, a) => header(env, a.height), { cacheable: 'height' }),
  route('header_by_hash', 'blocks', [p.hexBytes('hash')], (env, _c, a) => headerByHash(env, a.hash), { cacheable: 'always' }),
  route('check_tx', 'mempool', [p.bytes('tx')], (env, _c, a) => checkTx(env, a.tx)),
  route('tx', 'tx', [p.bytes('hash'), p.bool('prove')], (env, _c, a) => tx(env, a.hash, a.prove), { cacheable: 'always' }),
  route('tx_search', 'tx', [p.string('query'), p.bool('prove'), p.intPtr('page'), p.intPtr('per_page'), p.string('order_by')], (env, _c, a) =>
    txSearch(env, { query: a.query, prove: a.prove, page: a.page, perPage: a.per_page, orderBy: a.order_by }),
  ),
  route('block_search', 'blocks', [p.string('query'), p.intPtr('page'), p.intPtr('per_page'), p.string('order_by')], (env, _c, a) =>
    blockSearch(env, { query: a.query, page: a.page, perPage: a.per_page, orderBy: a.order_by }),
  ),
  route(
    'validators',
    'consensus',
    [p.int64Ptr('height'), p.intPtr('page'), p.intPtr('per_page')],
    (env, _c, a) => validators(env, a.height, a.page, a.per_page),
    {
      cacheable: 'height',
    },
  ),
  route('dump_consensus_state', 'consensus', [], (env) => dumpConsensusState(env)),
  route('consensus_state', 'consensus', [], (env) => consensusState(env)),
  route('consensus_params', 'consensus', [p.int64Ptr('height')], (env, _c, a) => consensusParams(env, a.height), { cacheable: 'height' }),
  route('unconfirmed_txs', 'mempool', [p.intPtr('limit')], (env, _c, a) => unconfirmedTxs(env, a.limit)),
  route('num_unconfirmed_txs', 'mempool', [], (env) => numUnconfirmedTxs(env)),

  // tx broadcast API
  route('broadcast_tx_commit', 'mempool', [p.bytes('tx')], (env, ctx, a) => broadcastTxCommit(env, ctx, a.tx)),
  route('broadcast_tx_sync', 'mempool', [p.bytes('tx')], (env, _c, a) => broadcastTxSync(env, a.tx)),
  route('broadcast_tx_async', 'mempool', [p.bytes('tx')], (env, _c, a) => broadcastTxAsync(env, a.tx)),

  // abci API
  route('abci_query', 'abci', [p.string('path'), p.hexBytes('data'), p.int64('height'), p.bool('prove')], (env, _c, a) => abciQuery(env, a)),
  route('abci_info', 'abci', [], (env) => abciInfo(env), { cacheable: 'always' }),

  // evidence API
  route('broadcast_evidence', 'evidence', [p.amino('evidence', 'types.Evidence', EVIDENCE_TYPES)], (env, _c, a) => broadcastEvidence(env, a.evidence)),

  // unsafe control API (AddUnsafeRoutes)
  route('dial_seeds', 'net', [p.strings('seeds')], (env, _c, a) => dialSeeds(env, a.seeds), { unsafe: true }),
  route(
    'dial_peers',
    'net',
    [p.strings('peers'), p.bool('persistent'), p.bool('unconditional'), p.bool('private')],
    (env, _c, a) => dialPeers(env, a.peers, { persistent: a.persistent, unconditional: a.unconditional, private: a.private }),
    { unsafe: true },
  ),
  route('unsafe_flush_mempool', 'mempool', [], (env) => unsafeFlushMempool(env), { unsafe: true }),
] as const;

type RouteList = typeof ROUTE_LIST;

/** Every method name of the table. */
export type CometMethod = RouteList[number]['method'];

/** The `result` type of a method, inferred from its handler. */
export type CometResultOf<M extends CometMethod> = Awaited<ReturnType<Extract<RouteList[number], { method: M }>['handler']>>;

/** The frozen table, by method name, in routes.go order. */
export const COMET_ROUTES: ReadonlyMap<string, AnyRoute> = new Map(ROUTE_LIST.map((r) => [r.method, r as unknown as AnyRoute]));

/** The methods served with this `[rpc] unsafe` setting (CometBFT adds the unsafe ones only when set). */
export function routesFor(opts: { unsafe: boolean }): ReadonlyMap<string, AnyRoute> {
  if (opts.unsafe) return COMET_ROUTES;
  return new Map([...COMET_ROUTES].filter(([, r]) => !r.unsafe));
}

/**
 * Whether a successful call may carry Cache-Control (RPCFunc.cacheableWithArgs): 'height'
 * routes only when the height was given and non-zero.
 */
export function isCacheable(r: AnyRoute, args: Record<string, unknown>): boolean {
  if (r.cacheable === false) return false;
  if (r.cacheable === 'always') return true;
  const h = args.height;
  return h !== undefined && h !== 0;
}
