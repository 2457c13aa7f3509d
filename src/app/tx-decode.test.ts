import { createTx, createTxFromRLP } from '@ethereumjs/tx';
import { hexToBytes } from '@ethereumjs/util';
import { describe, expect, it } from 'vitest';
import { keccak256 } from '../crypto/keccak.js';
import { createChainCommon } from './chain-common.js';
import { DEV_ADDRESS_0, DEV_ADDRESS_1, DEV_KEY_0, signEthTransfer } from './fixtures/signed-txs.js';
import { decodeAppTx, recoverSender, type DecodedEthTx } from './tx-decode.js';
import { TxRejectedError } from './errors.js';

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
      createTx({ ...base, type: 4, maxFeePerGas: 10n ** 10n, maxPriorityFeePerGas: 1n, authorizationList: [{ chainId: '0x2328', address: to, nonce: '0x1', yParity: '0x1', r: `0x${'22'.repeat(32)}`, s: `0x${'33'.repeat(31)}` }] }, { common }),
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
});
