/**
 * `tx_result.data` of an Ethereum tx as Cosmos EVM writes it: a `cosmos.base.abci.v1beta1.TxMsgData`
 * whose one `msg_responses` entry is an Any of `/cosmos.evm.vm.v1.MsgEthereumTxResponse`. cosmjs
 * decodes `data` as TxMsgData in getTx/searchTx.
 *
 * The messages are declared in proto/ with the names, types and field numbers of cosmos/evm's
 * protos (no npm package ships them) and of the SDK's abci.proto; their codec is generated from
 * there (`tx-data.generated.ts`, `npm run proto`), so the first tx neither parses a .proto nor
 * loads cosmjs-types.
 */
// First: the protobufjs runtime with Long configured (protobuf-runtime.ts), then the generated codec on it.
import '../protobuf-runtime.js';
import { cosmos } from './tx-data.generated.js';

export const MSG_ETHEREUM_TX_RESPONSE_TYPE_URL = '/cosmos.evm.vm.v1.MsgEthereumTxResponse';

/** A uint64 as the generated decoder hands it out: a number, or a protobufjs Long. */
type Uint64 = number | { toString(): string };

interface WireLog {
  address?: string;
  topics?: string[];
  data?: Uint8Array;
  block_number?: Uint64;
  tx_hash?: string;
  tx_index?: Uint64;
  block_hash?: string;
  index?: Uint64;
  removed?: boolean;
}

interface WireResponse {
  hash?: string;
  logs?: WireLog[];
  ret?: Uint8Array;
  vm_error?: string;
  gas_used?: Uint64;
  max_used_gas?: Uint64;
  block_hash?: Uint8Array;
  block_timestamp?: Uint64;
}

interface Codec<T> {
  encode(m: T): { finish(): Uint8Array };
  decode(b: Uint8Array): T;
}

interface WireTxMsgData {
  msg_responses: { type_url: string; value: Uint8Array }[];
}

const generated = cosmos as unknown as {
  evm: { vm: { v1: { MsgEthereumTxResponse: Codec<WireResponse> } } };
  base: { abci: { v1beta1: { TxMsgData: Codec<WireTxMsgData> } } };
};
const ResponseCodec = generated.evm.vm.v1.MsgEthereumTxResponse;
const TxMsgDataCodec = generated.base.abci.v1beta1.TxMsgData;

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
  return ResponseCodec.encode({
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
  }).finish();
}

const big = (v: Uint64 | undefined): bigint => (v === undefined ? 0n : BigInt(typeof v === 'number' ? v : v.toString()));
const bytes = (b: Uint8Array | undefined): Uint8Array => (b === undefined ? new Uint8Array(0) : new Uint8Array(b));

export function decodeMsgEthereumTxResponse(data: Uint8Array): MsgEthereumTxResponse {
  const o = ResponseCodec.decode(data);
  return {
    hash: o.hash ?? '',
    logs: (o.logs ?? []).map((l) => ({
      address: l.address ?? '',
      topics: l.topics ?? [],
      data: bytes(l.data),
      blockNumber: big(l.block_number),
      txHash: l.tx_hash ?? '',
      txIndex: Number(big(l.tx_index)),
      blockHash: l.block_hash ?? '',
      index: Number(big(l.index)),
    })),
    ret: bytes(o.ret),
    vmError: o.vm_error ?? '',
    gasUsed: big(o.gas_used),
    maxUsedGas: big(o.max_used_gas),
    blockHash: bytes(o.block_hash),
    blockTimestamp: big(o.block_timestamp),
  };
}

/** The `tx_result.data` bytes of an Ethereum tx: TxMsgData { msg_responses: [Any(MsgEthereumTxResponse)] }. */
export function ethereumTxResultData(r: MsgEthereumTxResponse): Uint8Array {
  // Into a buffer of its own size: the writer's pooled view would keep an 8 KiB slab alive per result.
  return new Uint8Array(
    TxMsgDataCodec.encode({ msg_responses: [{ type_url: MSG_ETHEREUM_TX_RESPONSE_TYPE_URL, value: encodeMsgEthereumTxResponse(r) }] }).finish(),
  );
}
