import { describe, expect, it } from 'vitest';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { Mainnet, createCustomCommon } from '@ethereumjs/common';
import { createFeeMarket1559Tx, createLegacyTx } from '@ethereumjs/tx';
import { Address } from '@ethereumjs/util';
import { CheckTxType } from '../../abci/types.js';
import { DEV_ADDRESS_0, DEV_KEY_0, keyBytes, signEthTransfer, signTx } from '../fixtures/signed-txs.js';
import { startTestChain } from '../fixtures/test-chain.js';
import { AuthInfo, TxBody, TxRaw } from 'cosmjs-types/cosmos/tx/v1beta1/tx';

const TO = '0x000000000000000000000000000000000000beef';

describe('CheckTx', () => {
  it('admits a valid tx and fills the mempool fields', async () => {
    const chain = await startTestChain();
    const tx = signEthTransfer(DEV_KEY_0, TO, 5n, { nonce: 0n, maxFeePerGas: 3_000_000_000n, maxPriorityFeePerGas: 500_000_000n, gasLimit: 30_000n });
    const res = await chain.check(tx);
    expect(res).toMatchObject({ code: 0, codespace: '', log: '', gasWanted: 30_000, sender: DEV_ADDRESS_0, nonce: 0n, senderStateNonce: 0n });
    expect(res.maxFeePerGas).toBe(3_000_000_000n);
    expect(res.priority).toBe(500_000_000n); // min(tip, maxFee - baseFee)
    expect(res.ethHash).toEqual(keccak_256(tx));

    const capped = await chain.check(signEthTransfer(DEV_KEY_0, TO, 5n, { nonce: 1n, maxFeePerGas: 1_200_000_000n, maxPriorityFeePerGas: 900_000_000n }));
    expect(capped.priority).toBe(200_000_000n);
    const legacy = await chain.check(signEthTransfer(DEV_KEY_0, TO, 5n, { nonce: 2n, type: 0, maxFeePerGas: 1_500_000_000n }));
    expect(legacy.code).toBe(0);
    expect(legacy.priority).toBe(500_000_000n);
  });

  it('admits future nonces (the mempool queues them) and refuses used ones, on recheck too', async () => {
    const chain = await startTestChain();
    const future = await chain.check(signEthTransfer(DEV_KEY_0, TO, 1n, { nonce: 3n }));
    expect(future.code).toBe(0);
    expect(future.nonce).toBe(3n);
    expect(future.senderStateNonce).toBe(0n);

    const first = signEthTransfer(DEV_KEY_0, TO, 1n, { nonce: 0n });
    expect((await chain.check(first)).code).toBe(0);
    await chain.block([first]);
    const again = await chain.check(first, CheckTxType.Recheck);
    expect(again).toMatchObject({ code: 3, codespace: 'sdk', log: 'invalid nonce; got 0, expected 1: invalid sequence' });
    expect((await chain.check(signEthTransfer(DEV_KEY_0, TO, 1n, { nonce: 1n }))).senderStateNonce).toBe(1n);
  });

  it('refuses a tx the sender cannot pay for', async () => {
    const chain = await startTestChain({ alloc: { [DEV_ADDRESS_0]: { balance: '21000000000000' } } });
    const res = await chain.check(signEthTransfer(DEV_KEY_0, TO, 1n, { nonce: 0n, maxFeePerGas: 1_000_000_000n }));
    expect(res).toMatchObject({
      code: 5,
      codespace: 'sdk',
      log: 'insufficient funds for gas * price + value: have 21000000000000 want 21000000000001',
    });
  });

  it('refuses gas limits below the intrinsic gas or above the block max gas', async () => {
    const chain = await startTestChain({ maxGas: 100_000 });
    const low = await chain.check(signEthTransfer(DEV_KEY_0, TO, 1n, { nonce: 0n, gasLimit: 20_000n }));
    expect(low).toMatchObject({ code: 11, codespace: 'sdk', log: 'intrinsic gas too low: have 20000, want 21000' });
    const high = await chain.check(signEthTransfer(DEV_KEY_0, TO, 1n, { nonce: 0n, gasLimit: 200_000n }));
    expect(high).toMatchObject({ code: 16, codespace: 'evm', log: 'tx gas limit 200000 exceeds block max gas 100000' });
  });

  it('refuses fees below the min gas price and below the base fee', async () => {
    const chain = await startTestChain({ minGasPrice: 5_000_000_000n });
    const cheap = await chain.check(signEthTransfer(DEV_KEY_0, TO, 1n, { nonce: 0n, maxFeePerGas: 2_000_000_000n, maxPriorityFeePerGas: 1n }));
    expect(cheap.code).toBe(13);
    expect(cheap.log).toBe('max fee per gas less than min gas price (2000000000 < 5000000000): insufficient fee');
    // The base fee starts at the min gas price when that is higher than initial_base_fee.
    expect(chain.app.evm.nextBaseFee()).toBe(5_000_000_000n);

    const chain2 = await startTestChain();
    const under = await chain2.check(signEthTransfer(DEV_KEY_0, TO, 1n, { nonce: 0n, maxFeePerGas: 500_000_000n, maxPriorityFeePerGas: 1n }));
    expect(under).toMatchObject({ code: 13, log: 'max fee per gas less than block base fee (500000000 < 1000000000): insufficient fee' });
  });

  it('refuses another chain id, unprotected legacy txs (unless allowed) and bad signatures', async () => {
    const chain = await startTestChain();
    const other = await chain.check(signEthTransfer(DEV_KEY_0, TO, 1n, { nonce: 0n, chainId: 1n }));
    expect(other.code).toBe(28);
    expect(other.log).toContain('invalid chain id');
    const otherLegacy = await chain.check(signEthTransfer(DEV_KEY_0, TO, 1n, { nonce: 0n, chainId: 1n, type: 0 }));
    expect(otherLegacy.code).toBe(28);

    const homestead = createCustomCommon({ chainId: 9000 }, Mainnet, { hardfork: 'homestead' });
    const unprotected = createLegacyTx(
      { nonce: 0n, gasPrice: 2_000_000_000n, gasLimit: 21_000n, to: new Address(Buffer.from(TO.slice(2), 'hex')), value: 1n },
      { common: homestead },
    )
      .sign(keyBytes(DEV_KEY_0))
      .serialize();
    const refused = await chain.check(unprotected);
    expect(refused).toMatchObject({ code: 37, codespace: 'sdk' });
    expect(refused.log).toContain('only replay-protected (EIP-155) transactions allowed');
    const lenient = await startTestChain({ allowUnprotectedTxs: true });
    expect(await lenient.check(unprotected)).toMatchObject({ code: 0, sender: DEV_ADDRESS_0 });

    const common = createCustomCommon({ chainId: 9000 }, Mainnet, { hardfork: 'prague' });
    const forged = createFeeMarket1559Tx(
      { chainId: 9000n, nonce: 0n, gasLimit: 21_000n, maxFeePerGas: 2_000_000_000n, maxPriorityFeePerGas: 1n, v: 0n, r: 0n, s: 1n },
      { common },
    ).serialize();
    const bad = await chain.check(forged);
    expect(bad.code).toBe(4);
    expect(bad.log).toMatch(/invalid transaction signature.*: unauthorized$/);
  });

  it('refuses undecodable bytes and unsupported tx types', async () => {
    const chain = await startTestChain();
    expect(await chain.check(new Uint8Array([0xc0]))).toMatchObject({ code: 2, codespace: 'sdk' });
    expect(await chain.check(new Uint8Array(0))).toMatchObject({ code: 2, log: 'empty tx: tx parse error' });
    const blob = await chain.check(new Uint8Array([3, 0xc0]));
    expect(blob).toMatchObject({ code: 2, log: 'transaction type 3 not supported: tx parse error' });
  });

  it('decodes a Cosmos TxRaw as one (the Cosmos face) and refuses one without messages as the SDK does', async () => {
    const chain = await startTestChain();
    const body = TxBody.encode(TxBody.fromPartial({ memo: 'hello' })).finish();
    const authInfo = AuthInfo.encode(AuthInfo.fromPartial({ fee: { gasLimit: 200_000n } })).finish();
    const raw = TxRaw.encode({ bodyBytes: body, authInfoBytes: authInfo, signatures: [new Uint8Array(64).fill(7)] }).finish();
    const r = await chain.check(raw);
    expect(r).toMatchObject({ code: 18, codespace: 'sdk', log: 'must contain at least one message: invalid request' });
  });

  it('works with contract creation txs and calldata', async () => {
    const chain = await startTestChain();
    const res = await chain.check(signTx(DEV_KEY_0, { data: new Uint8Array([0x60, 0x00]) }, { nonce: 0n, gasLimit: 60_000n }));
    expect(res.code).toBe(0);
  });

  it('keeps no decoding of a tx it refuses, and drops those of a committed block', async () => {
    const chain = await startTestChain({ alloc: { [DEV_ADDRESS_0]: { balance: '21000000000000' } } });
    const cached = () => (chain.app as unknown as { txCache: { size: number } }).txCache.size;
    // refused: the sender cannot pay (each a different tx), and gas below the intrinsic gas
    for (let i = 0; i < 20; i++) expect((await chain.check(signEthTransfer(DEV_KEY_0, TO, BigInt(i + 1), { nonce: 0n }))).code).toBe(5);
    expect((await chain.check(signEthTransfer(DEV_KEY_0, TO, 1n, { nonce: 0n, gasLimit: 20_000n }))).code).toBe(11);
    expect(cached()).toBe(0);
    const ok = signEthTransfer(DEV_KEY_0, TO, 0n, { nonce: 0n, maxFeePerGas: 1_000_000_000n, maxPriorityFeePerGas: 0n });
    expect((await chain.check(ok)).code).toBe(0);
    expect(cached()).toBe(1);
    await chain.block([ok]);
    expect(cached()).toBe(0);
  });
});
