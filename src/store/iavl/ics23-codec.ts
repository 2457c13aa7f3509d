/**
 * ICS-23 proof messages (cosmos.ics23.v1, proofs.proto) and their protobuf encoding, written with
 * the codec's proto3 writers so a proof costs no protobuf runtime of its own and can be built
 * synchronously. The bytes decode with `@confio/ics23`'s `ics23.CommitmentProof.decode` (tested).
 */
import { bytesField, finish, messageField, newWriter, varintField, type ProtoWriter } from '../../codec/proto-wire.js';

/** ics23 HashOp / LengthOp values used here. */
export const HASH_SHA256 = 1;
export const LENGTH_VAR_PROTO = 1;

export interface LeafOp {
  hash: number;
  prehashKey: number;
  prehashValue: number;
  length: number;
  prefix: Uint8Array;
}

export interface InnerOp {
  hash: number;
  prefix: Uint8Array;
  suffix: Uint8Array;
}

export interface ExistenceProof {
  key: Uint8Array;
  value: Uint8Array;
  leaf: LeafOp;
  /** From the leaf up to the root. */
  path: InnerOp[];
}

export interface NonExistenceProof {
  key: Uint8Array;
  left: ExistenceProof | undefined;
  right: ExistenceProof | undefined;
}

export type CommitmentProof = { exist: ExistenceProof } | { nonexist: NonExistenceProof };

function writeLeaf(w: ProtoWriter, l: LeafOp): void {
  varintField(w, 1, l.hash);
  varintField(w, 2, l.prehashKey);
  varintField(w, 3, l.prehashValue);
  varintField(w, 4, l.length);
  bytesField(w, 5, l.prefix);
}

function writeInner(w: ProtoWriter, op: InnerOp): void {
  varintField(w, 1, op.hash);
  bytesField(w, 2, op.prefix);
  bytesField(w, 3, op.suffix);
}

function writeExist(w: ProtoWriter, p: ExistenceProof): void {
  bytesField(w, 1, p.key);
  bytesField(w, 2, p.value);
  messageField(w, 3, writeLeaf, p.leaf);
  for (const op of p.path) messageField(w, 4, writeInner, op);
}

function writeNonExist(w: ProtoWriter, p: NonExistenceProof): void {
  bytesField(w, 1, p.key);
  if (p.left) messageField(w, 2, writeExist, p.left);
  if (p.right) messageField(w, 3, writeExist, p.right);
}

/** `CommitmentProof` bytes (a fresh array the caller may keep). */
export function encodeCommitmentProof(p: CommitmentProof): Uint8Array {
  const w = newWriter();
  if ('exist' in p) messageField(w, 1, writeExist, p.exist);
  else messageField(w, 2, writeNonExist, p.nonexist);
  return finish(w).slice();
}
