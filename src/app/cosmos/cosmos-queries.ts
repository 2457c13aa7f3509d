/**
 * The Cosmos SDK gRPC queries of the chain's Cosmos face, answered over ABCI Query as BaseApp's gRPC
 * router does: the path is `/<service>/<method>`, request and response are protobuf bytes (cosmjs-types'
 * generated messages), a gRPC status error becomes the SDK code and log cosmjs parses
 * (`rpc error: code = NotFound desc = …: key not found`, code 22). Balances are the EVM balances in
 * the native denom (18 decimals); accounts are BaseAccounts whose sequence is the EVM nonce.
 *
 *   cosmos.auth.v1beta1.Query     Account, Accounts, AccountInfo, Params, Bech32Prefix
 *   cosmos.bank.v1beta1.Query     Balance, AllBalances, SpendableBalances, SpendableBalanceByDenom,
 *                                 TotalSupply, SupplyOf, DenomMetadata, DenomsMetadata, Params
 *   cosmos.staking.v1beta1.Query  Params (the SDK defaults: relayers read unbonding_time for a client's trusting period)
 *   cosmos.tx.v1beta1.Service     Simulate (GetTx and the node's own queries are added by the node)
 */
import { exactSizeBuffers } from '../../codec/cosmjs-types.js';
import { Address } from '@ethereumjs/util';
import { BaseAccount, Params as AuthParams } from 'cosmjs-types/cosmos/auth/v1beta1/auth';
import {
  Bech32PrefixResponse,
  QueryAccountInfoRequest,
  QueryAccountInfoResponse,
  QueryAccountRequest,
  QueryAccountResponse,
  QueryAccountsRequest,
  QueryAccountsResponse,
  QueryParamsResponse as AuthParamsResponse,
} from 'cosmjs-types/cosmos/auth/v1beta1/query';
import { Metadata, Params as BankParams } from 'cosmjs-types/cosmos/bank/v1beta1/bank';
import {
  QueryAllBalancesRequest,
  QueryAllBalancesResponse,
  QueryBalanceRequest,
  QueryBalanceResponse,
  QueryDenomMetadataRequest,
  QueryDenomMetadataResponse,
  QueryDenomsMetadataResponse,
  QueryParamsResponse as BankParamsResponse,
  QuerySpendableBalanceByDenomRequest,
  QuerySpendableBalanceByDenomResponse,
  QuerySpendableBalancesRequest,
  QuerySpendableBalancesResponse,
  QuerySupplyOfRequest,
  QuerySupplyOfResponse,
  QueryTotalSupplyRequest,
  QueryTotalSupplyResponse,
} from 'cosmjs-types/cosmos/bank/v1beta1/query';
import type { PageRequest } from 'cosmjs-types/cosmos/base/query/v1beta1/pagination';
import { PubKey as Secp256k1PubKey } from 'cosmjs-types/cosmos/crypto/secp256k1/keys';
import { QueryParamsResponse as StakingParamsResponse } from 'cosmjs-types/cosmos/staking/v1beta1/query';
import { SimulateRequest, SimulateResponse } from 'cosmjs-types/cosmos/tx/v1beta1/service';
import { TxRaw } from 'cosmjs-types/cosmos/tx/v1beta1/tx';
import type { Any } from 'cosmjs-types/google/protobuf/any';
import { fromBech32, toBech32 } from '../../crypto/bech32.js';
import { txHash } from '../../types/txs.js';
import { CosmosTxError, QueryError, type Codespace } from '../../sdk/errors.js';
import type { QueryContext, QueryRoute, QueryState } from '../../sdk/query-router.js';
import type { AuthEntry, AuthRegistry } from './auth-registry.js';
import { MAX_MEMO_CHARACTERS, runCosmosTx, type CosmosChainEnv } from './cosmos-exec.js';
import { GAS } from './cosmos-gas.js';
import { decodeCosmosTx, ETH_SECP256K1_PUBKEY_URL, SECP256K1_PUBKEY_URL } from './cosmos-tx.js';
import { storedBalance, storedBalances, storedSupplies, storedSupply } from '../../ibc/bank.js';
import type { IbcStore } from '../../ibc/ibc-store.js';
import type { VersionedTree } from '../../ibc/query-view.js';

