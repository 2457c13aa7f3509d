import { describe, expect, it } from 'vitest';
import { keccak256 } from '../crypto/keccak.js';
import { createChainCommon } from './chain-common.js';
import { DEV_ADDRESS_0, DEV_ADDRESS_1, DEV_KEY_0, signEthTransfer } from './fixtures/signed-txs.js';
import { decodeAppTx, recoverSender, type DecodedEthTx } from './tx-decode.js';

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
});
