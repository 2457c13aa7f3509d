import { calculateExistenceRoot, ics23, iavlSpec, tendermintSpec, verifyMembership, verifyNonMembership } from '@confio/ics23';
import { MerkleProof } from 'cosmjs-types/ibc/core/commitment/v1/commitment';
import { describe, expect, it } from 'vitest';
import { toHex, utf8 } from '../crypto/encoding.js';
import { sha256 } from '../crypto/hash.js';
import { memoryNodeDb, openIavlTree } from './iavl/index.js';
import { commitInfoRoot, merkleProof, proofOps, proveStoreRoot } from './multistore.js';

const decode = (bytes: Uint8Array) => ics23.CommitmentProof.decode(bytes);

describe('multistore commit info', () => {
  it('hashes stores as the Cosmos SDK does (store/internal/maps TestSimpleMap vectors)', () => {
    const cases: [Record<string, string>, string][] = [
      [{}, 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855'],
      [{ key1: 'value1' }, 'a44d3cc7daba1a4600b00a2434b30f8b970652169810d6dfa9fb1793a2189324'],
      [{ key1: 'value2' }, '0638e99b3445caec9d95c05e1a3fc1487b4ddec6a952ff337080360b0dcc078c'],
      [{ key1: 'value1', key2: 'value2' }, '8fd19b19e7bb3f2b3ee0574027d8a5a4cec370464ea2db2fbfa5c7d35bb0cff3'],
      [{ key2: 'value2', key1: 'value1' }, '8fd19b19e7bb3f2b3ee0574027d8a5a4cec370464ea2db2fbfa5c7d35bb0cff3'],
      [{ key1: 'value1', key2: 'value2', key3: 'value3' }, '1dd674ec6782a0d586a903c9c63326a41cbe56b3bba33ed6ff5b527af6efb3dc'],
      [{ key1: 'value1', key3: 'value3', key2: 'value2' }, '1dd674ec6782a0d586a903c9c63326a41cbe56b3bba33ed6ff5b527af6efb3dc'],
    ];
    for (const [stores, want] of cases) {
      expect(toHex(commitInfoRoot(new Map(Object.entries(stores).map(([k, v]) => [k, utf8(v)]))))).toBe(want);
    }
  });

  it('proves each store root under the app hash with tendermintSpec, for every position in trees of 1 to 9 stores', () => {
    for (let n = 1; n <= 9; n++) {
      const stores = new Map<string, Uint8Array>();
      for (let i = 0; i < n; i++) stores.set(`store${String.fromCharCode(106 - i)}`, sha256(Uint8Array.of(n, i)));
      const appHash = commitInfoRoot(stores);
      for (const [name, root] of stores) {
        const proof = decode(proveStoreRoot(stores, name));
        expect(verifyMembership(proof, tendermintSpec, appHash, utf8(name), root)).toBe(true);
        expect(verifyMembership(proof, tendermintSpec, appHash, utf8(name), sha256(root))).toBe(false);
      }
    }
    expect(() => proveStoreRoot(new Map([['a', new Uint8Array(32)]]), 'b')).toThrow(/no store named "b"/);
    expect(() => commitInfoRoot(new Map([['', new Uint8Array(32)]]))).toThrow(/empty/);
  });

  it('chains key → store root → app hash as cosmjs queryStoreVerified checks it, for present and absent keys', async () => {
    const ibc = await openIavlTree(memoryNodeDb());
    ibc.set(utf8('clients/07-tendermint-0/clientState'), utf8('client state'));
    ibc.set(utf8('connections/connection-0'), utf8('connection end'));
    ibc.set(utf8('nextChannelSequence'), Uint8Array.of(0, 0, 0, 0, 0, 0, 0, 1));
    const { version, root } = ibc.commit();
    // The EVM store's root is the Ethereum state root, given by the caller.
    const stores = new Map([
      ['acc', sha256(utf8('accounts'))],
      ['bank', sha256(utf8('balances'))],
      ['evm', sha256(utf8('state root'))],
      ['ibc', root],
    ]);
    const appHash = commitInfoRoot(stores);
    const storeProof = proveStoreRoot(stores, 'ibc');

    const key = utf8('connections/connection-0');
    const { value, proof } = await ibc.prove(key, version);
    const ops = proofOps(proof, key, 'ibc', storeProof);
    expect(ops.map((o) => o.type)).toEqual(['ics23:iavl', 'ics23:simple']);
    expect(ops[0]!.key).toEqual(key);
    expect(ops[1]!.key).toEqual(utf8('ibc'));
    const sub = decode(ops[0]!.data);
    const store = decode(ops[1]!.data).exist!;
    expect(toHex(store.value!)).toBe(toHex(root));
    expect(toHex(calculateExistenceRoot(sub.exist!))).toBe(toHex(store.value!));
    expect(verifyMembership(sub, iavlSpec, store.value!, key, value!)).toBe(true);
    expect(verifyMembership(decode(ops[1]!.data), tendermintSpec, appHash, utf8('ibc'), store.value!)).toBe(true);

    const absentKey = utf8('channelEnds/ports/transfer/channels/channel-9');
    const absent = await ibc.prove(absentKey, version);
    expect(absent.value).toBeUndefined();
    expect(verifyNonMembership(decode(absent.proof), iavlSpec, store.value!, absentKey)).toBe(true);

    // ibc-go's MerkleProof carries the same two proofs, key proof first.
    const mp = MerkleProof.decode(merkleProof(proof, storeProof));
    expect(mp.proofs.length).toBe(2);
    expect(verifyMembership(mp.proofs[0] as ics23.ICommitmentProof, iavlSpec, root, key, value!)).toBe(true);
    expect(mp.proofs[1]!.exist!.key).toEqual(utf8('ibc'));
  });
});