exactSizeBuffers();

/** What the Cosmos queries need beyond the EVM query context. */
export interface CosmosQueryContext {
  auth: AuthRegistry;
  displayDenom: string;
  decimals: number;
  /** The chain env a simulated tx runs in at `height`. */
  env(height: number): CosmosChainEnv;
  /** The committed IBC store: vouchers' balances and the IBC queries (latest height). */
  ibc?: () => IbcStore;
  /** The provable IBC store's versions: the IBC queries at a past height. */
  ibcTree?: () => VersionedTree;
}

type Ctx = QueryContext & { cosmos?: CosmosQueryContext };

const SDK = 'sdk' as Codespace;
const notFound = (desc: string) => new QueryError(22, SDK, `rpc error: code = NotFound desc = ${desc}: key not found`);
const invalidArgument = (desc: string) => new QueryError(18, SDK, `rpc error: code = InvalidArgument desc = ${desc}: invalid request`);

function cosmosOf(ctx: Ctx): CosmosQueryContext {
  if (!ctx.cosmos) throw new QueryError(6, SDK, 'the Cosmos queries are not served by this app: unknown request');
  return ctx.cosmos;
}

function decodeReq<T>(codec: { decode(b: Uint8Array): T }, data: Uint8Array): T {
  try {
    return codec.decode(data);
  } catch (e) {
    throw invalidArgument(`invalid request: ${(e as Error).message}`);
  }
}

/** bech32 with the chain prefix, or 0x hex (Cosmos EVM's address codec takes both). */
function parseAddress(ctx: Ctx, text: string): Uint8Array {
  if (text === '') throw invalidArgument('empty address string is not allowed');
  if (/^0x[0-9a-fA-F]{40}$/.test(text)) return Uint8Array.from(Buffer.from(text.slice(2), 'hex'));
  let d: { prefix: string; bytes: Uint8Array };
  try {
    d = fromBech32(text);
  } catch (e) {
    throw invalidArgument(`invalid address: decoding bech32 failed: ${(e as Error).message}`);
  }
  if (d.prefix !== ctx.bech32Prefix)
    throw invalidArgument(`invalid address: hrp does not match bech32 prefix: expected '${ctx.bech32Prefix}' got '${d.prefix}'`);
  if (d.bytes.length !== 20) throw invalidArgument(`invalid address: address length must be 20 bytes, got ${d.bytes.length}`);
  return d.bytes;
}

const hexOf = (b: Uint8Array) => Buffer.from(b).toString('hex');

/** A denom's balance: the native one from the accounts, others (IBC vouchers) from the IBC store. */
async function denomBalance(ctx: Ctx, state: QueryState, address: Uint8Array, denom: string): Promise<bigint> {
  if (denom === ctx.denom) return balanceOf(state, address);
  const ibc = ctx.cosmos?.ibc?.();
  return ibc ? storedBalance(ibc, address, denom) : 0n;
}

/** Every balance of an address in denom order, as x/bank lists them. */
async function allCoins(ctx: Ctx, state: QueryState, address: Uint8Array): Promise<{ denom: string; amount: string }[]> {
  const native = await balanceOf(state, address);
  const ibc = ctx.cosmos?.ibc?.();
  const coins = [...(native > 0n ? [{ denom: ctx.denom, amount: native }] : []), ...(ibc ? storedBalances(ibc, address) : [])];
  return coins.sort((a, b) => (a.denom < b.denom ? -1 : a.denom > b.denom ? 1 : 0)).map((c) => ({ denom: c.denom, amount: c.amount.toString() }));
}

async function balanceOf(state: QueryState, address: Uint8Array): Promise<bigint> {
  return (await state.getAccount(new Address(Uint8Array.from(address))))?.balance ?? 0n;
}

