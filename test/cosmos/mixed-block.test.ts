/**
 * Cosmos txs share the mempool and blocks with EVM txs: a mixed block carries both, CometBFT's
 * block and results list both, the EVM JSON-RPC shows only the EVM tx (as Cosmos EVM does); the
 * routing API submits a Cosmos TxRaw for the Cosmos chain id and follows it to success.
 */
import { DirectEthSecp256k1HdWallet } from '@cosmjs/proto-signing';
import { SigningStargateClient } from '@cosmjs/stargate';
import { TxRaw } from 'cosmjs-types/cosmos/tx/v1beta1/tx';
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEV_KEY_1, signEthTransfer } from '../../src/app/fixtures/signed-txs.js';
import { toBech32 } from '../../src/crypto/bech32.js';
import { DEV_MNEMONIC } from '../../src/genesis/dev-accounts.js';
import { createEip1193Provider } from '../../src/node/rpc-eth.js';
import type { ChainletNode } from '../../src/node/node.js';
import { startTestNode } from '../helpers/node.js';

const DENOM = 'achainlet';
const fee = { amount: [{ denom: DENOM, amount: String(2_000_000_000n * 200_000n) }], gas: '200000' };
let node: ChainletNode;

beforeAll(async () => {
  node = await startTestNode({ config: { consensus: { mode: 'manual' }, routing: { rateLimitBurst: 10_000, rateLimitPerSecond: 10_000 } } });
});
afterAll(async () => {
  await node?.stop();
});

async function signedSend(amount: string, to: string): Promise<Uint8Array> {
  const wallet = await DirectEthSecp256k1HdWallet.fromMnemonic(DEV_MNEMONIC, { prefix: 'chainlet' });
  const [from] = await wallet.getAccounts();
  const client = await SigningStargateClient.connectWithSigner(node.urls.rpc!, wallet);
  const signed = await client.sign(
    from!.address,
    [{ typeUrl: '/cosmos.bank.v1beta1.MsgSend', value: { fromAddress: from!.address, toAddress: to, amount: [{ denom: DENOM, amount }] } }],
    fee,
    '',
  );
  client.disconnect();
  return TxRaw.encode(signed).finish();
}

describe('a block of EVM and Cosmos txs', () => {
  it('carries both; the EVM face lists only the EVM tx', async () => {
    const eth = createEip1193Provider(node);
    try {
      const sub = node.subscribe("tm.event='Tx' AND message.action='/cosmos.bank.v1beta1.MsgSend'");
      const cosmosTx = await signedSend('777', toBech32('chainlet', new Uint8Array(20).fill(0x42)));
      const ethTx = signEthTransfer(DEV_KEY_1, '0x' + '43'.repeat(20), 5n, { nonce: 0n });
      expect((await node.broadcastTx(cosmosTx)).code).toBe(0);
      expect((await node.broadcastTx(ethTx)).code).toBe(0);
      const [height] = await node.mine(1);
      const r = await fetch(`${node.urls.rpc}/block_results?height=${height}`);
      const results = ((await r.json()) as { result: { txs_results: { code: number }[] } }).result.txs_results;
      expect(results.map((x) => x.code)).toEqual([0, 0]);
      // A subscription on the SDK's events gets the Cosmos tx (and not the EVM one).
      const msg = await sub.next();
      expect(msg?.events['transfer.recipient']).toContain(toBech32('chainlet', new Uint8Array(20).fill(0x42)));
      expect(sub.buffered).toBe(0);
      sub.cancel('done');
      const block = (await eth.request({ method: 'eth_getBlockByNumber', params: [`0x${height!.toString(16)}`, false] })) as { transactions: string[] };
      expect(block.transactions).toHaveLength(1);
      expect(BigInt((await eth.request({ method: 'eth_getBalance', params: ['0x' + '42'.repeat(20), 'latest'] })) as string)).toBe(777n);
      expect(BigInt((await eth.request({ method: 'eth_getBalance', params: ['0x' + '43'.repeat(20), 'latest'] })) as string)).toBe(5n);
    } finally {
      eth.close();
    }
  });

  it('the routing API submits a Cosmos TxRaw for the Cosmos chain id and reports its success', async () => {
    const tx = await signedSend('9', toBech32('chainlet', new Uint8Array(20).fill(0x44)));
    const submit = await fetch(`${node.urls.routing}/v2/tx/submit`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ chain_id: node.chainId, tx: Buffer.from(tx).toString('base64') }),
    });
    expect(submit.status).toBe(200);
    const { tx_hash } = (await submit.json()) as { tx_hash: string };
    expect(tx_hash).toBe(createHash('sha256').update(tx).digest('hex').toUpperCase());
    await node.mine(1);
    let state = '';
    for (let i = 0; i < 100 && state !== 'STATE_COMPLETED_SUCCESS'; i++) {
      const s = await fetch(`${node.urls.routing}/v2/tx/status?chain_id=${node.chainId}&tx_hash=${tx_hash}`);
      state = ((await s.json()) as { state: string }).state;
      if (state !== 'STATE_COMPLETED_SUCCESS') await new Promise((r) => setTimeout(r, 20));
    }
    expect(state).toBe('STATE_COMPLETED_SUCCESS');
  });
});
