/**
 * The hub chain's application: a Cosmos-SDK-style chain of one native denom (6 decimals), whose
 * txs are Cosmos `TxRaw`s (MsgSend, MsgMultiSend) run through the same ante steps, bank execution,
 * gas, events and queries as the EVM chain's Cosmos face (src/app/cosmos), on its own accounts.
 *
 *   InitChain   app_state.hub: denom, prefix, funded accounts → accounts, account numbers, app hash
 *   CheckTx     the ante checks on the committed accounts (the mempool orders by sequence)
 *   Finalize    each tx on a working copy; results, events; the changed accounts and IBC entries
 *               into the working trees; app hash = the multistore root (bank, acc, ibc)
 *   Commit      the working copy becomes the committed accounts; changed accounts, IBC writes, auth
 *               entries and meta written in one batch of the root database (crash-safe on a home)
 *   Query       auth, bank (any kept height: a past one read from the trees), Simulate;
 *               `/store/<bank|acc|ibc>/key` at any kept height, with ICS-23 proofs (hub-stores.ts)
 */
import type { AbstractLevel, AbstractSublevel } from 'abstract-level';
import type { Application } from '../../abci/application.js';
import {
  CodeTypeOK,
  ProposalStatus,
  type ExecTxResult,
  type RequestCheckTx,
  type RequestFinalizeBlock,
  type RequestInfo,
  type RequestInitChain,
  type RequestPrepareProposal,
  type RequestProcessProposal,
  type RequestQuery,
  type ResponseCheckTx,
  type ResponseCommit,
  type ResponseFinalizeBlock,
  type ResponseInfo,
  type ResponseInitChain,
  type ResponsePrepareProposal,
  type ResponseProcessProposal,
  type ResponseQuery,
} from '../../abci/types.js';
import { AuthRegistry, FEE_COLLECTOR } from '../../app/cosmos/auth-registry.js';
import { checkCosmosTx, runCosmosTx, type CosmosChainEnv } from '../../app/cosmos/cosmos-exec.js';
import { COSMOS_QUERIES, IBC_QUERIES } from '../../app/abci/lazy-query-routes.js';
import { decodeCosmosTx, type DecodedCosmosTx } from '../../app/cosmos/cosmos-tx.js';
import { CosmosTxError, HeightNotAvailableError } from '../../sdk/errors.js';
import { buildRouteTable, routeQuery } from '../../sdk/query-router.js';
import type { AppQueryContext } from '../../app/abci/query-routes.js';
import { fromBech32 } from '../../crypto/bech32.js';
import { txHash } from '../../types/txs.js';
import { IbcStore } from '../../ibc/ibc-store.js';
import { queryStore, type AppStores } from '../../ibc/app-stores.js';
import { IBC_STORE_KEY } from '../../ibc/keys.js';
import type { NodeBatch } from '../../store/iavl/index.js';
import { accountsAt, applyAccounts, openHubStores } from './hub-stores.js';
import { HubAccounts, type AccountMap } from './hub-accounts.js';
import { timestampToNs } from '../../types/time.js';
import { rootOf } from '../../store/level.js';

type Db = AbstractLevel<string | Uint8Array | Buffer, string, Uint8Array>;
type TextSublevel = AbstractSublevel<unknown, string | Uint8Array | Buffer, string, string>;
type BytesSublevel = AbstractSublevel<unknown, string | Uint8Array | Buffer, string, Uint8Array>;

export interface HubConfig {
  chainId: string;
  denom: string;
  displayDenom: string;
  decimals: number;
  bech32Prefix: string;
  /** Per unit of gas, in the base denom (0: no fee required). */
  minGasPrice: string;
}

/** `app_state.hub` of the genesis. */
export interface HubGenesisState extends Omit<HubConfig, 'chainId'> {
  accounts: { address: string; amount: string }[];
}

interface Meta {
  height: number;
  appHash: string;
  config: HubConfig;
}

export const HUB_APP_VERSION = 1;
const EMPTY = new Uint8Array(0);

export class HubApp implements Application {
  private meta: Meta | undefined;
  private committed = new HubAccounts();
  private pending: { accounts: HubAccounts; ibc: IbcStore; meta: Meta; changed: string[]; ibcWrites: [string, Uint8Array | undefined][] } | undefined;
  /** The multistore's trees (bank, acc, ibc): the app hash is their commit info root. */
  private stores!: AppStores;
  /** The IBC module's committed store (clients, channels, packets, vouchers). */
  private ibc = new IbcStore();
  readonly auth: AuthRegistry;
  private readonly routes = buildRouteTable([], [COSMOS_QUERIES, IBC_QUERIES]);

