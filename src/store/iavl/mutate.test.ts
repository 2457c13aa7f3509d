import { describe, expect, it } from 'vitest';
import { Rng } from '../../../test/fuzz/rng.js';
import { compareBytes, toHex } from '../../crypto/encoding.js';
import { treeGet, treeIterate, treeRemove, treeSet } from './mutate.js';
import type { IavlNode } from './node.js';

/** Checks the AVL and IAVL invariants of a subtree (throws on the first broken one); returns its smallest key. */
function check(n: IavlNode): Uint8Array {
  const fail = (what: string): never => {
    throw new Error(`invariant broken at key ${toHex(n.key)}: ${what}`);
  };
  if (n.isLeaf) {
    if (n.size !== 1 || n.value === undefined) fail('leaf');
    return n.key;
  }
  const l = n.left!;
  const r = n.right!;
  const lMin = check(l);
  const rMin = check(r);
  if (n.height !== Math.max(l.height, r.height) + 1) fail('height');
  if (n.size !== l.size + r.size) fail('size');
  if (Math.abs(l.height - r.height) > 1) fail('balance');
  // An inner node's key is the smallest key of its right subtree.
  if (compareBytes(n.key, rMin) !== 0) fail('key');
  return lMin;
}

function randomKey(rng: Rng): Uint8Array {
  const k = new Uint8Array(1 + rng.int(4));
  for (let i = 0; i < k.length; i++) k[i] = rng.int(256);
  return k;
}

describe('IAVL writes', () => {
  it('keep the AVL invariants and the contents through seeded random inserts, updates and deletes', () => {
    for (const seed of [1, 2, 3]) {
      const rng = new Rng(seed);
      const model = new Map<string, Uint8Array>();
      let root: IavlNode | undefined;
      for (let step = 0; step < 1500; step++) {
        const keys = [...model.keys()];
        if (keys.length > 0 && rng.chance(0.3)) {
          const k = rng.pick(keys);
          const r = treeRemove(root, Buffer.from(k, 'hex'));
          expect(r.removed).toBe(true);
          root = r.node;
          model.delete(k);
        } else if (rng.chance(0.05)) {
          // Removing an absent key changes nothing.
          const k = randomKey(rng);
          if (!model.has(toHex(k))) {
            const r = treeRemove(root, k);
            expect(r.removed).toBe(false);
            expect(r.node).toBe(root);
          }
        } else {
          const k = keys.length > 0 && rng.chance(0.2) ? Buffer.from(rng.pick(keys), 'hex') : randomKey(rng);
          const v = Uint8Array.of(rng.int(256), step & 0xff);
          const r = treeSet(root, new Uint8Array(k), v);
          expect(r.updated).toBe(model.has(toHex(k)));
          root = r.node;
          model.set(toHex(k), v);
        }
        if (step % 25 === 0 && root !== undefined) check(root);
      }
      if (root !== undefined) check(root);
      const sorted = [...model.keys()].sort((a, b) => compareBytes(Buffer.from(a, 'hex'), Buffer.from(b, 'hex')));
      expect([...treeIterate(root)].map(([k]) => toHex(k))).toEqual(sorted);
      for (const [k, v] of model) expect(toHex(treeGet(root, Buffer.from(k, 'hex'))!)).toBe(toHex(v));
      expect(root?.size ?? 0).toBe(model.size);
    }
  });

  it('iterates a range with an inclusive start and an exclusive end', () => {
    let root: IavlNode | undefined;
    for (let i = 0; i < 20; i++) root = treeSet(root, Uint8Array.of(i * 2), Uint8Array.of(i)).node;
    const keys = (s?: number, e?: number) =>
      [...treeIterate(root, s === undefined ? undefined : Uint8Array.of(s), e === undefined ? undefined : Uint8Array.of(e))].map(([k]) => k[0]);
    expect(keys(4, 10)).toEqual([4, 6, 8]);
    expect(keys(5, 11)).toEqual([6, 8, 10]);
    expect(keys(undefined, 3)).toEqual([0, 2]);
    expect(keys(36)).toEqual([36, 38]);
    expect(keys(39)).toEqual([]);
  });

  it('shares the nodes off a write path with the tree before it (copy-on-write)', () => {
    let root: IavlNode | undefined;
    for (let i = 0; i < 64; i++) root = treeSet(root, Uint8Array.of(i), Uint8Array.of(i)).node;
    const before = root!;
    const after = treeSet(before, Uint8Array.of(0), Uint8Array.of(99)).node;
    // The right half is untouched by a write at the far left.
    expect(after.right).toBe(before.right);
    expect(treeGet(before, Uint8Array.of(0))![0]).toBe(0);
    expect(treeGet(after, Uint8Array.of(0))![0]).toBe(99);
  });
});
