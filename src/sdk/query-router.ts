/**
 * ABCI Query routed by path through one table, as the Cosmos SDK's baseapp routes gRPC queries:
 * a route owns a path and takes the rest of the path as arguments; groups of routes can load at
 * the first query of one of their services. The EVM app (src/app/abci/query-routes.ts), the Cosmos face,
 * the IBC module and the hub add routes; `height` 0 means the latest committed height.
 */
import type { MerkleStateManager } from '@ethereumjs/statemanager';
import type { RequestQuery, ResponseQuery } from '../abci/types.js';
import { HeightNotAvailableError, QueryError } from './errors.js';

/** The state a query reads (an EVM state manager, or another app's accounts with the same calls). */
export type QueryState = Pick<MerkleStateManager, 'getAccount' | 'putAccount' | 'getCode' | 'getStorage' | 'checkpoint' | 'commit' | 'revert'>;

/** What every route sees; an app adds its own parts, and its route groups read them (`cosmos`). */
export interface QueryContext {
  latestHeight(): number;
  stateAt(height: number): Promise<QueryState>;
  denom: string;
  bech32Prefix: string;
}

export interface QueryRoute {
  path: string;
  /**
   * The route reads no account state (the IBC queries read their own store at the height): the router
   * opens none, so an app that keeps its accounts at the latest height only still serves past heights.
   */
  stateless?: boolean;
  handle(ctx: QueryContext, state: QueryState, args: string[], req: RequestQuery): Promise<Uint8Array>;
}

const noState = (): never => {
  throw new Error('a stateless query route read the account state');
};
/** What a stateless route is given for its state: any read is a bug in the route. */
const NO_STATE: QueryState = {
  getAccount: noState,
  putAccount: noState,
  getCode: noState,
  getStorage: noState,
  checkpoint: noState,
  commit: noState,
  revert: noState,
};

const SDK_UNKNOWN_REQUEST = 6;
const SDK_INVALID_HEIGHT = 26;

/**
 * Routes whose module is loaded at the first query of one of its gRPC services (the first segment
 * of `/<service>/<method>`): the Cosmos and IBC query modules bring cosmjs-types, which a start
 * does not need. `services` names every service the loaded routes serve (checked at load).
 */
export interface LazyQueryRoutes {
  services: readonly string[];
  load(): Promise<readonly QueryRoute[]>;
}

export interface QueryRouteTable {
  readonly routes: Map<string, QueryRoute>;
  /** Service → the loaders of the groups that serve it; emptied as groups load. */
  readonly pending: Map<string, (() => Promise<void>)[]>;
}

export function buildRouteTable(routes: readonly QueryRoute[], lazy: readonly LazyQueryRoutes[] = []): QueryRouteTable {
  const table: QueryRouteTable = { routes: new Map(routes.map((r) => [r.path, r])), pending: new Map() };
  // Which lazy group set a path: as in one table built at once, routes given up front win, and
  // among the groups a later one wins, whatever order they load in.
  const owner = new Map<string, number>();
  lazy.forEach((group, rank) => {
    let loading: Promise<void> | undefined;
    const loadOnce = (): Promise<void> =>
      (loading ??= group.load().then(
        (loaded) => {
          const outside = loaded.find((r) => !group.services.includes(serviceOf(r.path)));
          if (outside !== undefined) throw new Error(`query route ${outside.path} is outside its group's services (${group.services.join(', ')})`);
          for (const r of loaded) {
            const by = owner.get(r.path);
            if (table.routes.has(r.path) && (by === undefined || by > rank)) continue;
            table.routes.set(r.path, r);
            owner.set(r.path, rank);
          }
          for (const s of group.services) {
            const rest = (table.pending.get(s) ?? []).filter((l) => l !== loadOnce);
            if (rest.length > 0) table.pending.set(s, rest);
            else table.pending.delete(s);
          }
        },
        (err: unknown) => {
          loading = undefined; // the next query tries again
          throw err;
        },
      ));
    for (const s of group.services) table.pending.set(s, [...(table.pending.get(s) ?? []), loadOnce]);
  });
  return table;
}

/** `/cosmos.bank.v1beta1.Query/Balance` → `/cosmos.bank.v1beta1.Query`. */
function serviceOf(path: string): string {
  const slash = path.indexOf('/', 1);
  return slash < 0 ? path : path.slice(0, slash);
}

export async function routeQuery(ctx: QueryContext, table: QueryRouteTable, req: RequestQuery): Promise<ResponseQuery> {
  const pending = table.pending.get(serviceOf(req.path));
  if (pending !== undefined) await Promise.all(pending.map((load) => load()));
  const latest = ctx.latestHeight();
  const height = req.height === 0 ? latest : req.height;
  try {
    const { route, args } = findRoute(table.routes, req.path);
    if (req.height < 0 || height > latest) {
      throw new QueryError(SDK_INVALID_HEIGHT, 'sdk', `cannot query with height in the future; please provide a valid height: invalid height`);
    }
    let state: QueryState = NO_STATE;
    if (!route.stateless)
      try {
        state = await ctx.stateAt(height);
      } catch (e) {
        if (e instanceof HeightNotAvailableError) throw new QueryError(SDK_INVALID_HEIGHT, 'sdk', `${e.message}: invalid height`);
        throw e;
      }
    const value = await route.handle(ctx, state, args, req);
    return response({ value, height });
  } catch (e) {
    if (e instanceof QueryError) return response({ code: e.code, codespace: e.codespace, log: e.log, height });
    throw e;
  }
}

function findRoute(table: Map<string, QueryRoute>, path: string): { route: QueryRoute; args: string[] } {
  const exact = table.get(path);
  if (exact !== undefined) return { route: exact, args: [] };
  const parts = path.split('/');
  // "/evm/balance/0x…" → route "/evm/balance", args ["0x…"]
  for (let n = parts.length - 1; n >= 2; n--) {
    const route = table.get(parts.slice(0, n).join('/'));
    if (route !== undefined) return { route, args: parts.slice(n) };
  }
  throw new QueryError(SDK_UNKNOWN_REQUEST, 'sdk', `unknown query path: ${path}`);
}

function response(p: { value?: Uint8Array; height: number; code?: number; codespace?: string; log?: string }): ResponseQuery {
  return {
    code: p.code ?? 0,
    log: p.log ?? '',
    info: '',
    index: 0,
    key: null,
    value: p.value ?? null,
    proofOps: null,
    height: p.height,
    codespace: p.codespace ?? '',
  };
}
