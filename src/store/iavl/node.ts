/**
 * An IAVL node and its hash, byte for byte as cosmos/iavl (v1) hashes it, so that ICS-23's
 * `iavlSpec` verifies our proofs:
 *
 *   leaf  = sha256(varint 0 ‖ varint 1 ‖ varint version ‖ uvarint len(key) ‖ key ‖ 0x20 ‖ sha256(value))
 *   inner = sha256(varint height ‖ varint size ‖ varint version ‖ 0x20 ‖ left hash ‖ 0x20 ‖ right hash)
 *
 * `varint` is Go's zigzag `binary.PutVarint` (every number here is >= 0, so it is the uvarint of
 * 2n); `version` is the version the node was created in. An inner node's key is the smallest key
 * of its right subtree. The hash of an empty tree is sha256 of nothing (iavl `hashWithCount(nil)`).
 *
 * Nodes are immutable once built (copy-on-write: a write builds new nodes along its path); only
 * `version`, `hash` and `saved` are filled in later, once, when the node is first hashed/saved.
 */
import { sha256 } from '../../crypto/hash.js';

const HASH_LEN = 32;
export const EMPTY_ROOT: Uint8Array = sha256(new Uint8Array(0));

export class IavlNode {
  /** Version the node was created in; 0 until it is hashed. */
  version = 0;
  hash: Uint8Array | undefined = undefined;
  /** Written to the node db (its children too). */
  saved = false;

  constructor(
    readonly key: Uint8Array,
    /** Leaves only. */
    readonly value: Uint8Array | undefined,
    readonly height: number,
    readonly size: number,
    /** Inner nodes: the children, when in memory; a node read back from a db has only their hashes. */
    readonly left: IavlNode | undefined,
    readonly right: IavlNode | undefined,
    readonly leftHash?: Uint8Array,
    readonly rightHash?: Uint8Array,
  ) {}

  get isLeaf(): boolean {
    return this.height === 0;
  }
}

export function leafNode(key: Uint8Array, value: Uint8Array): IavlNode {
  return new IavlNode(key, value, 0, 1, undefined, undefined);
}

/** A new inner node over two in-memory children (iavl `calcHeightAndSize`). */
export function innerNode(key: Uint8Array, left: IavlNode, right: IavlNode): IavlNode {
  return new IavlNode(key, undefined, Math.max(left.height, right.height) + 1, left.size + right.size, left, right);
}

export function childHash(n: IavlNode, side: 'left' | 'right'): Uint8Array {
  const h = side === 'left' ? (n.left?.hash ?? n.leftHash) : (n.right?.hash ?? n.rightHash);
  if (h === undefined) throw new Error(`iavl: ${side} child of an inner node has no hash`);
  return h;
}

/** Byte length of `n` as an unsigned varint (n < 2^53). */
export function uvarintSize(n: number): number {
  let size = 1;
  while (n >= 0x80) {
    n = Math.floor(n / 0x80);
    size++;
  }
  return size;
}

/** Writes `n` (< 2^53) as an unsigned varint at `pos`; returns the position after it. */
export function writeUvarint(buf: Uint8Array, pos: number, n: number): number {
  while (n >= 0x80) {
    buf[pos++] = (n % 0x80) | 0x80;
    n = Math.floor(n / 0x80);
  }
  buf[pos++] = n;
  return pos;
}

/** The bytes of `n` (>= 0) as Go's zigzag varint: the uvarint of 2n. */
export function zigzag(n: number): Uint8Array {
  const out = new Uint8Array(uvarintSize(2 * n));
  writeUvarint(out, 0, 2 * n);
  return out;
}

/** The node header the hash starts with: height, size, version (zigzag varints). */
function headerSize(height: number, size: number, version: number): number {
  return uvarintSize(2 * height) + uvarintSize(2 * size) + uvarintSize(2 * version);
}

function writeHeader(buf: Uint8Array, height: number, size: number, version: number): number {
  let pos = writeUvarint(buf, 0, 2 * height);
  pos = writeUvarint(buf, pos, 2 * size);
  return writeUvarint(buf, pos, 2 * version);
}

export function leafHash(key: Uint8Array, value: Uint8Array, version: number): Uint8Array {
  const buf = new Uint8Array(headerSize(0, 1, version) + uvarintSize(key.length) + key.length + 1 + HASH_LEN);
  let pos = writeHeader(buf, 0, 1, version);
  pos = writeUvarint(buf, pos, key.length);
  buf.set(key, pos);
  pos += key.length;
  buf[pos++] = HASH_LEN;
  buf.set(sha256(value), pos);
  return sha256(buf);
}

