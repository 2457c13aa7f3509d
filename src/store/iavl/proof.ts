/**
 * Reads and ICS-23 proofs over one committed version of an IAVL tree, as cosmos/iavl builds them
 * (proof_ics23.go): an existence proof is the leaf's op (prefix = varint 0, 1, version) and one
 * inner op per node on the path, leaf first (prefix = varint height, size, version, then 0x20 and
 * the left sibling's hash and 0x20 when the path goes right, or 0x20 with suffix 0x20 ‖ right
 * sibling's hash when it goes left). A non-existence proof holds the existence proofs of the
 * neighbours, found by index as iavl does (`GetWithIndex`, `GetByIndex`); for an empty tree it
 * has neither, which ICS-23 does not verify (the Cosmos SDK answers the same).
 *
 * The tree may be partly on disk (a past version): children not in memory come through `load`.
 */
import { compareBytes, concatBytes } from '../../crypto/encoding.js';
import { HASH_SHA256, LENGTH_VAR_PROTO, type ExistenceProof, type InnerOp, type NonExistenceProof } from './ics23-codec.js';
import { childHash, zigzag, type IavlNode } from './node.js';

export type NodeLoader = (hash: Uint8Array) => Promise<IavlNode>;

async function child(n: IavlNode, side: 'left' | 'right', load: NodeLoader): Promise<IavlNode> {
  const c = side === 'left' ? n.left : n.right;
  return c ?? load(childHash(n, side));
}

/** The value at `key` in the version rooted at `root`. */
export async function getIn(root: IavlNode | undefined, key: Uint8Array, load: NodeLoader): Promise<Uint8Array | undefined> {
  let n = root;
  while (n !== undefined) {
    if (n.isLeaf) return compareBytes(key, n.key) === 0 ? n.value : undefined;
    n = await child(n, compareBytes(key, n.key) < 0 ? 'left' : 'right', load);
  }
  return undefined;
}

/** The number of keys below `key` (its index if present). */
async function indexOf(root: IavlNode, key: Uint8Array, load: NodeLoader): Promise<number> {
  let n = root;
  let index = 0;
  for (;;) {
    if (n.isLeaf) return index + (compareBytes(n.key, key) < 0 ? 1 : 0);
    if (compareBytes(key, n.key) < 0) {
      n = await child(n, 'left', load);
    } else {
      const l = await child(n, 'left', load);
      index += l.size;
      n = await child(n, 'right', load);
    }
  }
}

/** The key at `index` in sorted order, or undefined past the end. */
async function keyAt(root: IavlNode, index: number, load: NodeLoader): Promise<Uint8Array | undefined> {
  if (index < 0 || index >= root.size) return undefined;
  let n = root;
  while (!n.isLeaf) {
    const l = await child(n, 'left', load);
    if (index < l.size) {
      n = l;
    } else {
      index -= l.size;
      n = await child(n, 'right', load);
    }
  }
  return n.key;
}

const HASH_LEN_BYTE = Uint8Array.of(32);

/** The existence proof of `key`, or undefined when it is absent. */
export async function existenceProof(root: IavlNode | undefined, key: Uint8Array, load: NodeLoader): Promise<ExistenceProof | undefined> {
  if (root === undefined) return undefined;
  const steps: InnerOp[] = [];
  let n = root;
  while (!n.isLeaf) {
    const header = [zigzag(n.height), zigzag(n.size), zigzag(n.version)];
    if (compareBytes(key, n.key) < 0) {
      steps.push({ hash: HASH_SHA256, prefix: concatBytes(...header, HASH_LEN_BYTE), suffix: concatBytes(HASH_LEN_BYTE, childHash(n, 'right')) });
      n = await child(n, 'left', load);
    } else {
      steps.push({ hash: HASH_SHA256, prefix: concatBytes(...header, HASH_LEN_BYTE, childHash(n, 'left'), HASH_LEN_BYTE), suffix: new Uint8Array(0) });
      n = await child(n, 'right', load);
    }
  }
  if (compareBytes(key, n.key) !== 0) return undefined;
  return {
    key: n.key,
    value: n.value!,
    leaf: {
      hash: HASH_SHA256,
      prehashKey: 0,
      prehashValue: HASH_SHA256,
      length: LENGTH_VAR_PROTO,
      prefix: concatBytes(zigzag(0), zigzag(1), zigzag(n.version)),
    },
    path: steps.reverse(),
  };
}

/** The non-existence proof of `key`, or undefined when it is present. */
export async function nonExistenceProof(root: IavlNode | undefined, key: Uint8Array, load: NodeLoader): Promise<NonExistenceProof | undefined> {
  if (root === undefined) return { key, left: undefined, right: undefined };
  if ((await getIn(root, key, load)) !== undefined) return undefined;
  const index = await indexOf(root, key, load);
  const leftKey = await keyAt(root, index - 1, load);
  const rightKey = await keyAt(root, index, load);
  return {
    key,
    left: leftKey === undefined ? undefined : await existenceProof(root, leftKey, load),
    right: rightKey === undefined ? undefined : await existenceProof(root, rightKey, load),
  };
}
