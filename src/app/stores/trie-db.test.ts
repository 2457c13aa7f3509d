import { describe, expect, it } from 'vitest';
import { MemoryLevel } from 'memory-level';
import { Caches, MerkleStateManager } from '@ethereumjs/statemanager';
import { MerklePatriciaTrie } from '@ethereumjs/mpt';
import { Address, ValueEncoding, createAccount, type DB } from '@ethereumjs/util';
import { createChainCommon } from '../chain-common.js';
import { LevelTrieDB, type BytesSublevel } from './trie-db.js';

const common = createChainCommon({ chainId: 9000n, hardfork: 'prague' });

function stateOn(db: LevelTrieDB, root?: Uint8Array): MerkleStateManager {
  const trie = new MerklePatriciaTrie({ db: db as DB<string, string | Uint8Array>, useKeyHashing: true, valueEncoding: ValueEncoding.Bytes, common, root });
  return new MerkleStateManager({ common, trie, caches: new Caches() });
}

function newLevel(): BytesSublevel {
  const level = new MemoryLevel({ keyEncoding: 'view', valueEncoding: 'view' });
  return level.sublevel<Uint8Array, Uint8Array>('trie', { keyEncoding: 'view', valueEncoding: 'view' }) as unknown as BytesSublevel;
}

const address = (i: number) =>
  new Address(
    new Uint8Array(20)
      .fill(i % 256, 0, 1)
      .fill(Math.floor(i / 256), 1, 2)
      .fill(7, 19),
  );

describe('LevelTrieDB', () => {
  it('writes only the pending nodes reachable from the root, which are enough to read every account and slot', async () => {
    const level = newLevel();
    const db = new LevelTrieDB(level);
    const state = stateOn(db);
    for (let i = 0; i < 300; i++) await state.putAccount(address(i), createAccount({ balance: BigInt(i + 1), nonce: 1n }));
    await state.getStateRoot();
    const contract = address(1000);
    await state.putAccount(contract, createAccount({ balance: 0n }));
    await state.putCode(contract, new Uint8Array([0x60, 0x01, 0x60, 0x00, 0x55]));
    for (let s = 0; s < 40; s++) await state.putStorage(contract, new Uint8Array(32).fill(s, 31), new Uint8Array([s + 1]));
    const root = await state.getStateRoot();

    const pendingBefore = db.pendingCount;
    const ops = db.takeReachable(root);
    expect(ops.length).toBeGreaterThan(300);
    expect(ops.length).toBeLessThan(pendingBefore); // intermediate versions dropped
    expect(db.pendingCount).toBe(0);
    await level.batch(ops.map((op) => ({ type: 'put' as const, key: op.key, value: op.value })));

    // A fresh db over the same level (no pending writes, no cache) reads everything back.
    const fresh = stateOn(new LevelTrieDB(level), root);
    for (let i = 0; i < 300; i++) expect((await fresh.getAccount(address(i)))!.balance).toBe(BigInt(i + 1));
    expect(await fresh.getCode(contract)).toEqual(new Uint8Array([0x60, 0x01, 0x60, 0x00, 0x55]));
    for (let s = 0; s < 40; s++) expect(await fresh.getStorage(contract, new Uint8Array(32).fill(s, 31))).toEqual(new Uint8Array([s + 1]));
  });

  it('keeps committed nodes out of the next batch and ignores deletes', async () => {
    const level = newLevel();
    const db = new LevelTrieDB(level);
    const state = stateOn(db);
    for (let i = 0; i < 50; i++) await state.putAccount(address(i), createAccount({ balance: 1n }));
    const root1 = await state.getStateRoot();
    await level.batch(db.takeReachable(root1).map((op) => ({ type: 'put' as const, key: op.key, value: op.value })));

    await state.putAccount(address(3), createAccount({ balance: 2n }));
    const root2 = await state.getStateRoot();
    const ops = db.takeReachable(root2);
    expect(ops.length).toBeGreaterThan(0);
    expect(ops.length).toBeLessThan(6); // just the updated path
    await level.batch(ops.map((op) => ({ type: 'put' as const, key: op.key, value: op.value })));
    await db.del('00'.repeat(32));
    // Both roots stay readable: nothing is pruned.
    expect((await stateOn(new LevelTrieDB(level), root1).getAccount(address(3)))!.balance).toBe(1n);
    expect((await stateOn(new LevelTrieDB(level), root2).getAccount(address(3)))!.balance).toBe(2n);
  });

  it('keeps at most cacheSize nodes in its read cache, none with 0, and reads the rest from the level', async () => {
    for (const cacheSize of [64, 0]) {
      const level = newLevel();
      const db = new LevelTrieDB(level, { cacheSize });
      const state = stateOn(db);
      for (let i = 0; i < 300; i++) await state.putAccount(address(i), createAccount({ balance: BigInt(i + 1) }));
      const root = await state.getStateRoot();
      const ops = db.takeReachable(root);
      expect(ops.length).toBeGreaterThan(300);
      await level.batch(ops.map((op) => ({ type: 'put' as const, key: op.key, value: op.value })));
      expect(db.cachedCount).toBeLessThanOrEqual(cacheSize);
      const again = stateOn(db, root);
      for (let i = 0; i < 300; i++) expect((await again.getAccount(address(i)))!.balance).toBe(BigInt(i + 1));
      expect(db.cachedCount).toBeLessThanOrEqual(cacheSize);
    }
  });
});
