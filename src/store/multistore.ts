/**
 * The Cosmos SDK multistore's commitment (store/rootmulti, store/types/commit_info.go): the app
 * hash is the simple Merkle root (RFC-6962, CometBFT `merkle.HashFromByteSlices`) of the stores
 * sorted by name, each leaf the pair
 *
 *   uvarint len(name) ‖ name ‖ uvarint 32 ‖ sha256(store root)
 *
 * (store/internal/maps `KVPair.Bytes`, the value pre-hashed), so ICS-23's `tendermintSpec` verifies
 * a store root under the app hash. A store's root is whatever the caller names: an IAVL tree's root
 * (./iavl), or a root computed elsewhere (the EVM chain's `evm` store is its Ethereum state root,
 * as in Cosmos EVM). No stores at all: sha256 of nothing.
 *
 * `proofOps` is what `abci_query` with `prove: true` answers on `/store/<name>/key`: the key's proof
 * in its store (`ics23:iavl`), then the store root's proof in the app hash (`ics23:simple`), the
 * order cosmjs (`QueryClient.queryStoreVerified`), ts-relayer and Hermes read.
 */
import { compareBytes, utf8 } from '../crypto/encoding.js';
import { sha256 } from '../crypto/hash.js';
import { merkleProofs, merkleRoot } from '../crypto/merkle.js';
import { writeUvarint, uvarintSize } from './iavl/node.js';
import { encodeCommitmentProof, HASH_SHA256, LENGTH_VAR_PROTO, type InnerOp } from './iavl/ics23-codec.js';

export interface ProofOp {
  type: string;
  key: Uint8Array;
  data: Uint8Array;
}

/** `uvarint len(key) ‖ key ‖ uvarint len(value) ‖ value`. */
function kvPairBytes(key: Uint8Array, value: Uint8Array): Uint8Array {
  const out = new Uint8Array(uvarintSize(key.length) + key.length + uvarintSize(value.length) + value.length);
  let pos = writeUvarint(out, 0, key.length);
  out.set(key, pos);
  pos = writeUvarint(out, pos + key.length, value.length);
  out.set(value, pos);
  return out;
}

interface Leaves {
  names: Uint8Array[];
  items: Uint8Array[];
}

function leaves(stores: ReadonlyMap<string, Uint8Array>): Leaves {
  const names = [...stores.keys()].map((name) => {
    if (name.length === 0) throw new RangeError('multistore: a store name is empty');
    return utf8(name);
  });
  names.sort(compareBytes);
  const decoder = new TextDecoder();
  return { names, items: names.map((n) => kvPairBytes(n, sha256(stores.get(decoder.decode(n))!))) };
}

/** The app hash committing to every store's root. */
export function commitInfoRoot(stores: ReadonlyMap<string, Uint8Array>): Uint8Array {
  return merkleRoot(leaves(stores).items);
}

/** Largest power of two strictly below n (n >= 2), CometBFT's split point. */
function splitPoint(n: number): number {
  return 2 ** (31 - Math.clz32(n - 1));
}

/** For each aunt, leaf side first: true when the proven node is the left child (the aunt on the right). */
function sides(index: number, total: number): boolean[] {
  if (total < 2) return [];
  const k = splitPoint(total);
  return index < k ? [...sides(index, k), true] : [...sides(index - k, total - k), false];
}

/** ICS-23 `CommitmentProof` bytes (exist) of store `name`'s root under `commitInfoRoot(stores)`. */
export function proveStoreRoot(stores: ReadonlyMap<string, Uint8Array>, name: string): Uint8Array {
  const root = stores.get(name);
  if (root === undefined) throw new RangeError(`multistore: no store named ${JSON.stringify(name)}`);
  const { names, items } = leaves(stores);
  const key = utf8(name);
  const index = names.findIndex((n) => compareBytes(n, key) === 0);
  const { proofs } = merkleProofs(items);
  const aunts = proofs[index]!.aunts;
  const auntOnRight = sides(index, items.length);
  const path: InnerOp[] = aunts.map((aunt, i) =>
    auntOnRight[i]
      ? { hash: HASH_SHA256, prefix: Uint8Array.of(1), suffix: aunt }
      : { hash: HASH_SHA256, prefix: Uint8Array.of(1, ...aunt), suffix: new Uint8Array(0) },
  );
  return encodeCommitmentProof({
    exist: {
      key,
      value: root,
      leaf: { hash: HASH_SHA256, prehashKey: 0, prehashValue: HASH_SHA256, length: LENGTH_VAR_PROTO, prefix: Uint8Array.of(0) },
      path,
    },
  });
}

/** The two ProofOps of a `/store/<storeName>/key` query: the key in its store, then the store in the app hash. */
export function proofOps(keyProof: Uint8Array, key: Uint8Array, storeName: string, storeProof: Uint8Array): ProofOp[] {
  return [
    { type: 'ics23:iavl', key, data: keyProof },
    { type: 'ics23:simple', key: utf8(storeName), data: storeProof },
  ];
}

/**
 * ibc-go's `MerkleProof` (ibc.core.commitment.v1: `repeated cosmos.ics23.v1.CommitmentProof proofs = 1`)
 * over the same two proofs, key proof first: the `proof_*` bytes of IBC messages and queries.
 */
export function merkleProof(keyProof: Uint8Array, storeProof: Uint8Array): Uint8Array {
  const parts = [keyProof, storeProof];
  let size = 0;
  for (const p of parts) size += 1 + uvarintSize(p.length) + p.length;
  const out = new Uint8Array(size);
  let pos = 0;
  for (const p of parts) {
    out[pos++] = 0x0a; // field 1, length-delimited
    pos = writeUvarint(out, pos, p.length);
    out.set(p, pos);
    pos += p.length;
  }
  return out;
}
