/**
 * POST /v2/fungible/route, /v2/fungible/msgs and /v2/fungible/msgs_direct for the paths this
 * network really has (no swaps, no bridges but IBC):
 *
 *   same chain, same denom   bank_send: a MsgSend (Cosmos faces), a value transfer (EVM face), an
 *                            unsigned SOL or SPL transfer (SVM chain)
 *   hub ↔ EVM chain          transfer over the relayer's channel: a MsgTransfer (Cosmos faces) or a
 *                            call of the ICS-20 precompile (EVM face); the denom it arrives as is a
 *                            voucher `ibc/<hash>`, or the native one when a voucher goes home
 *
 * Anything else (another denom, a chain with no path, the SVM chain to another chain) answers Skip's NotFound
 * (code 5) naming why; malformed requests answer InvalidArgument (code 3). Amounts are exact:
 * no fees are taken on the way, so amount_out = amount_in.
 */
import { fromBech32, toBech32 } from '../../crypto/bech32.js';
import { toHex } from '../../crypto/encoding.js';
import { ICS20_PRECOMPILE_ADDRESS, encodeIcs20Transfer } from '../../ibc/ics20-precompile.js';
import { canonicalIbcDenom, denomHashHex } from '../../ibc/keys.js';
import { resolveChain, type ChainType } from './chains.js';
import type { Reply, RouteContext } from './context.js';
import { json } from './context.js';
import type { RequestInput } from './decode.js';
import { ibcChannel, type RoutingChain, type RoutingEnv } from './env.js';
import { InvalidArgumentError, NotFoundError } from './errors.js';

/** How long a transfer takes here: the relayer acts after each block (receive, then acknowledge). */
const IBC_ROUTE_SECONDS = 10;
const SAME_CHAIN_SECONDS = 1;
const DEFAULT_TIMEOUT_SECONDS = 600;

export interface RouteRequest {
  sourceDenom: string;
  sourceChainId: string;
  destDenom: string;
  destChainId: string;
  amount: bigint;
}

export interface MsgsRequest extends RouteRequest {
  addresses: string[];
  timeoutSeconds: number;
}

export interface MsgsDirectRequest extends RouteRequest {
  chainIdsToAddresses: Record<string, string>;
  timeoutSeconds: number;
}

interface Side {
  chainId: string;
  rc: RoutingChain;
  type: ChainType;
}

type Plan =
  | { kind: 'bank_send'; src: Side; dst: Side; denom: string; amount: bigint }
  | { kind: 'svm_send'; src: Side; dst: Side; denom: string; amount: bigint }
  | { kind: 'ibc'; src: Side; dst: Side; denomIn: string; denomOut: string; bankDenom: string; channel: string; counterpartyChannel: string; amount: bigint };

// ---------------------------------------------------------------- decoding

function body(input: RequestInput): Record<string, unknown> {
  const b = input.body;
  if (b === null || typeof b !== 'object' || Array.isArray(b)) throw new InvalidArgumentError('a JSON object body is required');
  return b as Record<string, unknown>;
}

function str(b: Record<string, unknown>, name: string): string {
  const v = b[name];
  if (typeof v !== 'string' || v === '') throw new InvalidArgumentError(`${name} is required (a non-empty string)`);
  return v;
}

function amountOf(b: Record<string, unknown>): bigint {
  const raw = b['amount_in'] ?? b['amount_out'];
  if (raw === undefined || raw === null || raw === '') throw new InvalidArgumentError('one of amount_in or amount_out is required');
  if (typeof raw !== 'string' || !/^\d+$/.test(raw))
    throw new InvalidArgumentError(`invalid amount "${String(raw)}": a decimal string of base units is required`);
  const v = BigInt(raw);
  if (v === 0n) throw new InvalidArgumentError('amount must be greater than 0');
  return v;
}

function timeoutOf(b: Record<string, unknown>): number {
  const v = b['timeout_seconds'];
  if (v === undefined || v === null || v === '') return DEFAULT_TIMEOUT_SECONDS;
  const n = typeof v === 'string' ? Number(v) : v;
  if (typeof n !== 'number' || !Number.isInteger(n) || n <= 0)
    throw new InvalidArgumentError(`invalid timeout_seconds "${String(v)}": a positive integer is required`);
  return n;
}

export function decodeRouteBody(input: RequestInput): RouteRequest {
  const b = body(input);
  return {
    sourceDenom: str(b, 'source_asset_denom'),
    sourceChainId: str(b, 'source_asset_chain_id'),
    destDenom: str(b, 'dest_asset_denom'),
    destChainId: str(b, 'dest_asset_chain_id'),
    amount: amountOf(b),
  };
}