  private constructor(
    private readonly accountsDb: TextSublevel,
    private readonly metaDb: TextSublevel,
    authDb: TextSublevel,
    private readonly ibcDb: BytesSublevel,
  ) {
    this.auth = new AuthRegistry(authDb);
  }

  static async open(db: Db): Promise<HubApp> {
    const text = { keyEncoding: 'utf8', valueEncoding: 'utf8' } as const;
    const app = new HubApp(
      db.sublevel<string, string>('accounts', text) as TextSublevel,
      db.sublevel<string, string>('meta', text) as TextSublevel,
      db.sublevel<string, string>('auth', text) as TextSublevel,
      db.sublevel<string, Uint8Array>('ibc', { keyEncoding: 'utf8', valueEncoding: 'view' }) as unknown as BytesSublevel,
    );
    app.stores = await openHubStores(db);
    const m = await app.metaDb.get('hub');
    if (m !== undefined) {
      app.meta = JSON.parse(m) as Meta;
      const map: AccountMap = new Map();
      for await (const [k, v] of app.accountsDb.iterator()) {
        const e = JSON.parse(v) as { b: string; s: string };
        map.set(k, { balance: BigInt(e.b), sequence: BigInt(e.s) });
      }
      app.committed = new HubAccounts(map);
      const ibc = new Map<string, Uint8Array>();
      for await (const [k, v] of app.ibcDb.iterator()) ibc.set(k, v);
      app.ibc = new IbcStore(ibc);
    }
    return app;
  }

  get config(): HubConfig | undefined {
    return this.meta?.config;
  }

  /** The committed IBC store (read only: the relayer and the routing API read clients, packets and vouchers). */
  ibcStore(): IbcStore {
    return this.ibc;
  }

  /** The last finalized block's time: Simulate runs at it, as the SDK's check state carries the last header (a client update checks header times against it). */
  private lastBlockTimeNs: bigint | undefined;

  /** The committed sequence of a 20-byte address. */
  sequence(address: Uint8Array): bigint {
    return this.committed.entries().get(Buffer.from(address).toString('hex'))?.sequence ?? 0n;
  }

  /** The committed balance of a 20-byte address (routing API, tests). */
  balance(address: Uint8Array): bigint {
    return this.committed.entries().get(Buffer.from(address).toString('hex'))?.balance ?? 0n;
  }

  async info(_req: RequestInfo): Promise<ResponseInfo> {
    return {
      data: 'chainlet-hub',
      version: '0.1.0',
      appVersion: HUB_APP_VERSION,
      lastBlockHeight: this.meta?.height ?? 0,
      lastBlockAppHash: this.meta && this.meta.height > 0 ? Uint8Array.from(Buffer.from(this.meta.appHash, 'hex')) : EMPTY,
    };
  }

  async initChain(req: RequestInitChain): Promise<ResponseInitChain> {
    const g = parseHubGenesis(req.appStateBytes);
    const config: HubConfig = {
      chainId: req.chainId,
      denom: g.denom,
      displayDenom: g.displayDenom,
      decimals: g.decimals,
      bech32Prefix: g.bech32Prefix,
      minGasPrice: g.minGasPrice,
    };
    const map: AccountMap = new Map();
    for (const a of g.accounts) {
      const { prefix, bytes } = fromBech32(a.address);
      if (prefix !== g.bech32Prefix || bytes.length !== 20) throw new Error(`hub genesis: ${a.address} is not a ${g.bech32Prefix} address`);
      map.set(Buffer.from(bytes).toString('hex'), { balance: BigInt(a.amount), sequence: 0n });
    }
    this.committed = new HubAccounts(map);
    this.ibc = new IbcStore();
    this.auth.reset();
    await this.auth.numberAll([...map.keys(), Buffer.from(FEE_COLLECTOR).toString('hex')]);
    // Genesis accounts go into the working trees: the first block's commit saves them with its own writes.
    this.stores.resetWorking();
    applyAccounts(this.stores, map, map.keys(), config.denom, config.bech32Prefix);
    const appHash = this.stores.workingHash();
    this.meta = { height: 0, appHash: Buffer.from(appHash).toString('hex'), config };
    await this.persist(this.committed, [...map.keys()]);
    return { validators: [], appHash };
  }

