/** Tx hashes, the block data hash and tx inclusion proofs (CometBFT types/tx.go). */
import { bytesEqual } from '../crypto/encoding.js';
import { sha256 } from '../crypto/hash.js';
import { merkleProofs, merkleRoot, verifyMerkleProof, type MerkleProof } from '../crypto/merkle.js';
import { TxIndexOutOfRangeError } from './errors.js';

/** Tx hash = sha256(tx) (shown upper-case hex by the RPC). */
export function txHash(tx: Uint8Array): Uint8Array {
  return sha256(tx);
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