export function decodeMsgsBody(input: RequestInput): MsgsRequest {
  const b = body(input);
  const list = b['address_list'];
  if (!Array.isArray(list) || list.some((a) => typeof a !== 'string' || a === ''))
    throw new InvalidArgumentError('address_list is required: one address per chain of required_chain_addresses');
  return { ...decodeRouteBody(input), addresses: list as string[], timeoutSeconds: timeoutOf(b) };
}

export function decodeMsgsDirectBody(input: RequestInput): MsgsDirectRequest {
  const b = body(input);
  const map = b['chain_ids_to_addresses'];
  if (map === null || typeof map !== 'object' || Array.isArray(map) || Object.values(map).some((a) => typeof a !== 'string')) {
    throw new InvalidArgumentError('chain_ids_to_addresses is required: an object of chain id → address');
  }
  return { ...decodeRouteBody(input), chainIdsToAddresses: map as Record<string, string>, timeoutSeconds: timeoutOf(b) };
}

// ---------------------------------------------------------------- planning

function side(env: RoutingEnv, chainId: string): Side {
  const { chain, type } = resolveChain(env, chainId);
  return { chainId, rc: chain, type };
}

/** The chain's native denom by its bank name or, on an EVM face, Skip's `<chain>-native`. */
function isNative(s: Side, denom: string): boolean {
  return denom === s.rc.chain.denom || denom === `${s.rc.chain.chainName}-native`;
}

async function plan(env: RoutingEnv, r: RouteRequest): Promise<Plan> {
  const src = side(env, r.sourceChainId);
  const dst = side(env, r.destChainId);
  const noRoute = (why: string) =>
    new NotFoundError(`no route found from ${r.sourceDenom} on ${r.sourceChainId} to ${r.destDenom} on ${r.destChainId}: ${why}`);
  if (src.type === 'svm' || dst.type === 'svm') {
    if (src.rc !== dst.rc) throw noRoute('the SVM chain has no bridge to the other chains of this network');
    const same = r.sourceDenom === r.destDenom || src.rc.sameDenom?.(r.sourceDenom, r.destDenom) === true;
    if (!same) throw noRoute('this network has no swap venues');
    return { kind: 'svm_send', src, dst, denom: r.sourceDenom, amount: r.amount };
  }
  if (src.rc === dst.rc) {
    if (r.destDenom !== r.sourceDenom && !(isNative(src, r.sourceDenom) && isNative(dst, r.destDenom))) throw noRoute('this network has no swap venues');
    if (src.type === 'evm' && !isNative(src, r.sourceDenom))
      throw noRoute(`only the native denom moves on the EVM face of ${src.rc.chain.cosmosChainId} (use ${src.rc.chain.cosmosChainId} for bank denoms)`);
    if (src.type === 'cosmos' && !isNative(src, r.sourceDenom) && !(await knownVoucher(src, r.sourceDenom)))
      throw noRoute(`unknown denom ${r.sourceDenom} on ${r.sourceChainId}`);
    return { kind: 'bank_send', src, dst, denom: isNative(src, r.sourceDenom) ? src.rc.chain.denom : r.sourceDenom, amount: r.amount };
  }
  const path = ibcChannel(env.ibcPaths, src.rc.chain.cosmosChainId, dst.rc.chain.cosmosChainId);
  if (!path) throw noRoute(`no IBC channel between ${src.rc.chain.cosmosChainId} and ${dst.rc.chain.cosmosChainId}`);
  if (dst.type === 'evm' && !isNative(dst, r.destDenom))
    throw noRoute(
      `vouchers arrive as bank coins on ${dst.rc.chain.cosmosChainId}: ask for that chain id (the EVM face ${dst.chainId} holds only the native denom)`,
    );
  let bankDenom: string;
  let arrives: string;
  if (isNative(src, r.sourceDenom)) {
    bankDenom = src.rc.chain.denom;
    arrives = `ibc/${denomHashHex(`transfer/${path.counterparty}/${bankDenom}`)}`;
  } else {
    bankDenom = canonicalIbcDenom(r.sourceDenom);
    const v = r.sourceDenom.startsWith('ibc/') ? await src.rc.voucherBalance?.(new Uint8Array(20), bankDenom) : undefined;
    if (!v) throw noRoute(`unknown denom ${r.sourceDenom} on ${r.sourceChainId}`);
    // Only a voucher that came through this very channel can go on (home); there is no second hop.
    if (bankDenom !== `ibc/${denomHashHex(`transfer/${path.channel}/${v.base}`)}`)
      throw noRoute(`${r.sourceDenom} did not arrive through ${path.channel} and this network has no other path`);
    if (src.type === 'evm') throw noRoute(`vouchers are bank coins: send them from ${src.rc.chain.cosmosChainId}`);
    arrives = v.base;
  }
  const wanted = r.destDenom.startsWith('ibc/') ? canonicalIbcDenom(r.destDenom) : isNative(dst, r.destDenom) ? dst.rc.chain.denom : r.destDenom;
  if (wanted !== arrives) throw noRoute(`over IBC it arrives on ${dst.rc.chain.cosmosChainId} as ${arrives}, and this network has no swap venues`);
  return {
    kind: 'ibc',
    src,
    dst,
    denomIn: r.sourceDenom,
    denomOut: r.destDenom,
    bankDenom,
    channel: path.channel,
    counterpartyChannel: path.counterparty,
    amount: r.amount,
  };
}