  async checkTx(req: RequestCheckTx): Promise<ResponseCheckTx> {
    const meta = this.requireMeta();
    let d: DecodedCosmosTx;
    try {
      d = this.decode(req.tx);
    } catch (e) {
      return rejected(e);
    }
    return checkCosmosTx(d, this.env(meta.height + 1, this.ibc), this.committed);
  }

  async prepareProposal(req: RequestPrepareProposal): Promise<ResponsePrepareProposal> {
    const txs: Uint8Array[] = [];
    let bytes = 0;
    for (const t of req.txs) {
      if (bytes + t.length > req.maxTxBytes) break;
      txs.push(t);
      bytes += t.length;
    }
    return { txs };
  }

  async processProposal(req: RequestProcessProposal): Promise<ResponseProcessProposal> {
    for (const t of req.txs) {
      try {
        this.decode(t);
      } catch {
        return { status: ProposalStatus.Reject };
      }
    }
    return { status: ProposalStatus.Accept };
  }

  async finalizeBlock(req: RequestFinalizeBlock): Promise<ResponseFinalizeBlock> {
    const meta = this.requireMeta();
    const working = this.committed.copy();
    const ibc = this.ibc.copy();
    const timeNs = timestampToNs(req.time);
    this.lastBlockTimeNs = timeNs;
    const txResults: ExecTxResult[] = [];
    for (const t of req.txs) {
      try {
        txResults.push((await runCosmosTx(this.decode(t), this.env(req.height, ibc, timeNs), working, 'deliver')).result);
      } catch (e) {
        txResults.push(rejected(e));
      }
    }
    // The accounts the block changed and its IBC writes go into the working trees (after any
    // abandoned FinalizeBlock's are dropped); the app hash is the multistore's root.
    const before = this.committed.entries();
    const changed = [...working.entries()]
      .filter(([k, v]) => {
        const o = before.get(k);
        return !o || o.balance !== v.balance || o.sequence !== v.sequence;
      })
      .map(([k]) => k);
    for (const k of before.keys()) if (!working.entries().has(k)) changed.push(k);
    this.stores.resetWorking();
    // Block 1 commits the genesis accounts too (InitChain wrote them to the working trees only).
    if (meta.height === 0) applyAccounts(this.stores, before, before.keys(), meta.config.denom, meta.config.bech32Prefix);
    applyAccounts(this.stores, working.entries(), changed, meta.config.denom, meta.config.bech32Prefix);
    const ibcWrites = ibc.takeWrites();
    this.stores.apply(IBC_STORE_KEY, ibcWrites);
    const appHash = this.stores.workingHash();
    this.pending = { accounts: working, ibc, changed, ibcWrites, meta: { ...meta, height: req.height, appHash: Buffer.from(appHash).toString('hex') } };
    return { events: [], txResults, validatorUpdates: [], appHash };
  }

  async commit(): Promise<ResponseCommit> {
    const p = this.pending;
    if (!p) return { retainHeight: 0 };
    const changed = p.changed;
    await this.auth.numberAll([...changed].sort());
    const treeOps: NodeBatch = [];
    this.stores.commit(p.meta.height, treeOps);
    this.committed = p.accounts;
    this.ibc = p.ibc.flatten();
    this.meta = p.meta;
    this.pending = undefined;
    await this.persist(this.committed, changed, p.ibcWrites, treeOps);
    return { retainHeight: 0 };
  }

  async query(req: RequestQuery): Promise<ResponseQuery> {
    // Raw store reads with proofs (`/store/ibc/key`, `/store/bank/key`…), as relayers ask them.
    if (req.path.startsWith('/store/')) return queryStore(this.stores, req, this.meta?.height ?? 0);
    const m = this.meta;
    const c = m?.config;
    const ctx: AppQueryContext = {
      latestHeight: () => m?.height ?? 0,
      stateAt: async (h) => {
        if (h === (m?.height ?? 0)) return this.committed.copy();
        // A past height: the accounts as its bank and acc trees hold them.
        const past = await accountsAt(this.stores, h);
        if (past === undefined) throw new HeightNotAvailableError(h, m?.height ?? 0);
        return new HubAccounts(past);
      },
      denom: c?.denom ?? '',
      bech32Prefix: c?.bech32Prefix ?? '',
      cosmos: {
        auth: this.auth,
        displayDenom: c?.displayDenom ?? '',
        decimals: c?.decimals ?? 6,
        env: (h) => this.env(h, this.ibc.copy(), this.lastBlockTimeNs ?? BigInt(Date.now()) * 1_000_000n),
        ibc: () => this.ibc,
        ibcTree: () => this.stores.byHeight(IBC_STORE_KEY),
      },
    };
    return routeQuery(ctx, this.routes, req);
  }

