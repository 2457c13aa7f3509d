import { MerklePatriciaTrie } from '@ethereumjs/mpt';
import { Caches, MerkleStateManager } from '@ethereumjs/statemanager';
import { Address, createAccount } from '@ethereumjs/util';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { describe, expect, it } from 'vitest';
import { logAccountWrites } from './account-write-log.js';
import { bulkUpdate, bytesToNibbles, compareNibbles, MissingTrieNode, readTrie, type TrieWrite } from './bulk-trie.js';
import { createChainCommon } from '../chain-common.js';
import { LiveStateManager } from './live-state.js';

/** Deterministic pseudo-random bytes. */
function rng(seed: number): (n: number) => Uint8Array {
  let s = seed >>> 0;
  return (n) => {
    const out = new Uint8Array(n);
    for (let i = 0; i < n; i++) {
      s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
      out[i] = s >>> 24;
    }
    return out;
  };
}

const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');

/** A trie over 32-byte keys (no key hashing, so keys can share long prefixes on purpose). */
function newTrie(): MerklePatriciaTrie {
  return new MerklePatriciaTrie({ useKeyHashing: false });
}

async function bulkRoot(trie: MerklePatriciaTrie, writes: Map<string, Uint8Array | undefined>): Promise<Uint8Array> {
  const list: TrieWrite[] = [...writes].map(([k, value]) => ({ nibbles: bytesToNibbles(Buffer.from(k, 'hex')), value }));
  list.sort((a, b) => compareNibbles(a.nibbles, b.nibbles));
  const db = trie.database();
  return bulkUpdate(
    trie.root(),
    trie.EMPTY_TRIE_ROOT,
    list,
    { get: (h) => db.get(h), putMany: (nodes) => db.batch(nodes.map((n) => ({ type: 'put' as const, ...n }))) },
    keccak_256,
  );
}

/** The same writes one by one on a copy sharing the db; its root. */
async function sequentialRoot(trie: MerklePatriciaTrie, writes: Map<string, Uint8Array | undefined>): Promise<Uint8Array> {
  const copy = trie.shallowCopy(false);
  for (const [k, v] of writes) {
    if (v === undefined) await copy.del(Buffer.from(k, 'hex'));
    else await copy.put(Buffer.from(k, 'hex'), v);
  }
  return copy.root();
}

describe('bulkUpdate', () => {
  it('gives the root of one put/del per key on random tries, and stores every node the new root needs', async () => {
    for (let round = 0; round < 40; round++) {
      const bytes = rng(round + 1);
      const trie = newTrie();
      const keys: Uint8Array[] = [];
      const initial = round % 5 === 0 ? 0 : (bytes(1)[0]! % 200) + 1;
      for (let i = 0; i < initial; i++) {
        // Some keys share a long prefix with another (deep extensions); values short and long (embedded leaves).
        const key = i > 0 && bytes(1)[0]! < 60 ? Uint8Array.from([...keys[i - 1]!.subarray(0, 20), ...bytes(12)]) : bytes(32);
        keys.push(key);
        await trie.put(key, bytes((bytes(1)[0]! % 70) + 1));
      }
      const writes = new Map<string, Uint8Array | undefined>();
      const count = (bytes(1)[0]! % 120) + 1;
      for (let i = 0; i < count; i++) {
        const pick = bytes(1)[0]!;
        const key =
          keys.length > 0 && pick < 150
            ? keys[pick % keys.length]!
            : pick < 200 && keys.length > 0
              ? Uint8Array.from([...keys[pick % keys.length]!.subarray(0, 31), bytes(1)[0]!])
              : bytes(32);
        const kind = bytes(1)[0]!;
        writes.set(hex(key), kind < 90 ? undefined : kind < 100 ? new Uint8Array(0) : bytes((kind % 80) + 1));
      }
      const expected = await sequentialRoot(trie, writes);
      const got = await bulkRoot(trie, writes);
      expect(hex(got), `round ${round}`).toBe(hex(expected));

      const reader = newTrie();
      reader.database(trie.database().db);
      reader.root(got);
      const probe = [...writes.keys()].slice(0, 20);
      const seq = trie.shallowCopy(false);
      seq.root(expected);
      for (const k of probe) expect(await reader.get(Buffer.from(k, 'hex'))).toEqual(await seq.get(Buffer.from(k, 'hex')));
    }
  });

  it('empties a trie and fills an empty one', async () => {
    const bytes = rng(99);
    const trie = newTrie();
    const keys = Array.from({ length: 30 }, () => bytes(32));
    for (const k of keys) await trie.put(k, bytes(40));
    const all = new Map(keys.map((k) => [hex(k), undefined]));
    expect(hex(await bulkRoot(trie, all))).toBe(hex(trie.EMPTY_TRIE_ROOT));

    const fresh = newTrie();
    const one = new Map([[hex(keys[0]!), Uint8Array.of(1)]]);
    expect(hex(await bulkRoot(fresh, one))).toBe(hex(await sequentialRoot(fresh, one)));
    expect(hex(await bulkRoot(fresh, new Map()))).toBe(hex(fresh.EMPTY_TRIE_ROOT));
  });
});

