/**
 * What ibc-go's gRPC queries read, as the SDK gives it to them: the IBC store at the query's height
 * (the committed store at the latest height, or a kept version of the provable store when the app
 * offers one), the height and revision that `proof_height` / `height` carry, and the SDK's
 * `query.Paginate` over a prefix of the store (offset or key, limit 100 by default, count_total,
 * reverse). Errors are the gRPC status errors that baseapp turns into SDK codes over ABCI.
 */
import type { PageRequest, PageResponse } from 'cosmjs-types/cosmos/base/query/v1beta1/pagination';
import type { Height } from 'cosmjs-types/ibc/core/client/v1/client';
import { HeightNotAvailableError, QueryError, type Codespace } from '../sdk/errors.js';
import type { QueryContext } from '../sdk/query-router.js';
import type { IbcStore } from './ibc-store.js';
import { parseChainIdRevision } from './tm-client-state.js';

/** The IBC store as a query reads it, at one height. */
export interface IbcStoreView {
  get(key: string): Promise<Uint8Array | undefined>;
  /** Entries whose key starts with `prefix`, in key (byte) order. */
  entries(prefix: string): Promise<[string, Uint8Array][]>;
}

/** The app's parts the IBC queries read (the EVM app and the hub give them in their query context). */
export interface IbcQueryParts {
  /** The committed IBC store (the latest height). */
  ibc?: () => IbcStore;
  /** The provable IBC store's versions (one per committed height): queries at past heights read it. */
  ibcTree?: () => VersionedTree;
  /** The chain env a tx runs in: its chain id (the revision of heights) and block time (client status). */
  env?: (height: number) => { chainId: string; ibc?: { timeNs: bigint } };
}

export type IbcQueryContext = QueryContext & { cosmos?: IbcQueryParts };

const SDK = 'sdk' as Codespace;
/** A gRPC NotFound status as baseapp answers it over ABCI (ErrKeyNotFound). */
export const notFound = (desc: string) => new QueryError(22, SDK, `rpc error: code = NotFound desc = ${desc}: key not found`);
/** A gRPC InvalidArgument status as baseapp answers it over ABCI (ErrInvalidRequest). */
export const invalidArgument = (desc: string) => new QueryError(18, SDK, `rpc error: code = InvalidArgument desc = ${desc}: invalid request`);

/** What one query reads: the store at its height, that height as ibc-go's self height, and the block time. */
export interface IbcQuery {
  view: IbcStoreView;
  height: number;
  /** ibc-go's `GetSelfHeight`: the chain id's revision and the query's height. */
  selfHeight: Height;
  timeNs: bigint;
  bech32Prefix: string;
}

function committedView(store: IbcStore): IbcStoreView {
  return { get: async (k) => store.get(k), entries: async (p) => store.entries(p) };
}

/** What `treeView` reads of a versioned tree (the provable IBC store: src/store/iavl). */
export interface VersionedTree {
  hasVersion(version: number): boolean;
  getAt(key: Uint8Array, version: number): Promise<Uint8Array | undefined>;
  entriesAt(version: number, start?: Uint8Array, end?: Uint8Array): Promise<[Uint8Array, Uint8Array][]>;
}

const utf8 = new TextEncoder();
const text = new TextDecoder();

/** The IBC store at a kept `version` of its tree, undefined for one not kept. */
export function treeView(tree: VersionedTree, version: number): IbcStoreView | undefined {
  if (!tree.hasVersion(version)) return undefined;
  return {
    get: (k) => tree.getAt(utf8.encode(k), version),
    entries: async (prefix) => {
      const start = utf8.encode(prefix);
      return (await tree.entriesAt(version, start, prefixEnd(start))).map(([k, v]): [string, Uint8Array] => [text.decode(k), v]);
    },
  };
}

/** The first key past every key that starts with `prefix` (the SDK's `PrefixEndBytes`); undefined: no end. */
function prefixEnd(prefix: Uint8Array): Uint8Array | undefined {
  let n = prefix.length;
  while (n > 0 && prefix[n - 1] === 0xff) n--;
  if (n === 0) return undefined;
  const end = prefix.slice(0, n);
  end[n - 1]! += 1;
  return end;
}

