import { describe, expect, it } from 'vitest';
import { Account, Address } from '@ethereumjs/util';
import { OverlayState } from './overlay-state.js';
import type { StateReader } from './state-reader.js';

const A = new Address(new Uint8Array(20).fill(1));
const slot = new Uint8Array(32);
const base: StateReader = {
  account: async () => new Account(5n, 100n),
  code: async () => Uint8Array.of(0x60),
  storage: async () => Uint8Array.of(7),
};

describe('OverlayState', () => {
  it('reads through, writes privately, hands out copies', async () => {
    const s = new OverlayState(base);
    const a = (await s.getAccount(A))!;
    a.balance = 1n;
    expect((await s.getAccount(A))!.balance).toBe(100n);
    await s.putAccount(A, a);
    a.balance = 2n;
    expect((await s.getAccount(A))!.balance).toBe(1n);
    expect(await new OverlayState(base).getAccount(A)).toMatchObject({ balance: 100n });
  });

  it('nested checkpoints revert only their own writes', async () => {
    const s = new OverlayState(base);
    await s.checkpoint();
    await s.putStorage(A, slot, Uint8Array.of(1));
    await s.checkpoint();
    await s.putStorage(A, slot, Uint8Array.of(2));
    await s.putCode(A, Uint8Array.of(0xfe));
    await s.revert();
    expect(await s.getStorage(A, slot)).toEqual(Uint8Array.of(1));
    expect(await s.getCode(A)).toEqual(Uint8Array.of(0x60));
    await s.commit();
    expect(await s.getStorage(A, slot)).toEqual(Uint8Array.of(1));
  });

  it('original storage is the value at the start of the tx', async () => {
    const s = new OverlayState(base);
    s.beginTx();
    await s.putStorage(A, slot, Uint8Array.of(9));
    expect(await s.originalStorageCache.get(A, slot)).toEqual(Uint8Array.of(7));
    s.beginTx();
    expect(await s.originalStorageCache.get(A, slot)).toEqual(Uint8Array.of(9));
  });

  it('deleting an account hides its base storage and code; revert restores them', async () => {
    const s = new OverlayState(base);
    await s.checkpoint();
    await s.deleteAccount(A);
    expect(await s.getAccount(A)).toBeUndefined();
    expect(await s.getStorage(A, slot)).toEqual(new Uint8Array(0));
    expect(await s.getCode(A)).toEqual(new Uint8Array(0));
    await s.revert();
    expect(await s.getStorage(A, slot)).toEqual(Uint8Array.of(7));
    expect(await s.getCodeSize(A)).toBe(1);
  });
});