/** The account as x/auth shows it, or undefined when neither face has it. */
async function accountAny(ctx: Ctx, state: QueryState, address: Uint8Array): Promise<{ any: Any; base: BaseAccount } | undefined> {
  const c = cosmosOf(ctx);
  const evm = await state.getAccount(new Address(Uint8Array.from(address)));
  let entry: AuthEntry | undefined = await c.auth.get(hexOf(address));
  if (entry === undefined && evm === undefined) return undefined;
  entry ??= await c.auth.get(hexOf(address), true);
  const base: BaseAccount = {
    address: toBech32(ctx.bech32Prefix, address),
    pubKey: entry!.pubKey
      ? {
          typeUrl: entry!.pubKey.type === 'eth_secp256k1' ? ETH_SECP256K1_PUBKEY_URL : SECP256K1_PUBKEY_URL,
          value: Secp256k1PubKey.encode({ key: entry!.pubKey.key }).finish(),
        }
      : undefined,
    accountNumber: entry!.accountNumber,
    sequence: evm?.nonce ?? 0n,
  };
  return { any: { typeUrl: '/cosmos.auth.v1beta1.BaseAccount', value: BaseAccount.encode(base).finish() }, base };
}

/** offset/limit paging of a list, with next_key as the next offset (SDK default limit 100). */
function page<T>(items: T[], p: PageRequest | undefined): { items: T[]; nextKey: Uint8Array; total: bigint } {
  let offset = Number(p?.offset ?? 0n);
  if (p?.key && p.key.length > 0) offset = Number(Buffer.from(p.key).readBigUInt64BE(0));
  const limit = Number(p?.limit ?? 0n) || 100;
  const list = p?.reverse ? [...items].reverse() : items;
  const slice = list.slice(offset, offset + limit);
  const next = offset + limit < list.length ? Buffer.alloc(8) : undefined;
  next?.writeBigUInt64BE(BigInt(offset + limit));
  return { items: slice, nextKey: next ? Uint8Array.from(next) : new Uint8Array(0), total: p?.countTotal ? BigInt(list.length) : 0n };
}

function metadata(ctx: Ctx): Metadata {
  const c = cosmosOf(ctx);
  return {
    description: `The native token of the chain (${ctx.denom}, ${c.decimals} decimals)`,
    denomUnits: [
      { denom: ctx.denom, exponent: 0, aliases: [] },
      { denom: c.displayDenom, exponent: c.decimals, aliases: [] },
    ],
    base: ctx.denom,
    display: c.displayDenom,
    name: c.displayDenom,
    symbol: c.displayDenom.toUpperCase(),
    uri: '',
    uriHash: '',
  };
}

async function totalSupply(ctx: Ctx, state: QueryState): Promise<bigint> {
  let sum = 0n;
  for (const { addrHex } of await cosmosOf(ctx).auth.all()) sum += await balanceOf(state, Buffer.from(addrHex, 'hex'));
  return sum;
}

/** The SDK's default unbonding time, 21 days: also the unbonding period of the relayer's clients (src/ibc/light-client.ts). */
const STAKING_UNBONDING_SECONDS = 21n * 24n * 60n * 60n;

const route = (path: string, handle: (ctx: Ctx, state: QueryState, data: Uint8Array) => Promise<Uint8Array>): QueryRoute => ({
  path,
  handle: (ctx, state, _args, req) => handle(ctx as Ctx, state, req.data),
});

