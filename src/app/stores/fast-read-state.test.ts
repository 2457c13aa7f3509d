import { Caches, MerkleStateManager } from '@ethereumjs/statemanager';
import { Address, createAccount, createAccountFromRLP } from '@ethereumjs/util';
import { describe, expect, it } from 'vitest';
import { createChainCommon } from '../chain-common.js';
import { accountFromRlp, FastReadStateManager } from './fast-read-state.js';

const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');
const address = (i: number) => new Address(Uint8Array.from({ length: 20 }, (_, k) => (k === 0 ? 0xaa : (i * 31 + k * 7) & 0xff)));
const slot = (i: number) => Uint8Array.from({ length: 32 }, (_, k) => (i * 13 + k) & 0xff);

describe('FastReadStateManager', () => {
  it('reads the accounts and storage MerkleStateManager reads from the same trie, present and absent, and caches them alike', async () => {
    const common = createChainCommon({ chainId: 9000n, hardfork: 'prague' });
    const writer = new MerkleStateManager({ common });
    for (let i = 0; i < 300; i++) {
      await writer.putAccount(address(i), createAccount({ nonce: BigInt(i), balance: 10n ** 18n * BigInt(i + 1) }));
      if (i % 10 === 0) {
        await writer.putCode(address(i), Uint8Array.of(0x60, 0x00, 0xf3, i & 0xff));
        for (let s = 0; s < 20; s++) await writer.putStorage(address(i), slot(s), Uint8Array.of(s + 1, i & 0xff));
      }
    }
    await writer.flush();
    const root = await writer.getStateRoot();

    const at = (Kind: typeof MerkleStateManager) => {
      const sm = new Kind({ common, trie: writer['_trie'].shallowCopy(false), caches: new Caches() });
      sm['_trie'].root(root);
      return sm;
    };
    const fast = at(FastReadStateManager);
    const plain = at(MerkleStateManager);
    for (let round = 0; round < 2; round++) {
      // The second round reads from the caches the first filled.
      for (let i = 0; i < 320; i++) {
        const [a, b] = [await fast.getAccount(address(i)), await plain.getAccount(address(i))];
        expect(a === undefined ? undefined : hex(a.serialize()), `account ${i}`).toBe(b === undefined ? undefined : hex(b.serialize()));
        if (i % 10 === 0) {
          for (let s = 0; s < 24; s++)
            expect(hex(await fast.getStorage(address(i), slot(s))), `slot ${s} of ${i}`).toBe(hex(await plain.getStorage(address(i), slot(s))));
        }
      }
    }
    await expect(fast.getStorage(address(0), new Uint8Array(31))).rejects.toThrow('Storage key must be 32 bytes long');
  });
});

describe('accountFromRlp', () => {
  it('gives the account createAccountFromRLP gives, with hashes of its own', () => {
    for (const fields of [
      {},
      { nonce: 1n, balance: 0n },
      { nonce: 2n ** 64n - 1n, balance: 10n ** 30n, storageRoot: new Uint8Array(32).fill(7), codeHash: new Uint8Array(32).fill(9) },
    ]) {
      const rlp = createAccount(fields).serialize();
      const a = accountFromRlp(rlp);
      expect(hex(a.serialize())).toBe(hex(createAccountFromRLP(rlp).serialize()));
      a.storageRoot.fill(1);
      expect(hex(accountFromRlp(rlp).serialize())).toBe(hex(rlp));
    }
    expect(() => accountFromRlp(Uint8Array.of(0x80))).toThrow('Must be array');
  });
});