/** The store, height and revision a query at `reqHeight` (0: the latest) reads. */
export async function openQuery(ctx: IbcQueryContext, reqHeight: number): Promise<IbcQuery> {
  const parts = ctx.cosmos;
  const committed = parts?.ibc?.();
  if (!parts || !committed) throw new QueryError(6, SDK, 'the IBC queries are not served by this app: unknown request');
  const latest = ctx.latestHeight();
  const height = reqHeight === 0 ? latest : reqHeight;
  // The latest height from the committed store (read with the height, so the two agree); a past one from the versions kept.
  const tree = height === latest ? undefined : parts.ibcTree?.();
  const view = height === latest ? committedView(committed) : tree && treeView(tree, height);
  if (!view) throw new QueryError(26, SDK, `${new HeightNotAvailableError(height, latest).message}: invalid height`);
  const env = parts.env?.(height);
  const revisionNumber = env ? parseChainIdRevision(env.chainId) : 0n;
  return {
    view,
    height,
    selfHeight: { revisionNumber, revisionHeight: BigInt(height) },
    timeNs: env?.ibc?.timeNs ?? 0n,
    bech32Prefix: ctx.bech32Prefix,
  };
}

/** The SDK's default page size (`query.DefaultLimit`). */
export const DEFAULT_PAGE_LIMIT = 100;

/**
 * `query.Paginate` over entries already under one prefix (`key` relative to it): a page by key
 * (from the first key ≥ it) or by offset, `limit` 0 meaning 100 and a counted total, `next_key` the
 * key of the first entry after the page. Filtered listings pass the entries they keep.
 */
export function paginate<T>(entries: readonly [string, T][], p: PageRequest | undefined): { items: T[]; pagination: PageResponse } {
  const key = p?.key && p.key.length > 0 ? Buffer.from(p.key).toString('utf8') : undefined;
  const offset = Number(p?.offset ?? 0n);
  if (key !== undefined && offset > 0) throw invalidArgument('invalid request, either offset or key is expected, got both');
  let limit = Number(p?.limit ?? 0n);
  let countTotal = p?.countTotal === true;
  if (limit === 0) {
    limit = DEFAULT_PAGE_LIMIT;
    countTotal = true;
  }
  const list = p?.reverse ? [...entries].reverse() : entries;
  let start: number;
  if (key !== undefined) {
    start = list.findIndex(([k]) => (p?.reverse ? k <= key : k >= key));
    if (start < 0) start = list.length;
  } else start = offset;
  const page = list.slice(start, start + limit);
  const next = list[start + limit];
  return {
    items: page.map(([, v]) => v),
    pagination: {
      nextKey: next ? utf8.encode(next[0]) : new Uint8Array(0),
      total: key === undefined && countTotal ? BigInt(list.length) : 0n,
    },
  };
}

/** Entries under `prefix` with keys relative to it, as a prefix store iterates them. */
export async function under(view: IbcStoreView, prefix: string): Promise<[string, Uint8Array][]> {
  return (await view.entries(prefix)).map(([k, v]) => [k.slice(prefix.length), v]);
}

// ICS-24 identifier rules (host.ClientIdentifierValidator and friends), as the gRPC queries check them.
const ID_CHARS = /^[a-zA-Z0-9._+\-#[\]<>]+$/;

function checkId(id: string, min: number, max: number): void {
  if (id.trim() === '') throw invalidArgument('identifier cannot be blank: invalid identifier');
  if (id.includes('/')) throw invalidArgument(`identifier ${id} cannot contain separator '/': invalid identifier`);
  if (id.length < min || id.length > max)
    throw invalidArgument(`identifier ${id} has invalid length: ${id.length}, must be between ${min}-${max} characters: invalid identifier`);
  if (!ID_CHARS.test(id))
    throw invalidArgument(
      `identifier ${id} must contain only alphanumeric or the following characters: '.', '_', '+', '-', '#', '[', ']', '<', '>': invalid identifier`,
    );
}

export const validate = {
  client: (id: string) => checkId(id, 9, 64),
  connection: (id: string) => checkId(id, 10, 64),
  port: (id: string) => checkId(id, 2, 128),
  channel: (id: string) => checkId(id, 8, 64),
  portChannel(port: string, channel: string): void {
    this.port(port);
    this.channel(channel);
  },
};
