/**
 * `tx_result.data` of an Ethereum tx as Cosmos EVM writes it: a `cosmos.base.abci.v1beta1.TxMsgData`
 * (from cosmjs-types, generated from the SDK's protos) whose one `msg_responses` entry is an Any of
 * `/cosmos.evm.vm.v1.MsgEthereumTxResponse`. cosmjs decodes `data` as TxMsgData in getTx/searchTx.
 *
 * The two cosmos/evm messages are declared below with the names, types and field numbers of
 * cosmos/evm's proto/cosmos/evm/vm/v1/{tx,evm}.proto (no npm package ships them) and encoded by
 * protobufjs from that declaration.
 */
import { createRequire } from 'node:module';
import { lazyCosmjs } from '../cosmjs-types.js';
import type * as Protobuf from 'protobufjs';

export const MSG_ETHEREUM_TX_RESPONSE_TYPE_URL = '/cosmos.evm.vm.v1.MsgEthereumTxResponse';

/** The two messages as cosmos/evm's proto/cosmos/evm/vm/v1/{tx,evm}.proto declare them. */
export const MSG_ETHEREUM_TX_RESPONSE_PROTO = `
syntax = "proto3";
package cosmos.evm.vm.v1;
message Log {
  string address = 1;
  repeated string topics = 2;
  bytes data = 3;
  uint64 block_number = 4;
  string tx_hash = 5;
  uint64 tx_index = 6;
  string block_hash = 7;
  uint64 index = 8;
  bool removed = 9;
}
message MsgEthereumTxResponse {
  string hash = 1;
  repeated Log logs = 2;
  bytes ret = 3;
  string vm_error = 4;
  uint64 gas_used = 5;
  uint64 max_used_gas = 6;
  bytes block_hash = 7;
  uint64 block_timestamp = 8;
}
`;

// TxMsgData (and the ABCI types it imports) loads with the first result, as the parser below.
const abciV1beta1 = lazyCosmjs<typeof import('cosmjs-types/cosmos/base/abci/v1beta1/abci')>('cosmos/base/abci/v1beta1/abci');

let parsedResponseType: Protobuf.Type | undefined;

/**
 * The message type, parsed on first use: the full protobufjs (with its .proto parser) costs ≈ 35 ms
 * to load, which a start before its first Ethereum tx does not need.
 */
function responseType(): Protobuf.Type {
  if (parsedResponseType === undefined) {
    const protobuf = createRequire(import.meta.url)('protobufjs') as typeof Protobuf;
    parsedResponseType = protobuf.parse(MSG_ETHEREUM_TX_RESPONSE_PROTO, { keepCase: true }).root.lookupType('cosmos.evm.vm.v1.MsgEthereumTxResponse');
  }
  return parsedResponseType;
}

export interface EthLogProto {
  /** 0x hex address. */
  address: string;
  topics: string[];
  data: Uint8Array;
  blockNumber: bigint;
  txHash: string;
  txIndex: number;
  blockHash: string;
  index: number;
}

export interface MsgEthereumTxResponse {
  /** 0x hex EVM tx hash. */
  hash: string;
  logs: EthLogProto[];
  ret: Uint8Array;
  /** Empty when the EVM execution succeeded. */
  vmError: string;
  gasUsed: bigint;
  maxUsedGas: bigint;
  blockHash: Uint8Array;
  blockTimestamp: bigint;
}

// Every uint64 here (gas, heights, indices, seconds) is far below 2^53.
const u64 = (v: bigint | number): number => Number(v);

export function encodeMsgEthereumTxResponse(r: MsgEthereumTxResponse): Uint8Array {
  // The object already has the message's field names and wire types (numbers, strings, bytes),
  // so it goes to the generated encoder as is: `fromObject` would only copy it (≈ 40 µs a tx).
  return responseType()
    .encode({
      hash: r.hash,
      logs: r.logs.map((l) => ({
        address: l.address,
        topics: l.topics,
        data: l.data,
        block_number: u64(l.blockNumber),
        tx_hash: l.txHash,
        tx_index: u64(l.txIndex),
        block_hash: l.blockHash,
        index: u64(l.index),
        removed: false,
      })),
      ret: r.ret,
      vm_error: r.vmError,
      gas_used: u64(r.gasUsed),
      max_used_gas: u64(r.maxUsedGas),
      block_hash: r.blockHash,
      block_timestamp: u64(r.blockTimestamp),
    })
    .finish();
}

export function decodeMsgEthereumTxResponse(bytes: Uint8Array): MsgEthereumTxResponse {
  const type = responseType();
  const o = type.toObject(type.decode(bytes), { longs: String, bytes: Array, defaults: true }) as Record<string, unknown>;
  const logs = o['logs'] as Record<string, unknown>[];
  return {
    hash: o['hash'] as string,
    logs: logs.map((l) => ({
      address: l['address'] as string,
      topics: l['topics'] as string[],
      data: Uint8Array.from(l['data'] as number[]),
      blockNumber: BigInt(l['block_number'] as string),
      txHash: l['tx_hash'] as string,
      txIndex: Number(l['tx_index']),
      blockHash: l['block_hash'] as string,
      index: Number(l['index']),
    })),
    ret: Uint8Array.from(o['ret'] as number[]),
    vmError: o['vm_error'] as string,
    gasUsed: BigInt(o['gas_used'] as string),
    maxUsedGas: BigInt(o['max_used_gas'] as string),
    blockHash: Uint8Array.from(o['block_hash'] as number[]),
    blockTimestamp: BigInt(o['block_timestamp'] as string),
  };
}

/** The `tx_result.data` bytes of an Ethereum tx: TxMsgData { msg_responses: [Any(MsgEthereumTxResponse)] }. */
export function ethereumTxResultData(r: MsgEthereumTxResponse): Uint8Array {
  return abciV1beta1().TxMsgData.encode({ data: [], msgResponses: [{ typeUrl: MSG_ETHEREUM_TX_RESPONSE_TYPE_URL, value: encodeMsgEthereumTxResponse(r) }] }).finish();
}
