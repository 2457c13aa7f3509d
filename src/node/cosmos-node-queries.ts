/**
 * The Cosmos SDK gRPC queries a node answers from outside the app (as the SDK's gRPC server does with
 * its CometBFT client), routed over ABCI Query like the app's own: `cosmos.tx.v1beta1.Service/GetTx`
 * from the tx index, and `cosmos.base.tendermint.v1beta1.Service/GetNodeInfo` / `GetLatestBlock` /
 * `GetBlockByHeight` from the block store. GetTx answers Cosmos txs; an Ethereum tx is named as one.
 */
import { exactSizeBuffers } from '../codec/cosmjs-types.js';
import { DefaultNodeInfo } from 'cosmjs-types/tendermint/p2p/types';
import { GetBlockByHeightRequest, GetNodeInfoResponse, VersionInfo } from 'cosmjs-types/cosmos/base/tendermint/v1beta1/query';
import { GetTxRequest, GetTxResponse } from 'cosmjs-types/cosmos/tx/v1beta1/service';
import { AuthInfo, TxBody, TxRaw } from 'cosmjs-types/cosmos/tx/v1beta1/tx';
import { QueryError } from '../sdk/errors.js';
import type { QueryRoute } from '../sdk/query-router.js';
import { encodeBlock, encodeBlockID } from '../types/proto.js';
import { bytesField, finish, newWriter } from '../codec/proto-wire.js';
import { time as rfc3339 } from '../codec/json/comet-json.js';
import type { BlockStore } from '../store/block-store.js';
import type { TxIndexer } from '../store/tx-indexer.js';
import { BLOCK_PROTOCOL, COMET_VERSION, P2P_PROTOCOL, VERSION } from '../version.js';

exactSizeBuffers();

export interface NodeQuerySource {
  blockStore: BlockStore;
  txIndexer: TxIndexer | undefined;
  /** Filled once the node knows them. */
  info(): { chainId: string; moniker: string; nodeId: string; rpcAddress: string; appVersion: number };
}

const invalidArgument = (desc: string) => new QueryError(18, 'sdk', `rpc error: code = InvalidArgument desc = ${desc}: invalid request`);
const notFound = (desc: string) => new QueryError(22, 'sdk', `rpc error: code = NotFound desc = ${desc}: key not found`);

function decodeReq<T>(codec: { decode(b: Uint8Array): T }, data: Uint8Array): T {
  try {
    return codec.decode(data);
  } catch (e) {
    throw invalidArgument(`invalid request: ${(e as Error).message}`);
  }
}

async function blockResponse(src: NodeQuerySource, height: number): Promise<Uint8Array> {
  const block = await src.blockStore.loadBlock(height);
  const meta = await src.blockStore.loadBlockMeta(height);
  if (!block || !meta) throw notFound(`block ${height} not found`);
  // GetLatestBlockResponse / GetBlockByHeightResponse: block_id = 1, block = 2 (tendermint.types.Block).
  const w = newWriter();
  bytesField(w, 1, encodeBlockID(meta.blockId));
  bytesField(w, 2, encodeBlock(block));
  return finish(w);
}

export function cosmosNodeQueryRoutes(src: NodeQuerySource): QueryRoute[] {
  return [
    {
      path: '/cosmos.tx.v1beta1.Service/GetTx',
      async handle(_ctx, _state, _args, req) {
        const r = decodeReq(GetTxRequest, req.data);
        if (!/^(0x)?[0-9a-fA-F]{64}$/.test(r.hash)) throw invalidArgument(`invalid tx hash "${r.hash}": expected 64 hex digits`);
        const found = src.txIndexer ? await src.txIndexer.get(Uint8Array.from(Buffer.from(r.hash.replace(/^0x/, ''), 'hex'))) : undefined;
        if (!found) throw notFound(`tx not found: ${r.hash.replace(/^0x/, '').toUpperCase()}`);
        let raw: TxRaw;
        try {
          raw = TxRaw.decode(found.tx);
          if (found.tx[0] !== 0x0a) throw new Error('not a TxRaw');
        } catch {
          throw invalidArgument(`tx ${r.hash.toUpperCase()} is an Ethereum tx: read it with eth_getTransactionByHash`);
        }
        const meta = await src.blockStore.loadBlockMeta(found.height);
        const res = found.result;
        return GetTxResponse.encode({
          tx: { body: TxBody.decode(raw.bodyBytes), authInfo: AuthInfo.decode(raw.authInfoBytes), signatures: raw.signatures },
          txResponse: {
            height: BigInt(found.height),
            txhash: r.hash.replace(/^0x/, '').toUpperCase(),
            codespace: res.codespace,
            code: res.code,
            data: Buffer.from(res.data).toString('hex').toUpperCase(),
            rawLog: res.log,
            logs: [],
            info: res.info,
            gasWanted: BigInt(res.gasWanted),
            gasUsed: BigInt(res.gasUsed),
            tx: { typeUrl: '/cosmos.tx.v1beta1.Tx', value: found.tx },
            timestamp: meta ? rfc3339(meta.header.time) : '',
            events: res.events.map((e) => ({ type: e.type, attributes: e.attributes.map((a) => ({ key: a.key, value: a.value, index: a.index })) })),
          },
        }).finish();
      },
    },
    {
      path: '/cosmos.base.tendermint.v1beta1.Service/GetNodeInfo',
      async handle() {
        const i = src.info();
        const nodeInfo: DefaultNodeInfo = {
          protocolVersion: { p2p: BigInt(P2P_PROTOCOL), block: BigInt(BLOCK_PROTOCOL), app: BigInt(i.appVersion) },
          defaultNodeId: i.nodeId,
          listenAddr: 'tcp://0.0.0.0:26656',
          network: i.chainId,
          version: COMET_VERSION,
          channels: Uint8Array.from([0x40, 0x20, 0x21, 0x22, 0x23, 0x30, 0x38, 0x60, 0x61, 0x00]),
          moniker: i.moniker,
          other: { txIndex: src.txIndexer ? 'on' : 'off', rpcAddress: i.rpcAddress },
        };
        const applicationVersion: VersionInfo = {
          name: 'chainlet',
          appName: 'chainlet',
          version: VERSION,
          gitCommit: '',
          buildTags: '',
          goVersion: `node ${process.versions.node}`,
          buildDeps: [],
          cosmosSdkVersion: '',
        };
        return GetNodeInfoResponse.encode({ defaultNodeInfo: nodeInfo, applicationVersion }).finish();
      },
    },
    {
      path: '/cosmos.base.tendermint.v1beta1.Service/GetLatestBlock',
      handle: () => blockResponse(src, src.blockStore.height()),
    },
    {
      path: '/cosmos.base.tendermint.v1beta1.Service/GetBlockByHeight',
      async handle(_ctx, _state, _args, req) {
        const r = decodeReq(GetBlockByHeightRequest, req.data);
        const latest = src.blockStore.height();
        if (r.height > BigInt(latest)) throw invalidArgument('requested block height is bigger then the chain length');
        return blockResponse(src, Number(r.height));
      },
    },
  ];
}
