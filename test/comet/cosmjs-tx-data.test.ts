/**
 * `tx_result.data` of Ethereum txs as Cosmos EVM writes it (TxMsgData with a MsgEthereumTxResponse),
 * read back by cosmjs StargateClient getTx / searchTx, which decode `data` as TxMsgData and used to
 * throw on raw EVM return data.
 */
import { StargateClient } from '@cosmjs/stargate';
import { Comet38Client } from '@cosmjs/tendermint-rpc';
import { AuthInfo, TxBody, TxRaw } from 'cosmjs-types/cosmos/tx/v1beta1/tx';
import { createContractAddress, createAddressFromString } from '@ethereumjs/util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEV_ADDRESS_0, DEV_ADDRESS_1, DEV_KEY_0, signErc20Deploy, signErc20Transfer } from '../../src/app/fixtures/signed-txs.js';
import { decodeMsgEthereumTxResponse, MSG_ETHEREUM_TX_RESPONSE_TYPE_URL } from '../../src/codec/cosmos-evm/tx-msg-data.js';
import { toHexUpper } from '../../src/crypto/encoding.js';
import { sha256 } from '../../src/crypto/hash.js';
import type { ChainletNode } from '../../src/node/node.js';
import { startTestNode } from '../helpers/node.js';

let node: ChainletNode;
let client: StargateClient;
const token = createContractAddress(createAddressFromString(DEV_ADDRESS_0), 0n).toString();
const deploy = signErc20Deploy(DEV_KEY_0, 1000n, { nonce: 0n });
const transfer = signErc20Transfer(DEV_KEY_0, token, DEV_ADDRESS_1, 7n, { nonce: 1n });

beforeAll(async () => {
  node = await startTestNode({ config: { consensus: { mode: 'manual' } } });
  for (const tx of [deploy, transfer]) expect((await node.broadcastTx(tx)).code).toBe(0);
  await node.mine(1);
  client = await StargateClient.connect(node.urls.rpc!);
});
afterAll(async () => {
  client?.disconnect();
  await node?.stop();
});

const responseOf = (msgResponses: readonly { typeUrl: string; value: Uint8Array }[]) => {
  expect(msgResponses).toHaveLength(1);
  expect(msgResponses[0]!.typeUrl).toBe(MSG_ETHEREUM_TX_RESPONSE_TYPE_URL);
  return decodeMsgEthereumTxResponse(msgResponses[0]!.value);
};

describe('a Cosmos tx sent to the EVM chain', () => {
  it('broadcast_tx_sync decodes a Cosmos TxRaw and answers the SDK’s error for one without messages', async () => {
    const comet = await Comet38Client.connect(node.urls.rpc!);
    try {
      const body = TxBody.encode(TxBody.fromPartial({ memo: 'from cosmjs' })).finish();
      const authInfo = AuthInfo.encode(AuthInfo.fromPartial({ fee: { gasLimit: 200_000n } })).finish();
      const tx = TxRaw.encode({ bodyBytes: body, authInfoBytes: authInfo, signatures: [new Uint8Array(64).fill(1)] }).finish();
      const r = await comet.broadcastTxSync({ tx });
      expect(r.code).toBe(18);
      expect(r.codespace).toBe('sdk');
      expect(r.log).toBe('must contain at least one message: invalid request');
    } finally {
      comet.disconnect();
    }
  });
});

describe('tx_result.data read by cosmjs', () => {
  it('getTx of a deployment: the runtime code as ret, the EVM hash, gas used', async () => {
    const tx = await client.getTx(toHexUpper(sha256(deploy)));
    expect(tx).not.toBeNull();
    expect(tx!.code).toBe(0);
    const r = responseOf(tx!.msgResponses);
    const code = await (await node.internals.app.evm.stateAt(node.height)).getCode(createAddressFromString(token));
    expect(Buffer.from(r.ret).toString('hex')).toBe(Buffer.from(code).toString('hex'));
    expect(r.vmError).toBe('');
    expect(r.gasUsed).toBe(tx!.gasUsed);
    expect(r.hash).toMatch(/^0x[0-9a-f]{64}$/);
    expect(r.logs.length).toBeGreaterThan(0); // the mint's Transfer event
  });

  it('searchTx by height: the transfer call returns true and its Transfer log', async () => {
    const txs = await client.searchTx(`tx.height=${node.height}`);
    expect(txs).toHaveLength(2);
    const r = responseOf(txs[1]!.msgResponses);
    expect(r.ret[31]).toBe(1);
    expect(r.logs).toHaveLength(1);
    expect(r.logs[0]!.address.toLowerCase()).toBe(token);
    expect(r.logs[0]!.txIndex).toBe(1);
    expect(r.logs[0]!.blockNumber).toBe(BigInt(node.height));
  });
});
