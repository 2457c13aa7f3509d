import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { concatBytes, toHex, toHexUpper } from './encoding.js';
import { merkleProofs, merkleRoot, verifyMerkleProof, type MerkleProof } from './merkle.js';

const sha = (b: Uint8Array): Uint8Array => new Uint8Array(createHash('sha256').update(b).digest());
const leaf = (x: Uint8Array): Uint8Array => sha(concatBytes(new Uint8Array([0]), x));
const inner = (l: Uint8Array, r: Uint8Array): Uint8Array => sha(concatBytes(new Uint8Array([1]), l, r));
const items = (n: number): Uint8Array[] => Array.from({ length: n }, (_, i) => new Uint8Array([i, i * 7 + 1, 0xff - i]));

describe('merkleRoot', () => {
  it('is sha256("") for no items', () => {
    expect(toHexUpper(merkleRoot([]))).toBe('E3B0C44298FC1C149AFBF4C8996FB92427AE41E4649B934CA495991B7852B855');
  });

  it('builds a two-leaf tree as 0x01-prefixed hash of 0x00-prefixed leaves', () => {
    const a = new Uint8Array([1, 2, 3]);
    const b = new Uint8Array([4, 5, 6]);
    expect(merkleRoot([a, b])).toEqual(inner(leaf(a), leaf(b)));
  });

  it('splits at the largest power of two below n', () => {
    const [a, b, c, d, e] = items(5) as [Uint8Array, Uint8Array, Uint8Array, Uint8Array, Uint8Array];
    const left4 = inner(inner(leaf(a), leaf(b)), inner(leaf(c), leaf(d)));
    expect(merkleRoot([a, b, c, d, e])).toEqual(inner(left4, leaf(e)));
    expect(merkleRoot([a, b, c])).toEqual(inner(inner(leaf(a), leaf(b)), leaf(c)));
  });

  // Vectors from CometBFT crypto/merkle/tree_test.go TestHashFromByteSlices.
  it.each([
    ['single', [[1, 2, 3]], '054edec1d0211f624fed0cbca9d4f9400b0e491c43742af2c5b0abebf0c990d8'],
    ['single blank', [[]], '6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d'],
    [
      'two',
      [
        [1, 2, 3],
        [4, 5, 6],
      ],
      '82e6cfce00453804379b53962939eaa7906b39904be0813fcadd31b100773c4b',
    ],
    [
      'many',
      [
        [1, 2],
        [3, 4],
        [5, 6],
        [7, 8],
        [9, 10],
      ],
      'f326493eceab4f2d9ffbc78c59432a0a005d6ea98392045c74df5d14a113be18',
    ],
  ])('matches the CometBFT vector %s', (_name, slices, expected) => {
    expect(toHex(merkleRoot(slices.map((s) => new Uint8Array(s))))).toBe(expected);
  });
});

describe('merkleProofs', () => {
  it('returns the empty root and no proofs for no items', () => {
    const { root, proofs } = merkleProofs([]);
    expect(toHexUpper(root)).toBe('E3B0C44298FC1C149AFBF4C8996FB92427AE41E4649B934CA495991B7852B855');
    expect(proofs).toEqual([]);
  });

  it('lists aunts from the sibling upwards', () => {
    const [a, b, c] = items(3) as [Uint8Array, Uint8Array, Uint8Array];
    const { proofs } = merkleProofs([a, b, c]);
    expect(proofs[0]!.aunts).toEqual([leaf(b), leaf(c)]);
    expect(proofs[2]!.aunts).toEqual([inner(leaf(a), leaf(b))]);
    expect(proofs[1]).toMatchObject({ total: 3, index: 1, leafHash: leaf(b) });
  });

  it.each([1, 2, 3, 7, 8, 9, 100])('every proof of %i items verifies against the root', (n) => {
    const xs = items(n);
    const { root, proofs } = merkleProofs(xs);
    expect(root).toEqual(merkleRoot(xs));
    proofs.forEach((p, i) => {
      expect(p.index).toBe(i);
      expect(p.total).toBe(n);
      expect(verifyMerkleProof(p, root, xs[i]!)).toBe(true);
    });
  });

  it('rejects tampered proofs, leaves and roots', () => {
    const xs = items(10);
    const { root, proofs } = merkleProofs(xs);
    const p = proofs[6]!;
    const flip = (b: Uint8Array): Uint8Array => {
      const c = b.slice();
      c[0] = c[0]! ^ 1;
      return c;
    };
    const variants: [string, MerkleProof, Uint8Array, Uint8Array][] = [
      ['wrong leaf', p, root, xs[5]!],
      ['mutated root', p, flip(root), xs[6]!],
      ['extra aunt', { ...p, aunts: [...p.aunts, root] }, root, xs[6]!],
      ['missing aunt', { ...p, aunts: p.aunts.slice(0, -1) }, root, xs[6]!],
      ['mutated aunt', { ...p, aunts: [flip(p.aunts[0]!), ...p.aunts.slice(1)] }, root, xs[6]!],
      ['wrong index', { ...p, index: 7 }, root, xs[6]!],
      ['index out of range', { ...p, index: 10 }, root, xs[6]!],
      ['negative index', { ...p, index: -1 }, root, xs[6]!],
      ['zero total', { ...p, total: 0 }, root, xs[6]!],
      ['wrong leaf hash', { ...p, leafHash: flip(p.leafHash) }, root, xs[6]!],
    ];
    expect(verifyMerkleProof(p, root, xs[6]!)).toBe(true);
    for (const [name, proof, r, item] of variants) {
      expect(verifyMerkleProof(proof, r, item), name).toBe(false);
    }
  });
});
