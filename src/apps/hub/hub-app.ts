/**
 * The hub chain's application: a Cosmos-SDK-style chain of one native denom (6 decimals), whose
 * txs are Cosmos `TxRaw`s (MsgSend, MsgMultiSend) run through the same ante steps, bank execution,
 * gas, events and queries as the EVM chain's Cosmos face (src/app/cosmos), on its own accounts.
 *
 *   InitChain   app_state.hub: denom, prefix, funded accounts → accounts, account numbers, app hash
 *   CheckTx     the ante checks on the committed accounts (the mempool orders by sequence)
 *   Finalize    each tx on a working copy; results, events, app hash
 *   Commit      the working copy becomes the committed accounts; changed accounts written
 *   Query       auth, bank, Simulate (latest height only)
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
import { COSMOS_QUERIES, IBC_QUERIES } from '../../app/lazy-query-routes.js';
import { decodeCosmosTx, type DecodedCosmosTx } from '../../app/cosmos/cosmos-tx.js';
import { CosmosTxError, HeightNotAvailableError } from '../../sdk/errors.js';
import { buildRouteTable, routeQuery } from '../../sdk/query-router.js';
import type { AppQueryContext } from '../../app/query-routes.js';
import { fromBech32 } from '../../crypto/bech32.js';
import { txHash } from '../../types/txs.js';
import { appHashWithIbc, IbcStore } from '../../ibc/ibc-store.js';
import { HubAccounts, type AccountMap } from './hub-accounts.js';
import { timestampToNs } from '../../types/time.js';

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
  private pending: { accounts: HubAccounts; ibc: IbcStore; meta: Meta } | undefined;
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

  /** Restricts client, handshake and packet messages to these 20-byte addresses (the network's relayer). */
  setIbcRelayers(addresses: Uint8Array[]): void {
    this.ibcRelayers = new Set(addresses.map((a) => Buffer.from(a).toString('hex')));
  }

  private ibcRelayers: ReadonlySet<string> | undefined;

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
    const appHash = this.committed.appHash();
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
    const txResults: ExecTxResult[] = [];
    for (const t of req.txs) {
      try {
        txResults.push((await runCosmosTx(this.decode(t), this.env(req.height, ibc, timeNs), working, 'deliver')).result);
      } catch (e) {
        txResults.push(rejected(e));
      }
    }
    const appHash = appHashWithIbc(working.appHash(), ibc.root());
    this.pending = { accounts: working, ibc, meta: { ...meta, height: req.height, appHash: Buffer.from(appHash).toString('hex') } };
    return { events: [], txResults, validatorUpdates: [], appHash };
  }

  async commit(): Promise<ResponseCommit> {
    const p = this.pending;
    if (!p) return { retainHeight: 0 };
    const before = this.committed.entries();
    const changed = [...p.accounts.entries()]
      .filter(([k, v]) => {
        const o = before.get(k);
        return !o || o.balance !== v.balance || o.sequence !== v.sequence;
      })
      .map(([k]) => k);
    await this.auth.numberAll(changed.sort());
    this.committed = p.accounts;
    this.ibc = p.ibc.flatten();
    this.meta = p.meta;
    this.pending = undefined;
    await this.persist(this.committed, changed, p.ibc.takeWrites());
    return { retainHeight: 0 };
  }

  async query(req: RequestQuery): Promise<ResponseQuery> {
    const m = this.meta;
    const c = m?.config;
    const ctx: AppQueryContext = {
      latestHeight: () => m?.height ?? 0,
      stateAt: async (h) => {
        if (h !== (m?.height ?? 0)) throw new HeightNotAvailableError(h, m?.height ?? 0);
        return this.committed.copy();
      },
      denom: c?.denom ?? '',
      bech32Prefix: c?.bech32Prefix ?? '',
      cosmos: {
        auth: this.auth,
        displayDenom: c?.displayDenom ?? '',
        decimals: c?.decimals ?? 6,
        env: (h) => this.env(h, this.ibc.copy()),
        ibc: () => this.ibc,
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
      ibc: { store: ibc, timeNs, ...(this.ibcRelayers ? { relayers: this.ibcRelayers } : {}) },
    };
  }

  private requireMeta(): Meta {
    if (!this.meta) throw new Error('the hub app has no chain yet: InitChain first');
    return this.meta;
  }

  private async persist(accounts: HubAccounts, changed: string[], ibcWrites: [string, Uint8Array | undefined][] = []): Promise<void> {
    const e = accounts.entries();
    const batch = this.accountsDb.batch();
    for (const k of changed) {
      const v = e.get(k);
      if (v) batch.put(k, JSON.stringify({ b: v.balance.toString(), s: v.sequence.toString() }));
      else batch.del(k);
    }
    await batch.write();
    const ibcBatch = this.ibcDb.batch();
    for (const [k, v] of ibcWrites) {
      if (v === undefined) ibcBatch.del(k);
      else ibcBatch.put(k, v);
    }
    await ibcBatch.write();
    for (const w of this.auth.takeWrites()) await this.auth.sublevel.put(w.key, w.value);
    await this.metaDb.put('hub', JSON.stringify(this.meta));
  }
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