async function knownVoucher(s: Side, denom: string): Promise<boolean> {
  return denom.startsWith('ibc/') && (await s.rc.voucherBalance?.(new Uint8Array(20), canonicalIbcDenom(denom))) !== undefined;
}

function routeJson(r: RouteRequest, p: Plan) {
  const amount = p.amount.toString();
  const chainIds = p.src.chainId === p.dst.chainId ? [p.src.chainId] : [p.src.chainId, p.dst.chainId];
  const operation =
    p.kind === 'bank_send' || p.kind === 'svm_send'
      ? { bank_send: { chain_id: p.src.chainId, denom: r.sourceDenom }, tx_index: 0, amount_in: amount, amount_out: amount }
      : {
          transfer: {
            port: 'transfer',
            channel: p.channel,
            from_chain_id: p.src.chainId,
            to_chain_id: p.dst.chainId,
            chain_id: p.src.chainId,
            pfm_enabled: false,
            supports_memo: true,
            denom_in: p.denomIn,
            denom_out: p.denomOut,
            dest_denom: p.denomOut,
            bridge_id: 'IBC',
            smart_relay: false,
            fee_amount: null,
            usd_fee_amount: null,
            fee_asset: null,
          },
          tx_index: 0,
          amount_in: amount,
          amount_out: amount,
        };
  return {
    source_asset_denom: r.sourceDenom,
    source_asset_chain_id: r.sourceChainId,
    dest_asset_denom: r.destDenom,
    dest_asset_chain_id: r.destChainId,
    amount_in: amount,
    amount_out: amount,
    estimated_amount_out: amount,
    operations: [operation],
    chain_ids: chainIds,
    // A bank send within one chain needs the sender and the recipient there.
    required_chain_addresses: p.kind === 'ibc' ? chainIds : [p.src.chainId, p.dst.chainId],
    does_swap: false,
    swap_venues: [],
    txs_required: 1,
    estimated_fees: [],
    estimated_route_duration_seconds: p.kind === 'ibc' ? IBC_ROUTE_SECONDS : SAME_CHAIN_SECONDS,
    warning: null,
  };
}

// ---------------------------------------------------------------- messages

function checkAddress(s: Side, address: string, role: string): void {
  if (s.type === 'svm') {
    try {
      s.rc.parseHolder?.(address, s.chainId);
    } catch {
      throw new InvalidArgumentError(`invalid ${role} address "${address}" for chain ${s.chainId}: expected a base58 public key`);
    }
    return;
  }
  if (s.type === 'evm') {
    if (!/^0x[0-9a-fA-F]{40}$/.test(address))
      throw new InvalidArgumentError(`invalid ${role} address "${address}" for chain ${s.chainId}: expected a 0x address`);
    return;
  }
  let prefix: string | undefined;
  try {
    prefix = fromBech32(address).prefix;
  } catch {
    prefix = undefined;
  }
  if (prefix !== s.rc.chain.bech32Prefix)
    throw new InvalidArgumentError(`invalid ${role} address "${address}" for chain ${s.chainId}: expected bech32 with prefix "${s.rc.chain.bech32Prefix}"`);
}

