/** Tx hashes, the block data hash and tx inclusion proofs (CometBFT types/tx.go). */
import { bytesEqual } from '../crypto/encoding.js';
import { sha256 } from '../crypto/hash.js';
import { merkleProofs, merkleRoot, verifyMerkleProof, type MerkleProof } from '../crypto/merkle.js';
import { TxIndexOutOfRangeError } from './errors.js';

/**
 * The hash of every tx bytes object hashed so far. A tx's bytes travel as one object from
 * broadcast through CheckTx, the mempool, the proposal (data hash), FinalizeBlock, the mempool
 * update and the indexer, and each needs its hash: it is computed once. Tx bytes are never
 * modified once submitted; entries go with their bytes (weak keys).
 */
const hashes = new WeakMap<Uint8Array, Uint8Array>();

/** Tx hash = sha256(tx) (shown upper-case hex by the RPC). The result is shared: do not modify it. */
export function txHash(tx: Uint8Array): Uint8Array {
  let h = hashes.get(tx);
  if (h === undefined) {
    h = sha256(tx);
    hashes.set(tx, h);
  }
  return h;
}

/** Header `data_hash`: merkle root over the tx hashes (the leaves are hashes, not raw txs). */
export function txsHash(txs: readonly Uint8Array[]): Uint8Array {
  return merkleRoot(txs.map(txHash));
}

export interface TxProof {
  rootHash: Uint8Array;
  data: Uint8Array;
  proof: MerkleProof;
}

/** Inclusion proof of `txs[index]` under `txsHash(txs)`. */
export function txProof(txs: readonly Uint8Array[], index: number): TxProof {
  if (!Number.isInteger(index) || index < 0 || index >= txs.length) throw new TxIndexOutOfRangeError(index, txs.length);
  const { root, proofs } = merkleProofs(txs.map(txHash));
  return { rootHash: root, data: txs[index]!, proof: proofs[index]! };
}

/** CometBFT `TxProof.Validate`: the root must equal `dataHash` and the proof must hold for sha256(data). */
export function verifyTxProof(p: TxProof, dataHash: Uint8Array): boolean {
  if (!bytesEqual(p.rootHash, dataHash)) return false;
  return verifyMerkleProof(p.proof, p.rootHash, txHash(p.data));
}