describe('readTrie', () => {
  it('reads what MerklePatriciaTrie.get reads: present keys, absent keys off every kind of node, embedded leaves, the empty trie', async () => {
    for (let round = 0; round < 30; round++) {
      const bytes = rng(1000 + round);
      const trie = newTrie();
      const keys: Uint8Array[] = [];
      const count = round % 6 === 0 ? 0 : (bytes(1)[0]! % 150) + 1;
      for (let i = 0; i < count; i++) {
        // Long shared prefixes (extensions), short values (leaves embedded in their parent).
        const key =
          i > 0 && bytes(1)[0]! < 80 ? Uint8Array.from([...keys[i - 1]!.subarray(0, 1 + (bytes(1)[0]! % 30)), ...bytes(31)]).subarray(0, 32) : bytes(32);
        keys.push(key);
        await trie.put(key, bytes((bytes(1)[0]! % 60) + 1));
      }
      const db = trie.database();
      const store = { get: (h: Uint8Array) => db.get(h) as Promise<Uint8Array | undefined> };
      const probes = [
        ...keys,
        ...keys.map((k) => Uint8Array.from([...k.subarray(0, 31), k[31]! ^ 1])), // off a leaf or a branch at the last nibbles
        ...keys.map((k) => Uint8Array.from([...k.subarray(0, 10), ...bytes(22)])), // off an extension or a branch higher up
        ...Array.from({ length: 20 }, () => bytes(32)),
      ];
      for (const k of probes) {
        const want = await trie.get(k);
        const got = await readTrie(store, trie.root(), trie.EMPTY_TRIE_ROOT, bytesToNibbles(k));
        expect(got === null ? null : hex(got), `round ${round} key ${hex(k)}`).toBe(want === null ? null : hex(want));
      }
    }
  });

  it('hands out a copy of the value and throws MissingTrieNode for a node the store lacks', async () => {
    const bytes = rng(7);
    const trie = newTrie();
    const keys = Array.from({ length: 40 }, () => bytes(32));
    for (const k of keys) await trie.put(k, bytes(50));
    const db = trie.database();
    const store = { get: (h: Uint8Array) => db.get(h) as Promise<Uint8Array | undefined> };
    const got = (await readTrie(store, trie.root(), trie.EMPTY_TRIE_ROOT, bytesToNibbles(keys[0]!)))!;
    got.fill(0);
    expect(hex((await trie.get(keys[0]!))!)).not.toBe(hex(got));
    const missing = { get: async () => undefined };
    await expect(readTrie(missing, trie.root(), trie.EMPTY_TRIE_ROOT, bytesToNibbles(keys[0]!))).rejects.toBeInstanceOf(MissingTrieNode);
  });
});

/** A MerkleStateManager and a LiveStateManager, both with caches, on fresh tries. */
function plainAndLive(): { plain: MerkleStateManager; live: LiveStateManager } {
  const common = createChainCommon({ chainId: 9000n, hardfork: 'prague' });
  const caches = new Caches();
  return { plain: new MerkleStateManager({ common, caches: new Caches() }), live: new LiveStateManager({ common, caches }, logAccountWrites(caches)) };
}