export function innerHash(height: number, size: number, version: number, left: Uint8Array, right: Uint8Array): Uint8Array {
  const buf = new Uint8Array(headerSize(height, size, version) + 2 + left.length + right.length);
  let pos = writeHeader(buf, height, size, version);
  buf[pos++] = left.length;
  buf.set(left, pos);
  pos += left.length;
  buf[pos++] = right.length;
  buf.set(right, pos);
  return sha256(buf);
}

/**
 * Hashes `n` and every not yet hashed node under it as created in `version` (iavl
 * `hashWithCount`): a node hashed once keeps its hash and version.
 */
export function hashNode(n: IavlNode, version: number): Uint8Array {
  if (n.hash !== undefined) return n.hash;
  if (n.isLeaf) {
    n.hash = leafHash(n.key, n.value!, version);
  } else {
    const l = hashNode(n.left!, version);
    const r = hashNode(n.right!, version);
    n.hash = innerHash(n.height, n.size, version, l, r);
  }
  n.version = version;
  return n.hash;
}

// ---- storage encoding (ours, not iavl's): uvarint height, size, version, len-prefixed key, then
// ---- a leaf's len-prefixed value or an inner node's two child hashes. The node's hash is its db key.

export function encodeNode(n: IavlNode): Uint8Array {
  const tail = n.isLeaf ? uvarintSize(n.value!.length) + n.value!.length : 2 * HASH_LEN;
  const buf = new Uint8Array(uvarintSize(n.height) + uvarintSize(n.size) + uvarintSize(n.version) + uvarintSize(n.key.length) + n.key.length + tail);
  let pos = writeUvarint(buf, 0, n.height);
  pos = writeUvarint(buf, pos, n.size);
  pos = writeUvarint(buf, pos, n.version);
  pos = writeUvarint(buf, pos, n.key.length);
  buf.set(n.key, pos);
  pos += n.key.length;
  if (n.isLeaf) {
    pos = writeUvarint(buf, pos, n.value!.length);
    buf.set(n.value!, pos);
  } else {
    buf.set(childHash(n, 'left'), pos);
    buf.set(childHash(n, 'right'), pos + HASH_LEN);
  }
  return buf;
}

export class CorruptNodeError extends Error {
  constructor(what: string) {
    super(`iavl: corrupt node record (${what})`);
    this.name = 'CorruptNodeError';
  }
}

function readUvarint(buf: Uint8Array, pos: number): [number, number] {
  let n = 0;
  let mul = 1;
  for (let i = 0; i < 8; i++) {
    if (pos >= buf.length) throw new CorruptNodeError('truncated varint');
    const b = buf[pos++]!;
    n += (b & 0x7f) * mul;
    if (b < 0x80) return [n, pos];
    mul *= 0x80;
  }
  throw new CorruptNodeError('varint too long');
}

/** A stored node, saved, with its children as hashes only (copies out of `stored`, which may be a Buffer). */
export function decodeNode(hash: Uint8Array, stored: Uint8Array): IavlNode {
  const buf = new Uint8Array(stored.buffer, stored.byteOffset, stored.byteLength);
  let pos = 0;
  let height: number, size: number, version: number, keyLen: number;
  [height, pos] = readUvarint(buf, pos);
  [size, pos] = readUvarint(buf, pos);
  [version, pos] = readUvarint(buf, pos);
  [keyLen, pos] = readUvarint(buf, pos);
  if (pos + keyLen > buf.length) throw new CorruptNodeError('key');
  const key = buf.slice(pos, pos + keyLen);
  pos += keyLen;
  let n: IavlNode;
  if (height === 0) {
    let valueLen: number;
    [valueLen, pos] = readUvarint(buf, pos);
    if (pos + valueLen !== buf.length) throw new CorruptNodeError('value');
    n = new IavlNode(key, buf.slice(pos, pos + valueLen), 0, size, undefined, undefined);
  } else {
    if (pos + 2 * HASH_LEN !== buf.length) throw new CorruptNodeError('children');
    n = new IavlNode(key, undefined, height, size, undefined, undefined, buf.slice(pos, pos + HASH_LEN), buf.slice(pos + HASH_LEN));
  }
  n.version = version;
  n.hash = hash;
  n.saved = true;
  return n;
}
