/**
 * The mempool's queued-tx caps (geth's accountqueue / globalqueue) seen through the Ethereum
 * JSON-RPC over HTTP: a nonce-gap flood from one account does not lock out another account, nor the
 * tx that fills the gap, on a node that does not mine (manual production keeps every tx pooled).
 */
import { bytesToHex, createPublicClient, http } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEV_ADDRESS_0, DEV_ADDRESS_1, DEV_KEY_0, DEV_KEY_1, signEthTransfer } from '../../src/app/fixtures/signed-txs.js';
import { call, rpc, startEthTestNode, type EthTestNode } from './helpers.js';

describe('a nonce-gap flood over eth_sendRawTransaction', () => {
  let t: EthTestNode;
  beforeAll(async () => {
    t = await startEthTestNode({ config: { consensus: { mode: 'manual' }, mempool: { size: 500 } } });
  });
  afterAll(() => t?.stop());

  it('keeps 64 queued txs of the flooding account, refuses the rest in geth words, and admits everyone else', async () => {
    const answers = new Map<string, number>();
    for (let nonce = 1n; nonce <= 500n; nonce++) {
      const raw = signEthTransfer(DEV_KEY_0, DEV_ADDRESS_1, 1n, { nonce });
      const r = await rpc(t.url, 'eth_sendRawTransaction', [bytesToHex(raw)]);
      const key = r.error ? `${r.error.code} ${r.error.message}` : 'ok';
      answers.set(key, (answers.get(key) ?? 0) + 1);
    }
    expect(Object.fromEntries(answers)).toEqual({ ok: 64, '-32000 account limit exceeded': 436 });
    expect(await call(t.url, 'txpool_status')).toEqual({ pending: '0x0', queued: '0x40' });

    // Another account's tx, through viem, and the flooding account's gap-filler are both admitted.
    const client = createPublicClient({ transport: http(t.url) });
    await client.sendRawTransaction({ serializedTransaction: bytesToHex(signEthTransfer(DEV_KEY_1, DEV_ADDRESS_0, 1n, { nonce: 0n })) });
    await client.sendRawTransaction({ serializedTransaction: bytesToHex(signEthTransfer(DEV_KEY_0, DEV_ADDRESS_1, 1n, { nonce: 0n })) });
    expect(await call(t.url, 'txpool_status')).toEqual({ pending: '0x42', queued: '0x0' });
    expect(await client.getTransactionCount({ address: DEV_ADDRESS_0, blockTag: 'pending' })).toBe(65);
  });
});