describe('LiveStateManager', () => {
  it('flushes to the same state root as MerkleStateManager: accounts, code, storage and deletions', async () => {
    const { plain, live } = plainAndLive();
    const bytes = rng(5);
    const addresses = Array.from({ length: 300 }, () => new Address(bytes(20)));
    for (const sm of [plain, live]) {
      for (const [i, a] of addresses.entries()) await sm.putAccount(a, createAccount({ nonce: BigInt(i), balance: BigInt(i) * 10n ** 18n }));
      await sm.putCode(addresses[1]!, Uint8Array.of(0x60, 0x00));
      await sm.putStorage(addresses[1]!, new Uint8Array(32).fill(1), Uint8Array.of(7));
    }
    expect(hex(await live.getStateRoot())).toBe(hex(await plain.getStateRoot()));

    for (const sm of [plain, live]) {
      await sm.checkpoint();
      for (const a of addresses.slice(0, 100)) await sm.modifyAccountFields(a, { nonce: 1000n });
      for (const a of addresses.slice(100, 150)) await sm.deleteAccount(a);
      await sm.putStorage(addresses[1]!, new Uint8Array(32).fill(2), Uint8Array.of(8));
      await sm.commit();
    }
    expect(hex(await live.getStateRoot())).toBe(hex(await plain.getStateRoot()));
    expect((await live.getAccount(addresses[0]!))?.nonce).toBe(1000n);
    expect(await live.getAccount(addresses[120]!)).toBeUndefined();
  });

  it('writes the storage of each contract in one update: same roots, deletions, and reads from the trie after the caches are dropped', async () => {
    const { plain, live } = plainAndLive();
    const bytes = rng(9);
    const contracts = Array.from({ length: 3 }, () => new Address(bytes(20)));
    const slots = Array.from({ length: 200 }, () => bytes(32));
    for (const sm of [plain, live]) {
      for (const c of contracts) {
        await sm.putAccount(c, createAccount({ nonce: 1n, balance: 0n }));
        for (const [i, k] of slots.entries()) await sm.putStorage(c, k, Uint8Array.of(i + 1));
      }
    }
    expect(hex(await live.getStateRoot())).toBe(hex(await plain.getStateRoot()));
    // Reads from the trie: the state manager now keeps a storage trie object per contract.
    live.clearCaches();
    for (const c of contracts) expect(hex(await live.getStorage(c, slots[5]!))).toBe(hex(Uint8Array.of(6)));
    // A second round: some slots change, some are deleted (zero), one contract is untouched.
    for (const sm of [plain, live]) {
      for (const [i, k] of slots.entries()) {
        if (i % 3 === 0) await sm.putStorage(contracts[0]!, k, new Uint8Array(0));
        else if (i % 3 === 1) await sm.putStorage(contracts[1]!, k, Uint8Array.of(0xee, i));
      }
    }
    expect(hex(await live.getStateRoot())).toBe(hex(await plain.getStateRoot()));
    live.clearCaches();
    for (const [i, k] of slots.entries()) {
      expect(hex(await live.getStorage(contracts[0]!, k))).toBe(hex(i % 3 === 0 ? new Uint8Array(0) : Uint8Array.of(i + 1)));
      expect(hex(await live.getStorage(contracts[1]!, k))).toBe(hex(i % 3 === 1 ? Uint8Array.of(0xee, i) : Uint8Array.of(i + 1)));
    }
  });

  it('keeps SSTOREs in the storage cache until the flush (no trie write each), with checkpoints and reverts as MerkleStateManager', async () => {
    const { plain, live } = plainAndLive();
    const bytes = rng(21);
    const c = new Address(bytes(20));
    const [k1, k2, k3] = [bytes(32), bytes(32), bytes(32)];
    let trieWrites = 0;
    const writeContractStorage = (live as unknown as { _writeContractStorage: (...a: unknown[]) => Promise<void> })._writeContractStorage.bind(live);
    (live as unknown as { _writeContractStorage: (...a: unknown[]) => Promise<void> })._writeContractStorage = (...a) => {
      trieWrites++;
      return writeContractStorage(...a);
    };
    for (const sm of [plain, live]) {
      await sm.putAccount(c, createAccount({ nonce: 1n, balance: 0n }));
      await sm.putStorage(c, k1, Uint8Array.of(1));
      await sm.checkpoint();
      await sm.putStorage(c, k1, Uint8Array.of(2));
      await sm.putStorage(c, k2, Uint8Array.of(3));
      expect(hex(await sm.getStorage(c, k1))).toBe('02');
      await sm.revert();
      expect(hex(await sm.getStorage(c, k1))).toBe('01');
      expect(hex(await sm.getStorage(c, k2))).toBe('');
      await sm.checkpoint();
      await sm.putStorage(c, k3, Uint8Array.of(4));
      await sm.commit();
    }
    expect(trieWrites).toBe(0);
    expect(hex(await live.getStateRoot())).toBe(hex(await plain.getStateRoot()));
    live.clearCaches();
    expect(hex(await live.getStorage(c, k1))).toBe('01');
    expect(hex(await live.getStorage(c, k2))).toBe('');
    expect(hex(await live.getStorage(c, k3))).toBe('04');
    await expect(live.putStorage(new Address(bytes(20)), k1, Uint8Array.of(1))).rejects.toThrow('putStorage() called on non-existing account');
    await expect(live.putStorage(c, k1.subarray(1), Uint8Array.of(1))).rejects.toThrow('Storage key must be 32 bytes long');
  });
});
