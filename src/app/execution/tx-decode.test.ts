import { Common, Hardfork, Mainnet } from '@ethereumjs/common';
import { createTx, createTxFromRLP } from '@ethereumjs/tx';
import { hexToBytes } from '@ethereumjs/util';
import { describe, expect, it } from 'vitest';
import { keccak256 } from '../../crypto/keccak.js';
import { createChainCommon } from '../chain-common.js';
import { DEV_ADDRESS_0, DEV_ADDRESS_1, DEV_KEY_0, signEthTransfer } from '../fixtures/signed-txs.js';
import { decodeAppTx, recoverSender, type DecodedEthTx } from './tx-decode.js';
import { TxRejectedError } from '../errors.js';

describe('decodeAppTx', () => {
  it('gives a frozen tx whose getSenderAddress is the sender recoverSender keeps, equal to ethereumjs own', () => {
    const common = createChainCommon({ chainId: 9000n, hardfork: 'prague' });
    const d = decodeAppTx(signEthTransfer(DEV_KEY_0, DEV_ADDRESS_1, 1n, { nonce: 0n }), common) as DecodedEthTx;
    expect(Object.isFrozen(d.tx)).toBe(true);
    const fromVm = d.tx.getSenderAddress();
    expect(fromVm.toString()).toBe(DEV_ADDRESS_0);
    expect(d.tx.getSenderAddress()).toBe(recoverSender(d)); // one Address, recovered once
    const upstream = (Object.getPrototypeOf(d.tx) as { getSenderAddress(this: unknown): { toString(): string } }).getSenderAddress.call(d.tx);
    expect(upstream.toString()).toBe(DEV_ADDRESS_0);
    expect(d.tx.hash()).toEqual(keccak256(d.bytes));
    expect(d.tx.hash()).toBe(d.tx.hash()); // cached, as for any frozen tx
  });

  it('decodes every supported type as createTxFromRLP does, and refuses malformed bytes with its message', () => {
    const common = createChainCommon({ chainId: 9000n, hardfork: 'prague' });
    const key = hexToBytes(DEV_KEY_0);
    const to = DEV_ADDRESS_1 as `0x${string}`;
    const accessList = [{ address: to, storageKeys: [`0x${'11'.repeat(32)}` as const] }];
    const base = { nonce: 3n, gasLimit: 50_000n, to, value: 7n, data: '0xabcdef' as const };
    const txs = [
      createTx({ ...base, gasPrice: 10n ** 9n }, { common }), // legacy, EIP-155
      createTx({ ...base, type: 1, gasPrice: 10n ** 9n, accessList }, { common }),
      createTx({ ...base, type: 2, maxFeePerGas: 10n ** 10n, maxPriorityFeePerGas: 1n, accessList }, { common }),
      createTx(
        {
          ...base,
          type: 4,
          maxFeePerGas: 10n ** 10n,
          maxPriorityFeePerGas: 1n,
          authorizationList: [{ chainId: '0x2328', address: to, nonce: '0x1', yParity: '0x1', r: `0x${'22'.repeat(32)}`, s: `0x${'33'.repeat(31)}` }],
        },
        { common },
      ),
    ].map((t) => t.sign(key).serialize());
    for (const bytes of txs) {
      const d = decodeAppTx(bytes, common) as DecodedEthTx;
      const upstream = createTxFromRLP(bytes, { common });
      expect(d.tx.type).toBe(upstream.type);
      expect(d.tx.toJSON()).toEqual(upstream.toJSON());
      expect(d.tx.serialize()).toEqual(bytes);
      expect(recoverSender(d).toString()).toBe(DEV_ADDRESS_0);
    }
    // Malformed: trailing bytes, a field list cut short, a non-list payload.
    for (const bad of [Uint8Array.from([...txs[2]!, 0x00]), txs[2]!.subarray(0, 40), Uint8Array.of(0x02, 0x83, 1, 2, 3)]) {
      let upstream = '';
      try {
        createTxFromRLP(bad, { common });
      } catch (e) {
        upstream = (e as Error).message;
      }
      expect(upstream).not.toBe('');
      expect(() => decodeAppTx(bad, common)).toThrow(TxRejectedError);
      expect(() => decodeAppTx(bad, common)).toThrow(upstream);
    }
  });

  it('hashes the signing payload from the tx bytes as ethereumjs does from its fields, for every type and shape', () => {
    const common = createChainCommon({ chainId: 9000n, hardfork: 'prague' });
    const key = hexToBytes(DEV_KEY_0);
    const to = DEV_ADDRESS_1 as `0x${string}`;
    const accessList = [{ address: to, storageKeys: [`0x${'11'.repeat(32)}` as const, `0x${'22'.repeat(32)}` as const] }];
    const auth = [{ chainId: '0x2328', address: to, nonce: '0x1', yParity: '0x1', r: `0x${'22'.repeat(32)}`, s: `0x${'33'.repeat(31)}` }] as const;
    let checked = 0;
    for (let nonce = 0n; nonce < 12n; nonce++) {
      // Data of 0, 3 and 300 bytes (a long-form length); with and without a recipient (a create).
      const data = (['0x', '0xabcdef', `0x${'5a'.repeat(300)}`] as const)[Number(nonce % 3n)]!;
      const base = { nonce, gasLimit: 500_000n, value: nonce * 7n, data, ...(nonce % 4n === 3n ? {} : { to }) };
      const fee = { maxFeePerGas: 10n ** 10n, maxPriorityFeePerGas: 1n };
      const txs = [
        createTx({ ...base, gasPrice: 10n ** 9n }, { common }), // legacy, EIP-155
        createTx({ ...base, type: 1, gasPrice: 10n ** 9n, accessList }, { common }),
        createTx({ ...base, ...fee, type: 2, accessList: nonce % 2n ? accessList : [] }, { common }),
        ...(base.to ? [createTx({ ...base, ...fee, type: 4, authorizationList: [...auth] }, { common })] : []),
      ].map((t) => t.sign(key).serialize());
      for (const bytes of txs) {
        const d = decodeAppTx(bytes, common) as DecodedEthTx;
        const own = Object.getPrototypeOf(d.tx) as { getMessageToVerifySignature(this: unknown): Uint8Array };
        expect(Object.hasOwn(d.tx, 'getMessageToVerifySignature')).toBe(true); // hashed from the bytes
        expect(d.tx.getMessageToVerifySignature()).toEqual(own.getMessageToVerifySignature.call(d.tx));
        expect(recoverSender(d).toString()).toBe(DEV_ADDRESS_0);
        checked++;
      }
    }
    // A legacy tx without EIP-155 (signed before Spurious Dragon: v = 27 or 28) signs its six fields alone.
    const preEip155 = new Common({ chain: Mainnet, hardfork: Hardfork.TangerineWhistle });
    const unprotected = createTx(
      { nonce: 1n, gasPrice: 10n ** 9n, gasLimit: 21_000n, to, value: 1n, data: `0x${'77'.repeat(60)}` },
      { common: preEip155 },
    ).sign(key);
    expect([27n, 28n]).toContain(unprotected.v);
    const d = decodeAppTx(unprotected.serialize(), common) as DecodedEthTx;
    expect(d.protected).toBe(false);
    expect(Object.hasOwn(d.tx, 'getMessageToVerifySignature')).toBe(true);
    expect(d.tx.getMessageToVerifySignature()).toEqual(
      (Object.getPrototypeOf(d.tx) as { getMessageToVerifySignature(this: unknown): Uint8Array }).getMessageToVerifySignature.call(d.tx),
    );
    expect(recoverSender(d).toString()).toBe(DEV_ADDRESS_0);
    expect(checked).toBe(45);
  });
});