async function msgsFor(p: Plan, addresses: string[], timeoutSeconds: number) {
  const [from, to] = addresses as [string, string];
  checkAddress(p.src, from, 'sender');
  checkAddress(p.dst, to, 'receiver');
  const amount = p.amount.toString();
  const path = p.src.chainId === p.dst.chainId ? [p.src.chainId] : [p.src.chainId, p.dst.chainId];
  const timeoutNs = BigInt(Date.now() + timeoutSeconds * 1000) * 1_000_000n;
  // ICS-20 receivers are bech32 strings: a 0x receiver on the EVM face is the same account in bech32.
  const receiver = p.kind === 'ibc' && p.dst.type === 'evm' ? toBech32(p.dst.rc.chain.bech32Prefix, Buffer.from(to.slice(2), 'hex')) : to;
  if (p.kind === 'svm_send') {
    const tx = await p.src.rc.unsignedTransfer?.(from, to, p.denom, p.amount);
    if (tx === undefined) throw new NotFoundError(`no route found: unknown denom ${p.denom} on ${p.src.chainId}`);
    const svmTx = { chain_id: p.src.chainId, signer_address: from, tx };
    return { msgs: [{ svm_tx: svmTx }], txs: [{ svm_tx: svmTx, operations_indices: [0] }] };
  }
  if (p.src.type === 'evm') {
    const evmTx =
      p.kind === 'bank_send'
        ? { chain_id: p.src.chainId, to, value: amount, data: '', required_erc20_approvals: [], signer_address: from }
        : {
            chain_id: p.src.chainId,
            to: ICS20_PRECOMPILE_ADDRESS,
            value: '0',
            data: toHex(
              encodeIcs20Transfer({
                sourcePort: 'transfer',
                sourceChannel: p.channel,
                denom: p.bankDenom,
                amount: p.amount,
                sender: Buffer.from(from.slice(2), 'hex'),
                receiver,
                timeoutHeight: { revisionNumber: 0n, revisionHeight: 0n },
                timeoutTimestamp: timeoutNs,
                memo: '',
              }),
            ),
            required_erc20_approvals: [],
            signer_address: from,
          };
    return { msgs: [{ evm_tx: evmTx }], txs: [{ evm_tx: evmTx, operations_indices: [0] }] };
  }
  const m =
    p.kind === 'bank_send'
      ? { msg_type_url: '/cosmos.bank.v1beta1.MsgSend', msg: JSON.stringify({ from_address: from, to_address: to, amount: [{ denom: p.denom, amount }] }) }
      : {
          msg_type_url: '/ibc.applications.transfer.v1.MsgTransfer',
          // The JSON Skip's API writes (snake_case, the timeout as a number of ns); its client reads it back.
          msg: `{"source_port":"transfer","source_channel":${JSON.stringify(p.channel)},"token":{"denom":${JSON.stringify(p.bankDenom)},"amount":"${amount}"},"sender":${JSON.stringify(from)},"receiver":${JSON.stringify(receiver)},"timeout_height":{},"timeout_timestamp":${timeoutNs},"memo":""}`,
        };
  return {
    msgs: [{ multi_chain_msg: { chain_id: p.src.chainId, path, msg: m.msg, msg_type_url: m.msg_type_url } }],
    txs: [{ cosmos_tx: { chain_id: p.src.chainId, path, signer_address: from, msgs: [m] }, operations_indices: [0] }],
  };
}

function addressesFor(route: ReturnType<typeof routeJson>, given: string[]): string[] {
  const need = route.required_chain_addresses;
  if (given.length !== need.length)
    throw new InvalidArgumentError(`address_list has ${given.length} address(es); this route needs ${need.length}, one per required chain: ${need.join(', ')}`);
  return need.length === 1 ? [given[0]!, given[0]!] : given;
}

// ---------------------------------------------------------------- handlers

export async function handleRoute(ctx: RouteContext, r: RouteRequest): Promise<Reply> {
  return json(routeJson(r, await plan(ctx.env, r)));
}

export async function handleMsgs(ctx: RouteContext, r: MsgsRequest): Promise<Reply> {
  const p = await plan(ctx.env, r);
  const route = routeJson(r, p);
  return json({ ...(await msgsFor(p, addressesFor(route, r.addresses), r.timeoutSeconds)), estimated_fees: [] });
}

export async function handleMsgsDirect(ctx: RouteContext, r: MsgsDirectRequest): Promise<Reply> {
  const p = await plan(ctx.env, r);
  const route = routeJson(r, p);
  const addresses = route.required_chain_addresses.map((id) => {
    const a = r.chainIdsToAddresses[id];
    if (!a) throw new InvalidArgumentError(`chain_ids_to_addresses has no address for ${id}`);
    return a;
  });
  // The same chain twice (a bank send) needs a sender and a recipient: the map gives one address per chain.
  if (p.kind !== 'ibc')
    throw new InvalidArgumentError(
      'msgs_direct routes transfers between chains; for a send within one chain use /v2/fungible/msgs with address_list [sender, recipient]',
    );
  return json({ ...(await msgsFor(p, addresses, r.timeoutSeconds)), route, estimated_fees: [] });
}
