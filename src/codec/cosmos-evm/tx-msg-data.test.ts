import { TxMsgData } from 'cosmjs-types/cosmos/base/abci/v1beta1/abci';
import { describe, expect, it } from 'vitest';
import { decodeMsgEthereumTxResponse, ethereumTxResultData, MSG_ETHEREUM_TX_RESPONSE_TYPE_URL, type MsgEthereumTxResponse } from './tx-msg-data.js';

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

  it('owns a buffer of its own size (cosmjs-types would hand out a view of a fresh 8 KiB slab)', () => {
    const data = ethereumTxResultData(response);
    expect(data.byteOffset).toBe(0);
    expect(data.buffer.byteLength).toBe(data.length);
    const plain = TxMsgData.encode({ data: [], msgResponses: [] }).finish();
    expect(plain.buffer.byteLength).toBe(plain.length);
  });
});