  async close(): Promise<void> {}

  private decode(bytes: Uint8Array): DecodedCosmosTx {
    const hash = txHash(bytes);
    return decodeCosmosTx(bytes, hash, Buffer.from(hash).toString('hex').toUpperCase(), this.requireMeta().config.bech32Prefix);
  }

  private env(height: number, ibc: IbcStore, timeNs = 0n): CosmosChainEnv {
    const c = this.requireMeta().config;
    return {
      chainId: c.chainId,
      denom: c.denom,
      bech32Prefix: c.bech32Prefix,
      auth: this.auth,
      minGasPrice: BigInt(c.minGasPrice),
      baseFee: 0n,
      height,
      ibc: { store: ibc, timeNs },
    };
  }

  private requireMeta(): Meta {
    if (!this.meta) throw new Error('the hub app has no chain yet: InitChain first');
    return this.meta;
  }

  /**
   * Writes a commit (the changed accounts, the IBC store's writes, the auth entries and the meta)
   * as ONE batch of the root database: with the hub on a home, a crash leaves the previous block's
   * state or this one, never a mix (the handshake replays what the app lacks from the block store).
   */
  private async persist(accounts: HubAccounts, changed: string[], ibcWrites: [string, Uint8Array | undefined][] = [], treeOps: NodeBatch = []): Promise<void> {
    const batch = this.commitBatch();
    for (const o of treeOps) batch.tree(o);
    const e = accounts.entries();
    for (const k of changed) {
      const v = e.get(k);
      if (v) batch.put(this.accountsDb, k, JSON.stringify({ b: v.balance.toString(), s: v.sequence.toString() }));
      else batch.del(this.accountsDb, k);
    }
    for (const [k, v] of ibcWrites) {
      if (v === undefined) batch.del(this.ibcDb, k);
      else batch.put(this.ibcDb, k, v);
    }
    for (const w of this.auth.takeWrites()) batch.put(this.auth.sublevel, w.key, w.value);
    batch.put(this.metaDb, 'hub', JSON.stringify(this.meta));
    await batch.write();
  }

  /** A batch over the root database that every store of the app adds its writes to (each on its sublevel). */
  private commitBatch(): HubCommitBatch {
    const chained = rootOf(this.metaDb as unknown as Db).batch();
    const opts = (sublevel: object) => ({ sublevel }) as never;
    return {
      put: (sublevel, key, value) => void chained.put(key as never, value as never, opts(sublevel)),
      del: (sublevel, key) => void chained.del(key as never, opts(sublevel)),
      tree: (o) =>
        void (o.type === 'put'
          ? chained.put(o.key as never, o.value as never, { sublevel: o.sublevel, keyEncoding: 'view', valueEncoding: 'view' } as never)
          : chained.del(o.key as never, { sublevel: o.sublevel, keyEncoding: 'view' } as never)),
      write: () => chained.write(),
    };
  }
}

/** One commit's writes, each on the sublevel of the store it belongs to, written at once by `write()`. */
export interface HubCommitBatch {
  put(sublevel: TextSublevel | BytesSublevel, key: string, value: string | Uint8Array): void;
  del(sublevel: TextSublevel | BytesSublevel, key: string): void;
  /** An IAVL tree's write (src/store/iavl), on its own sublevel. */
  tree(op: NodeBatch[number]): void;
  write(): Promise<void>;
}

function rejected(e: unknown): ExecTxResult & ResponseCheckTx {
  if (!(e instanceof CosmosTxError)) throw e;
  return { code: e.code, data: EMPTY, log: e.log, info: '', gasWanted: 0, gasUsed: 0, events: [], codespace: e.codespace };
}

export function parseHubGenesis(bytes: Uint8Array): HubGenesisState {
  const json = JSON.parse(new TextDecoder().decode(bytes)) as { hub?: HubGenesisState };
  const g = json.hub;
  if (!g || typeof g.denom !== 'string' || typeof g.bech32Prefix !== 'string' || !Array.isArray(g.accounts))
    throw new Error('hub genesis: app_state.hub needs denom, bech32Prefix and accounts');
  return g;
}
