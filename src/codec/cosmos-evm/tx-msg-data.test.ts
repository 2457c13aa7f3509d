import { TxMsgData } from 'cosmjs-types/cosmos/base/abci/v1beta1/abci';
import { describe, expect, it } from 'vitest';
import Long from 'long';
import protobuf from 'protobufjs/minimal.js';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { decodeMsgEthereumTxResponse, ethereumTxResultData, MSG_ETHEREUM_TX_RESPONSE_TYPE_URL, type MsgEthereumTxResponse } from './tx-msg-data.js';

const root = fileURLToPath(new URL('../../..', import.meta.url));

const response: MsgEthereumTxResponse = {
  hash: `0x${'ab'.repeat(32)}`,
  logs: [],
  ret: new Uint8Array(0),
  vmError: '',
  gasUsed: 21000n,
  maxUsedGas: 21000n,
  blockHash: new Uint8Array(32).fill(7),
  blockTimestamp: 1_764_000_000n,
};

describe('tx_result.data of an Ethereum tx', () => {
  it('is a TxMsgData with one MsgEthereumTxResponse, as cosmjs decodes it', () => {
    const data = ethereumTxResultData(response);
    const msg = TxMsgData.decode(data);
    expect(msg.msgResponses).toHaveLength(1);
    expect(msg.msgResponses[0]!.typeUrl).toBe(MSG_ETHEREUM_TX_RESPONSE_TYPE_URL);
    expect(decodeMsgEthereumTxResponse(msg.msgResponses[0]!.value)).toEqual(response);
  });

  it('encodes what protobufjs reflection makes of the .proto declaration, logs included', async () => {
    const protobuf = (await import('protobufjs')).default;
    const withLogs: MsgEthereumTxResponse = {
      ...response,
      ret: new Uint8Array([1, 2, 3]),
      vmError: 'execution reverted',
      logs: [0, 1].map((i) => ({
        address: `0x${'cd'.repeat(20)}`,
        topics: [`0x${'01'.repeat(32)}`, `0x${'02'.repeat(32)}`],
        data: new Uint8Array([i, 9]),
        blockNumber: 7n,
        txHash: `0x${'ab'.repeat(32)}`,
        txIndex: 3,
        blockHash: `0x${'07'.repeat(32)}`,
        index: i,
      })),
    };
    const data = ethereumTxResultData(withLogs);
    const value = TxMsgData.decode(data).msgResponses[0]!.value;
    expect(decodeMsgEthereumTxResponse(value)).toEqual(withLogs);
    // The reference: the .proto file itself, loaded by the full protobufjs (reflection, fromObject).
    const text = readFileSync(`${root}/proto/cosmos/evm/vm/v1/tx.proto`, 'utf8');
    const type = protobuf.parse(text, { keepCase: true }).root.lookupType('cosmos.evm.vm.v1.MsgEthereumTxResponse');
    const snake = {
      hash: withLogs.hash,
      logs: withLogs.logs.map((l) => ({
        address: l.address,
        topics: l.topics,
        data: l.data,
        block_number: Number(l.blockNumber),
        tx_hash: l.txHash,
        tx_index: l.txIndex,
        block_hash: l.blockHash,
        index: l.index,
        removed: false,
      })),
      ret: withLogs.ret,
      vm_error: withLogs.vmError,
      gas_used: Number(withLogs.gasUsed),
      max_used_gas: Number(withLogs.maxUsedGas),
      block_hash: withLogs.blockHash,
      block_timestamp: Number(withLogs.blockTimestamp),
    };
    const reference = type.encode(type.fromObject(snake)).finish();
    expect(Buffer.from(value).equals(Buffer.from(reference))).toBe(true);
  });

  it('comes from a codec generated from proto/cosmos/evm/vm/v1/tx.proto as it is now', () => {
    execFileSync(process.execPath, [`${root}/scripts/gen-proto.mjs`, '--check'], { cwd: root, stdio: 'pipe' });
  });

  it('owns a buffer of its own size (cosmjs-types would hand out a view of a fresh 8 KiB slab)', () => {
    const data = ethereumTxResultData(response);
    expect(data.byteOffset).toBe(0);
    expect(data.buffer.byteLength).toBe(data.length);
    const plain = TxMsgData.encode({ data: [], msgResponses: [] }).finish();
    expect(plain.buffer.byteLength).toBe(plain.length);
  });

  it('decodes 64-bit fields exactly (protobufjs is given Long by proto-wire.ts, not left to find it)', () => {
    expect(protobuf.util.Long).toBe(Long);
    const big = 2n ** 60n + 1n;
    const w = protobuf.Writer.create();
    w.uint32((5 << 3) | 0).uint64(Long.fromString(big.toString(), true));
    expect(decodeMsgEthereumTxResponse(w.finish()).gasUsed).toBe(big);
  });
});
