/**
 * ICS-23 proof verification as ibc-go's 23-commitment `MerkleProof` does it for a Cosmos SDK
 * counterparty: a chained proof `[store proof (iavlSpec), multistore proof (tendermintSpec)]` of
 * the MerklePath `[prefix, ICS-24 path]` against a consensus state's root (the app hash), verified
 * with `@confio/ics23`. Errors are ibc-go's (23-commitment codespace `commitment`).
 */
import { calculateExistenceRoot, iavlSpec, ics23, tendermintSpec, verifyMembership, verifyNonMembership } from '@confio/ics23';
import { CosmosTxError } from '../sdk/errors.js';
import { bytesEqual, toHexUpper } from '../crypto/encoding.js';

/** ibc-go's SDK proof specs, lowest store first. */
const SDK_SPECS = [iavlSpec, tendermintSpec];

const invalidProof = (m: string) => new CosmosTxError(2, `${m}: invalid proof`, 'commitment');
const invalidMerkleProof = (m: string) => new CosmosTxError(4, `${m}: invalid merkle proof`, 'commitment');

const utf8 = new TextEncoder();

/** `MerkleProof { repeated CommitmentProof proofs = 1; }` decoded; undefined when the bytes are not one. */
export function decodeMerkleProof(bytes: Uint8Array): ics23.CommitmentProof[] | undefined {
  const out: ics23.CommitmentProof[] = [];
  let i = 0;
  const varint = (): number => {
    let v = 0;
    let shift = 0;
    for (;;) {
      if (i >= bytes.length || shift > 28) throw new Error('truncated varint');
      const b = bytes[i++]!;
      v += (b & 0x7f) * 2 ** shift;
      if ((b & 0x80) === 0) return v;
      shift += 7;
    }
  };
  try {
    while (i < bytes.length) {
      const tag = varint();
      if (tag !== ((1 << 3) | 2)) return undefined;
      const len = varint();
      if (i + len > bytes.length) return undefined;
      out.push(ics23.CommitmentProof.decode(bytes.subarray(i, i + len)));
      i += len;
    }
  } catch {
    return undefined;
  }
  return out;
}

/** `MerkleProof` bytes from its commitment proofs (lowest store first), as a relayer sends them. */
export function encodeMerkleProof(proofs: readonly Uint8Array[]): Uint8Array {
  const parts: number[] = [];
  for (const p of proofs) {
    parts.push(0x0a);
    let n = p.length;
    while (n >= 0x80) {
      parts.push((n & 0x7f) | 0x80);
      n >>>= 7;
    }
    parts.push(n);
    parts.push(...p);
  }
  return Uint8Array.from(parts);
}

/** The root a commitment proof commits to (existence, or a non-existence proof's neighbour). */
function proofRoot(p: ics23.ICommitmentProof, i: number): Uint8Array {
  const exist = p.exist ?? p.nonexist?.left ?? p.nonexist?.right;
  if (!exist) throw invalidProof(`could not calculate proof root at index ${i}, merkle tree may be empty`);
  try {
    return calculateExistenceRoot(exist);
  } catch (e) {
    throw invalidProof(`could not calculate proof root at index ${i}, merkle tree may be empty. ${(e as Error).message}`);
  }
}

function checkArgs(proofs: ics23.CommitmentProof[] | undefined, root: Uint8Array): ics23.CommitmentProof[] {
  if (proofs === undefined) throw invalidProof('failed to unmarshal proof into ICS 23 commitment merkle proof');
  if (proofs.length === 0) throw invalidMerkleProof('proof cannot be empty');
  if (root.length === 0) throw invalidMerkleProof('root cannot be empty');
  if (proofs.length !== SDK_SPECS.length) throw invalidMerkleProof(`length of specs: ${SDK_SPECS.length} not equal to length of proof: ${proofs.length}`);
  return proofs;
}

/** Each proof from `from` up commits to the value below it; the top one to `root` (verifyChainedMembershipProof). */
function verifyChain(root: Uint8Array, proofs: ics23.CommitmentProof[], keys: Uint8Array[], value: Uint8Array, from: number): void {
  let v = value;
  for (let i = from; i < proofs.length; i++) {
    const p = proofs[i]!;
    if (!p.exist) {
      throw invalidProof(
        p.nonexist
          ? `chained membership proof contains nonexistence proof at index ${i}. If this is unexpected, please ensure that proof was queried from a height that contained the value in store and was queried with the correct key`
          : `expected proof type: *ics23.CommitmentProof_Exist, got another at index ${i}`,
      );
    }
    const sub = proofRoot(p, i);
    const key = keys[keys.length - 1 - i]!;
    if (!verifyMembership(p, SDK_SPECS[i]!, sub, key, v)) {
      throw invalidProof(
        `chained membership proof failed to verify membership of value: ${toHexUpper(v)} in subroot ${toHexUpper(sub)} at index ${i}. Please ensure the path and value are both correct`,
      );
    }
    v = sub;
  }
  if (!bytesEqual(root, v)) {
    throw invalidProof(
      `proof did not commit to expected root: ${toHexUpper(root)}, got: ${toHexUpper(v)}. Please ensure proof was submitted with correct proofHeight and to the correct chain`,
    );
  }
}

/** The MerklePath `[prefix, path]` as key bytes, root first. */
function merklePath(prefix: Uint8Array, path: string): Uint8Array[] {
  return [prefix, utf8.encode(path)];
}

/** ibc-go's MerkleProof.VerifyMembership: `value` at `prefix`/`path` under `root`; throws ibc-go's error. */
export function verifyIbcMembership(proofBytes: Uint8Array, root: Uint8Array, prefix: Uint8Array, path: string, value: Uint8Array): void {
  const proofs = checkArgs(decodeMerkleProof(proofBytes), root);
  if (value.length === 0) throw invalidProof('empty value in membership proof');
  verifyChain(root, proofs, merklePath(prefix, path), value, 0);
}

/** ibc-go's MerkleProof.VerifyNonMembership: nothing at `prefix`/`path` under `root`; throws ibc-go's error. */
export function verifyIbcNonMembership(proofBytes: Uint8Array, root: Uint8Array, prefix: Uint8Array, path: string): void {
  const proofs = checkArgs(decodeMerkleProof(proofBytes), root);
  const keys = merklePath(prefix, path);
  const first = proofs[0]!;
  if (first.exist) {
    throw invalidProof('got ExistenceProof in VerifyNonMembership. If this is unexpected, please ensure that proof was queried with the correct key');
  }
  if (!first.nonexist) throw invalidProof('expected proof type: *ics23.CommitmentProof_Nonexist, got another');
  const sub = proofRoot(first, 0);
  if (!verifyNonMembership(first, SDK_SPECS[0]!, sub, keys[1]!)) {
    throw invalidProof(`could not verify absence of key ${path}. Please ensure that the path is correct`);
  }
  verifyChain(root, proofs, keys, sub, 1);
}
