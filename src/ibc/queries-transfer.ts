/** ibc.applications.transfer.v1.Query (ICS-20) over ABCI Query (queries.ts), with the pre-v10 DenomTrace(s). */
import { BinaryWriter } from 'cosmjs-types/binary';
import { DenomTrace } from 'cosmjs-types/ibc/applications/transfer/v1/denomtrace';
import {
  QueryDenomHashRequest,
  QueryDenomHashResponse,
  QueryDenomRequest,
  QueryDenomResponse,
  QueryDenomsRequest,
  QueryDenomsResponse,
  QueryEscrowAddressRequest,
  QueryEscrowAddressResponse,
  QueryParamsResponse as TransferParamsResponse,
  QueryTotalEscrowForDenomRequest,
  QueryTotalEscrowForDenomResponse,
} from 'cosmjs-types/ibc/applications/transfer/v1/query';
import { toBech32 } from '../crypto/bech32.js';
import type { QueryRoute } from '../sdk/query-router.js';
import { denomHashHex, denomPath, escrowAddress, hostKeys, parseDenomPath, type Denom } from './keys.js';
import { decodeReq, route, text } from './query-common.js';
import { invalidArgument, notFound, paginate, under, validate, type IbcStoreView } from './query-view.js';

async function denomOf(view: IbcStoreView, hash: string): Promise<Denom | undefined> {
  const raw = await view.get(hostKeys.denom(hash.replace(/^ibc\//i, '').toUpperCase()));
  return raw ? (JSON.parse(text.decode(raw)) as Denom) : undefined;
}

function legacyTrace(d: Denom): DenomTrace {
  return { path: d.trace.map((h) => `${h.portId}/${h.channelId}`).join('/'), baseDenom: d.base };
}

export const TRANSFER_QUERY_ROUTES: readonly QueryRoute[] = [
  route('/ibc.applications.transfer.v1.Query/Params', async () =>
    TransferParamsResponse.encode({ params: { sendEnabled: true, receiveEnabled: true } }).finish(),
  ),
  route('/ibc.applications.transfer.v1.Query/Denom', async (q, data) => {
    const req = decodeReq(QueryDenomRequest, data);
    const d = await denomOf(q.view, req.hash);
    if (!d) throw notFound(`denomination for hash ${req.hash} not found`);
    return QueryDenomResponse.encode({ denom: d }).finish();
  }),
  route('/ibc.applications.transfer.v1.Query/Denoms', async (q, data) => {
    const req = decodeReq(QueryDenomsRequest, data);
    const entries = (await under(q.view, 'transfer/denoms/')).map(([k, v]): [string, Denom] => [k, JSON.parse(text.decode(v)) as Denom]);
    const { items, pagination } = paginate(entries, req.pagination);
    return QueryDenomsResponse.encode({ denoms: items, pagination }).finish();
  }),
  route('/ibc.applications.transfer.v1.Query/DenomHash', async (q, data) => {
    const req = decodeReq(QueryDenomHashRequest, data);
    const d = parseDenomPath(req.trace);
    if (d.trace.length === 0) throw invalidArgument(`invalid denom trace: ${req.trace}`);
    const hash = denomHashHex(denomPath(d));
    if ((await q.view.get(hostKeys.denom(hash))) === undefined) throw notFound(`denomination not found for ${req.trace}`);
    return QueryDenomHashResponse.encode({ hash }).finish();
  }),
  route('/ibc.applications.transfer.v1.Query/EscrowAddress', async (q, data) => {
    const req = decodeReq(QueryEscrowAddressRequest, data);
    validate.portChannel(req.portId, req.channelId);
    return QueryEscrowAddressResponse.encode({ escrowAddress: toBech32(q.bech32Prefix, escrowAddress(req.portId, req.channelId)) }).finish();
  }),
  route('/ibc.applications.transfer.v1.Query/TotalEscrowForDenom', async (q, data) => {
    const req = decodeReq(QueryTotalEscrowForDenomRequest, data);
    const v = await q.view.get(hostKeys.totalEscrow(req.denom));
    return QueryTotalEscrowForDenomResponse.encode({ amount: { denom: req.denom, amount: v ? text.decode(v) : '0' } }).finish();
  }),
  // ibc-go ≤ v8's DenomTrace queries (older clients still ask): {path, base_denom}.
  route('/ibc.applications.transfer.v1.Query/DenomTrace', async (q, data) => {
    const req = decodeReq(QueryDenomRequest, data); // same shape: hash = 1
    const d = await denomOf(q.view, req.hash);
    if (!d) throw notFound(`denomination trace for hash ${req.hash} not found`);
    const w = new BinaryWriter();
    DenomTrace.encode(legacyTrace(d), w.uint32(10).fork()).ldelim();
    return w.finish();
  }),
  route('/ibc.applications.transfer.v1.Query/DenomTraces', async (q, data) => {
    const req = decodeReq(QueryDenomsRequest, data); // same shape: pagination = 1
    const entries = (await under(q.view, 'transfer/denoms/')).map(([k, v]): [string, Denom] => [k, JSON.parse(text.decode(v)) as Denom]);
    const { items, pagination } = paginate(entries, req.pagination);
    const w = new BinaryWriter();
    for (const d of items) DenomTrace.encode(legacyTrace(d), w.uint32(10).fork()).ldelim();
    w.uint32(18).fork();
    if (pagination.nextKey.length > 0) w.uint32(10).bytes(pagination.nextKey);
    if (pagination.total > 0n) w.uint32(16).uint64(pagination.total);
    w.ldelim();
    return w.finish();
  }),
];