export const COSMOS_QUERY_ROUTES: readonly QueryRoute[] = Object.freeze([
  // ── auth ──
  route('/cosmos.auth.v1beta1.Query/Account', async (ctx, state, data) => {
    const req = decodeReq(QueryAccountRequest, data);
    if (req.address === '') throw invalidArgument('Address cannot be empty');
    const a = await accountAny(ctx, state, parseAddress(ctx, req.address));
    if (!a) throw notFound(`account ${req.address} not found`);
    return QueryAccountResponse.encode({ account: a.any }).finish();
  }),
  route('/cosmos.auth.v1beta1.Query/AccountInfo', async (ctx, state, data) => {
    const req = decodeReq(QueryAccountInfoRequest, data);
    if (req.address === '') throw invalidArgument('address cannot be empty');
    const a = await accountAny(ctx, state, parseAddress(ctx, req.address));
    if (!a) throw notFound(`account ${req.address} not found`);
    return QueryAccountInfoResponse.encode({ info: a.base }).finish();
  }),
  route('/cosmos.auth.v1beta1.Query/Accounts', async (ctx, state, data) => {
    const req = decodeReq(QueryAccountsRequest, data);
    const all = await cosmosOf(ctx).auth.all();
    const p = page(all, req.pagination);
    const accounts: Any[] = [];
    for (const { addrHex } of p.items) accounts.push((await accountAny(ctx, state, Buffer.from(addrHex, 'hex')))!.any);
    return QueryAccountsResponse.encode({ accounts, pagination: { nextKey: p.nextKey, total: p.total } }).finish();
  }),
  route('/cosmos.auth.v1beta1.Query/Params', async () => {
    const params: AuthParams = {
      maxMemoCharacters: BigInt(MAX_MEMO_CHARACTERS),
      txSigLimit: 7n,
      txSizeCostPerByte: GAS.txSizePerByte,
      sigVerifyCostEd25519: 590n,
      sigVerifyCostSecp256k1: GAS.sigVerifySecp256k1,
    };
    return AuthParamsResponse.encode({ params }).finish();
  }),
  // ── staking: no staking module (fixed validator sets), but its Params as the SDK defaults them, bonded in the native denom ──
  route('/cosmos.staking.v1beta1.Query/Params', async (ctx) =>
    StakingParamsResponse.encode({
      params: {
        unbondingTime: { seconds: STAKING_UNBONDING_SECONDS, nanos: 0 },
        maxValidators: 100,
        maxEntries: 7,
        historicalEntries: 10_000,
        bondDenom: ctx.denom,
        minCommissionRate: '0',
      },
    }).finish(),
  ),
  route('/cosmos.auth.v1beta1.Query/Bech32Prefix', async (ctx) => Bech32PrefixResponse.encode({ bech32Prefix: ctx.bech32Prefix }).finish()),

  // ── bank ──
  route('/cosmos.bank.v1beta1.Query/Balance', async (ctx, state, data) => {
    const req = decodeReq(QueryBalanceRequest, data);
    const address = parseAddress(ctx, req.address);
    if (req.denom === '') throw invalidArgument('invalid denom');
    const amount = await denomBalance(ctx, state, address, req.denom);
    return QueryBalanceResponse.encode({ balance: { denom: req.denom, amount: amount.toString() } }).finish();
  }),
  route('/cosmos.bank.v1beta1.Query/AllBalances', async (ctx, state, data) => {
    const req = decodeReq(QueryAllBalancesRequest, data);
    const p = page(await allCoins(ctx, state, parseAddress(ctx, req.address)), req.pagination);
    return QueryAllBalancesResponse.encode({ balances: p.items, pagination: { nextKey: p.nextKey, total: p.total } }).finish();
  }),
  route('/cosmos.bank.v1beta1.Query/SpendableBalances', async (ctx, state, data) => {
    const req = decodeReq(QuerySpendableBalancesRequest, data);
    const p = page(await allCoins(ctx, state, parseAddress(ctx, req.address)), req.pagination);
    return QuerySpendableBalancesResponse.encode({ balances: p.items, pagination: { nextKey: p.nextKey, total: p.total } }).finish();
  }),
  route('/cosmos.bank.v1beta1.Query/SpendableBalanceByDenom', async (ctx, state, data) => {
    const req = decodeReq(QuerySpendableBalanceByDenomRequest, data);
    const address = parseAddress(ctx, req.address);
    if (req.denom === '') throw invalidArgument('invalid denom');
    const amount = await denomBalance(ctx, state, address, req.denom);
    return QuerySpendableBalanceByDenomResponse.encode({ balance: { denom: req.denom, amount: amount.toString() } }).finish();
  }),
  route('/cosmos.bank.v1beta1.Query/TotalSupply', async (ctx, state, data) => {
    const req = decodeReq(QueryTotalSupplyRequest, data);
    // The native denom's supply, then what ICS-20 minted here (vouchers), in denom order as x/bank lists them.
    const ibc = ctx.cosmos?.ibc?.();
    const all = [{ denom: ctx.denom, amount: await totalSupply(ctx, state) }, ...(ibc ? storedSupplies(ibc) : [])].sort((a, b) =>
      a.denom < b.denom ? -1 : a.denom > b.denom ? 1 : 0,
    );
    const p = page(
      all.map((c) => ({ denom: c.denom, amount: c.amount.toString() })),
      req.pagination,
    );
    return QueryTotalSupplyResponse.encode({ supply: p.items, pagination: { nextKey: p.nextKey, total: p.total } }).finish();
  }),
  route('/cosmos.bank.v1beta1.Query/SupplyOf', async (ctx, state, data) => {
    const req = decodeReq(QuerySupplyOfRequest, data);
    if (req.denom === '') throw invalidArgument('invalid denom');
    const ibc = ctx.cosmos?.ibc?.();
    const amount = req.denom === ctx.denom ? await totalSupply(ctx, state) : ibc ? storedSupply(ibc, req.denom) : 0n;
    return QuerySupplyOfResponse.encode({ amount: { denom: req.denom, amount: amount.toString() } }).finish();
  }),
  route('/cosmos.bank.v1beta1.Query/DenomMetadata', async (ctx, _state, data) => {
    const req = decodeReq(QueryDenomMetadataRequest, data);
    if (req.denom === '') throw invalidArgument('invalid denom');
    if (req.denom !== ctx.denom) throw notFound(`client metadata for denom ${req.denom}`);
    return QueryDenomMetadataResponse.encode({ metadata: metadata(ctx) }).finish();
  }),
  route('/cosmos.bank.v1beta1.Query/DenomsMetadata', async (ctx) =>
    QueryDenomsMetadataResponse.encode({ metadatas: [metadata(ctx)], pagination: { nextKey: new Uint8Array(0), total: 1n } }).finish(),
  ),
  route('/cosmos.bank.v1beta1.Query/Params', async () => {
    const params: BankParams = { sendEnabled: [], defaultSendEnabled: true };
    return BankParamsResponse.encode({ params }).finish();
  }),

  // ── tx ──
  route('/cosmos.tx.v1beta1.Service/Simulate', async (ctx, state, data) => {
    const c = cosmosOf(ctx);
    const req = decodeReq(SimulateRequest, data);
    let bytes = req.txBytes;
    if (bytes.length === 0 && req.tx)
      bytes = TxRaw.encode({ bodyBytes: new Uint8Array(0), authInfoBytes: new Uint8Array(0), signatures: req.tx.signatures }).finish();
    if (bytes.length === 0) throw invalidArgument('empty txBytes is not allowed');
    let d;
    try {
      const hash = txHash(bytes);
      d = decodeCosmosTx(bytes, hash, Buffer.from(hash).toString('hex').toUpperCase(), ctx.bech32Prefix);
    } catch (e) {
      if (e instanceof CosmosTxError) throw invalidArgument(e.log);
      throw e;
    }
    const height = ctx.latestHeight();
    const out = await runCosmosTx(d, c.env(height + 1), state, 'simulate');
    const r = out.result;
    if (r.code !== 0)
      throw new QueryError(
        6,
        SDK,
        `rpc error: code = Unknown desc = ${r.log} With gas wanted: '${r.gasWanted}' and gas used: '${r.gasUsed}' : unknown request`,
      );
    return SimulateResponse.encode({
      gasInfo: { gasWanted: BigInt(r.gasWanted), gasUsed: BigInt(r.gasUsed) },
      result: {
        data: new Uint8Array(0),
        log: '',
        events: r.events.map((e) => ({ type: e.type, attributes: e.attributes.map((a) => ({ key: a.key, value: a.value, index: a.index })) })),
        msgResponses: [],
      },
    }).finish();
  }),
]);
