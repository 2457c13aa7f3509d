/**
 * Writes to an IAVL tree as cosmos/iavl's MutableTree does them (`recursiveSet`,
 * `recursiveRemove`, `balance`, `rotateLeft/Right`), so the same writes give the same shape and so
 * the same root hash. Copy-on-write: every node on a write's path (and every node a rotation
 * touches) is a new node, created in the working version; the nodes off the path are shared with
 * the committed versions. Works on in-memory nodes only (the working tree is always in memory).
 */
import { compareBytes } from '../../crypto/encoding.js';
import { innerNode, leafNode, type IavlNode } from './node.js';

function left(n: IavlNode): IavlNode {
  return n.left!;
}
function right(n: IavlNode): IavlNode {
  return n.right!;
}

function rotateRight(n: IavlNode): IavlNode {
  const l = left(n);
  return innerNode(l.key, left(l), innerNode(n.key, right(l), right(n)));
}

function rotateLeft(n: IavlNode): IavlNode {
  const r = right(n);
  return innerNode(r.key, innerNode(n.key, left(n), left(r)), right(r));
}

function balanceOf(n: IavlNode): number {
  return n.isLeaf ? 0 : left(n).height - right(n).height;
}

/** AVL rebalancing of a freshly built inner node, with iavl's choice of cases. */
function balance(n: IavlNode): IavlNode {
  const b = balanceOf(n);
  if (b > 1) {
    if (balanceOf(left(n)) >= 0) return rotateRight(n);
    return rotateRight(innerNode(n.key, rotateLeft(left(n)), right(n)));
  }
  if (b < -1) {
    if (balanceOf(right(n)) <= 0) return rotateLeft(n);
    return rotateLeft(innerNode(n.key, left(n), rotateRight(right(n))));
  }
  return n;
}

interface SetResult {
  node: IavlNode;
  /** The key existed: its leaf was replaced, the shape did not change. */
  updated: boolean;
}

function recursiveSet(n: IavlNode, key: Uint8Array, value: Uint8Array): SetResult {
  if (n.isLeaf) {
    const c = compareBytes(key, n.key);
    if (c < 0) return { node: innerNode(n.key, leafNode(key, value), n), updated: false };
    if (c > 0) return { node: innerNode(key, n, leafNode(key, value)), updated: false };
    return { node: leafNode(key, value), updated: true };
  }
  let built: IavlNode;
  let updated: boolean;
  if (compareBytes(key, n.key) < 0) {
    const r = recursiveSet(left(n), key, value);
    built = innerNode(n.key, r.node, right(n));
    updated = r.updated;
  } else {
    const r = recursiveSet(right(n), key, value);
    built = innerNode(n.key, left(n), r.node);
    updated = r.updated;
  }
  return { node: updated ? built : balance(built), updated };
}

/** The root after setting `key`; `updated` when the key was already there. */
export function treeSet(root: IavlNode | undefined, key: Uint8Array, value: Uint8Array): SetResult {
  if (root === undefined) return { node: leafNode(key, value), updated: false };
  return recursiveSet(root, key, value);
}

interface RemoveResult {
  node: IavlNode | undefined;
  /** The new smallest key of the returned subtree, when it changed (iavl's `newKey`). */
  newKey: Uint8Array | undefined;
  removed: boolean;
}

const NOT_REMOVED = { newKey: undefined, removed: false } as const;

function recursiveRemove(n: IavlNode, key: Uint8Array): RemoveResult {
  if (n.isLeaf) return compareBytes(key, n.key) === 0 ? { node: undefined, newKey: undefined, removed: true } : { node: n, ...NOT_REMOVED };
  if (compareBytes(key, n.key) < 0) {
    const r = recursiveRemove(left(n), key);
    if (!r.removed) return { node: n, ...NOT_REMOVED };
    // The left leaf went: the right subtree takes this node's place, and its smallest key (this
    // node's key) becomes the subtree's new smallest key.
    if (r.node === undefined) return { node: right(n), newKey: n.key, removed: true };
    return { node: balance(innerNode(n.key, r.node, right(n))), newKey: r.newKey, removed: true };
  }
  const r = recursiveRemove(right(n), key);
  if (!r.removed) return { node: n, ...NOT_REMOVED };
  if (r.node === undefined) return { node: left(n), newKey: undefined, removed: true };
  return { node: balance(innerNode(r.newKey ?? n.key, left(n), r.node)), newKey: undefined, removed: true };
}

/** The root after removing `key` (the same root when it was absent). */
export function treeRemove(root: IavlNode | undefined, key: Uint8Array): { node: IavlNode | undefined; removed: boolean } {
  if (root === undefined) return { node: undefined, removed: false };
  const r = recursiveRemove(root, key);
  return r.removed ? { node: r.node, removed: true } : { node: root, removed: false };
}

/** The value at `key` in an in-memory tree. */
export function treeGet(root: IavlNode | undefined, key: Uint8Array): Uint8Array | undefined {
  let n = root;
  while (n !== undefined) {
    if (n.isLeaf) return compareBytes(key, n.key) === 0 ? n.value : undefined;
    n = compareBytes(key, n.key) < 0 ? n.left : n.right;
  }
  return undefined;
}

/** Entries of an in-memory tree with start <= key < end, in key order. */
export function* treeIterate(root: IavlNode | undefined, start?: Uint8Array, end?: Uint8Array): Generator<[Uint8Array, Uint8Array]> {
  if (root === undefined) return;
  const stack: IavlNode[] = [root];
  while (stack.length > 0) {
    const n = stack.pop()!;
    if (n.isLeaf) {
      if ((start === undefined || compareBytes(n.key, start) >= 0) && (end === undefined || compareBytes(n.key, end) < 0)) yield [n.key, n.value!];
      continue;
    }
    // Keys of the right subtree are >= n.key, of the left one < n.key.
    if (end === undefined || compareBytes(n.key, end) < 0) stack.push(right(n));
    if (start === undefined || compareBytes(start, n.key) < 0) stack.push(left(n));
  }
}
